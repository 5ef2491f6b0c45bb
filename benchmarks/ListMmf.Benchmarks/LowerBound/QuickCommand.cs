using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text.Json;
using ListMmf.Benchmarks.Core;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// <c>quick</c>: the LowerBound comparison without BenchmarkDotNet, in seconds. Rounds are interleaved (every
/// implementation once per round, in a new random order each round) and each figure is the median over rounds, so
/// machine noise hits all implementations alike. Every implementation's indices for the query set's check targets are hashed
/// and compared; any disagreement makes the command fail.
/// </summary>
internal static class QuickCommand
{
    public const long DefaultElements = 50_000_000;

    /// <summary>Enough fresh targets that none is searched twice in a run of the default size.</summary>
    private const int FreshPoolTargets = 1 << 23;

    /// <summary>How long an implementation runs back to back in each round.</summary>
    private static readonly TimeSpan BlockTime = TimeSpan.FromMilliseconds(3);

    public static int Run(long elements, int rounds, string? jsonPath, string? svgPath)
    {
        string path = ReferenceDataset.Ensure(elements, Console.Error);
        List<LowerBoundRunner> runners = LowerBoundRunner.OpenAll(path);
        try
        {
            int first;
            int last;
            using (var list = new ListMmf<int>(path, FileAccess.Read))
            {
                first = list[0];
                last = list[list.Count - 1];
            }

            var results = new List<QuickResult>();
            results.AddRange(Measure("fixed", runners, rounds, new TargetSet(QueryTargets.Fixed(first, last), reuse: true)));
            results.AddRange(Measure("fresh", runners, rounds, new TargetSet(QueryTargets.Fresh(first, last, FreshPoolTargets), reuse: false)));

            Print(results, elements, rounds);
            ColdStart.Print(path, first, last, LowerBoundRunner.IndexBuildOf(runners));
            if (jsonPath is not null)
            {
                File.WriteAllText(jsonPath, JsonSerializer.Serialize(results, QuickResultJson.Default.ListQuickResult));
            }

            if (svgPath is not null)
            {
                File.WriteAllText(svgPath, SvgChart.Draw(results, $"LowerBound, {elements:N0} Int32 timestamps, ns per search (log scale)"));
            }

            List<string> disagreeing = results.GroupBy(r => r.QuerySet)
                .SelectMany(set => set.Where(r => r.ResultsHash != set.First().ResultsHash).Select(r => $"{r.Name} ({set.Key})"))
                .ToList();
            if (disagreeing.Count > 0)
            {
                Console.Error.WriteLine($"quick: implementations disagree with mmap: {string.Join(", ", disagreeing)}");
                return 1;
            }

            Console.WriteLine($"quick: all {runners.Count} implementations returned identical indices for both query sets.");
            return 0;
        }
        finally
        {
            runners.ForEach(runner => runner.Dispose());
        }
    }

    /// <summary>
    /// Times every implementation over <paramref name="rounds"/> interleaved rounds, then checks what each returns
    /// for the set's check targets. In each round an implementation runs back to back for at least
    /// <see cref="BlockTime"/>, as a benchmark loop runs it; with fixed targets it first runs untimed as long, so
    /// it is measured with its own lines in cache, not with what the implementation before it left there.
    /// </summary>
    private static IEnumerable<QuickResult> Measure(string querySet, List<LowerBoundRunner> runners, int rounds, TargetSet targets)
    {
        var nanoseconds = runners.Select(_ => new List<double>()).ToArray();
        var buffer = new long[QueryTargets.PerOperation];
        WarmUp(runners, targets.Check, buffer);

        var order = new Random(rounds);
        int[] sequence = Enumerable.Range(0, runners.Count).ToArray();
        for (int round = 1; round <= rounds; round++)
        {
            // A new order every round: the implementations share the page cache's physical lines (all but int[]), so a
            // fixed order would always hand one of them its predecessor's warm lines.
            order.Shuffle(sequence);
            foreach (int r in sequence)
            {
                if (targets.Reuse)
                {
                    RunFor(runners[r], targets, buffer);
                }

                (double elapsed, long batches) = RunFor(runners[r], targets, buffer);
                nanoseconds[r].Add(elapsed / (batches * QueryTargets.PerOperation));
            }
        }

        double mmap = Medians.Of(nanoseconds[0]);
        for (int r = 0; r < runners.Count; r++)
        {
            runners[r].Run(targets.Check, buffer);
            double median = Medians.Of(nanoseconds[r]);
            ulong hash = System.IO.Hashing.XxHash3.HashToUInt64(MemoryMarshal.AsBytes(buffer.AsSpan()));
            yield return new QuickResult(runners[r].Name, querySet, Math.Round(median, 1), Math.Round(median / mmap, 2), hash.ToString("x16", CultureInfo.InvariantCulture));
        }
    }

