using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using Perfolizer.Horology;
using BenchmarkDotNet.Jobs;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// The LowerBound suite's job: a stated budget instead of BenchmarkDotNet's default, whose iteration count grows with
/// the machine's noise. One launch per benchmark; 4 warm-up and 12 measured iterations of 250 ms, each 1,000
/// searches times as many invocations as fill it; no overhead
/// evaluation, which is nothing beside 1,000 searches per invocation. The uncertainty stays in the table: the median
/// beside the mean, its Error (half the 99.9% confidence interval) and the standard deviation.
/// </summary>
public sealed class LowerBoundConfig : ManualConfig
{
    public const int WarmupIterations = 4;
    public const int MeasuredIterations = 12;
    public const int IterationMilliseconds = 250;

    public LowerBoundConfig()
    {
        AddJob(Job.Default
            .WithLaunchCount(1)
            .WithWarmupCount(WarmupIterations)
            .WithIterationCount(MeasuredIterations)
            .WithIterationTime(TimeInterval.FromMilliseconds(IterationMilliseconds))
            .WithEvaluateOverhead(false)
            .WithId("LowerBound"));
        AddColumn(StatisticColumn.Median);
    }
}
