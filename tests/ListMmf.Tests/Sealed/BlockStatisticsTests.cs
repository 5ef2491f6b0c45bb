using System;
using System.Linq;
using ListMmf.Sealed;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>The vectorised statistics a codec is picked by agree with the plain definitions, at every length and at the ends of both orders.</summary>
public sealed class BlockStatisticsTests
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void StatisticsMatchTheirDefinitionsAtEveryLengthAndEdge(bool signed)
    {
        var random = new Random(signed ? 1 : 2);
        long[] edges = [long.MinValue, long.MaxValue, -1, 0, 1];
        for (int length = 1; length <= 40; length++)
        {
            for (int shape = 0; shape < 4; shape++)
            {
                long[] values = shape switch
                {
                    0 => Enumerable.Range(0, length).Select(_ => random.NextInt64(-1_000, 1_000)).ToArray(),
                    1 => Enumerable.Range(0, length).Select(i => (long)i * 7).ToArray(),
                    2 => Enumerable.Range(0, length).Select(_ => edges[random.Next(edges.Length)]).ToArray(),
                    _ => Enumerable.Range(0, length).Select(i => i == length - 1 ? -5 : (long)i).ToArray(),
                };

                BlockStatistics statistics = BlockStatistics.Of(values, signed);

                Assert.Equal(Expected(values, signed), (statistics.Min, statistics.Max, statistics.MinDelta, statistics.MaxDelta, statistics.Ascending));
            }
        }
    }

    private static (long, long, long, long, bool) Expected(long[] values, bool signed)
    {
        Func<long, long, int> compare = signed ? (a, b) => a.CompareTo(b) : (a, b) => ((ulong)a).CompareTo((ulong)b);
        long min = values.Aggregate((a, b) => compare(a, b) <= 0 ? a : b);
        long max = values.Aggregate((a, b) => compare(a, b) >= 0 ? a : b);
        long[] deltas = values.Zip(values.Skip(1), (a, b) => unchecked(b - a)).ToArray();
        bool ascending = values.Zip(values.Skip(1), (a, b) => compare(a, b) <= 0).All(ordered => ordered);
        return (min, max, deltas.Length == 0 ? long.MaxValue : deltas.Min(), deltas.Length == 0 ? long.MinValue : deltas.Max(), ascending);
    }
}