    /// <summary>Runs batches of searches until <see cref="BlockTime"/> has passed; returns the nanoseconds and the batches.</summary>
    private static (double Nanoseconds, long Batches) RunFor(LowerBoundRunner runner, TargetSet targets, long[] buffer)
    {
        long batches = 0;
        long start = Stopwatch.GetTimestamp();
        TimeSpan elapsed;
        do
        {
            runner.Run(targets.Next(), buffer);
            batches++;
            elapsed = Stopwatch.GetElapsedTime(start);
        }
        while (elapsed < BlockTime);

        return (elapsed.TotalNanoseconds, batches);
    }

    /// <summary>
    /// Runs every implementation for at least a second before anything is timed: the JIT promotes hot methods to
    /// optimized code only after a delay, which a few quick rounds would finish inside of.
    /// </summary>
    private static void WarmUp(List<LowerBoundRunner> runners, int[] targets, long[] buffer)
    {
        long start = Stopwatch.GetTimestamp();
        for (int pass = 0; pass < 3 || Stopwatch.GetElapsedTime(start).TotalSeconds < 1; pass++)
        {
            runners.ForEach(runner => runner.Run(targets, buffer));
        }
    }

    private static void Print(List<QuickResult> results, long elements, int rounds)
    {
        Console.WriteLine();
        Console.WriteLine($"LowerBound over {elements:N0} Int32 timestamps: median of {rounds} interleaved rounds in random order, each implementation searching for {BlockTime.TotalMilliseconds} ms per round.");
        Console.WriteLine($"{RuntimeInformation.OSDescription}, {RuntimeInformation.ProcessArchitecture}, {Environment.ProcessorCount} cores, .NET {Environment.Version}");
        if (PageCacheState.Describe() is { } pageCache)
        {
            Console.WriteLine(pageCache);
        }

        Console.WriteLine();
        Console.WriteLine($"| {"implementation",-22} | {"fixed ns/search",15} | {"vs mmap",8} | {"fresh ns/search",15} | {"vs mmap",8} |");
        Console.WriteLine($"|{new string('-', 24)}|{new string('-', 16)}:|{new string('-', 9)}:|{new string('-', 16)}:|{new string('-', 9)}:|");
        foreach (string name in results.Select(r => r.Name).Distinct())
        {
            QuickResult fixedResult = results.Single(r => r.Name == name && r.QuerySet == "fixed");
            QuickResult freshResult = results.Single(r => r.Name == name && r.QuerySet == "fresh");
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {name,-22} | {fixedResult.NsPerSearch,15:N1} | {fixedResult.RatioVsMmap,7:F2}x | {freshResult.NsPerSearch,15:N1} | {freshResult.RatioVsMmap,7:F2}x |"));
        }

        Console.WriteLine();
    }

    /// <summary>
    /// A query set: the fixed targets handed out again and again, or a pool of fresh targets handed out 1,000 at a
    /// time, each batch once until the pool wraps around. The first batch is also the check batch.
    /// </summary>
    private sealed class TargetSet(int[] pool, bool reuse)
    {
        private int _next = QueryTargets.PerOperation;

        public bool Reuse => reuse;

        public int[] Check { get; } = pool[..QueryTargets.PerOperation];

        public ReadOnlySpan<int> Next()
        {
            if (reuse)
            {
                return pool;
            }

            if (_next + QueryTargets.PerOperation > pool.Length)
            {
                _next = QueryTargets.PerOperation;
            }

            ReadOnlySpan<int> batch = pool.AsSpan(_next, QueryTargets.PerOperation);
            _next += QueryTargets.PerOperation;
            return batch;
        }
    }
}
