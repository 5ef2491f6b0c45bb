using System;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Search;

/// <summary>Batches of ascending values walked as a merge, and the ASOF join built on them, against one search at a time.</summary>
public sealed class MergeSearchTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData(1, 100_000)]
    [InlineData(7, 20_000)]
    [InlineData(64, 2_000)]
    public void AscendingBatchesGiveTheBoundsOfOneSearchAtATime(int itemsPerValue, int values)
    {
        using SortedListMmf<int> list = Write(Times(100_000, seed: itemsPerValue));
        int[] targets = AscendingTargets(list, values, seed: values);
        var lowers = new long[targets.Length];
        var uppers = new long[targets.Length];

        list.LowerBound(targets, lowers);
        list.UpperBound(targets, uppers);

        Assert.Equal(targets.Select(target => list.LowerBound(target)), lowers);
        Assert.Equal(targets.Select(target => list.UpperBound(target)), uppers);
    }

    [Fact]
    public void TheAsOfJoinGivesEachValuesLastItemAtOrBeforeIt()
    {
        int[] times = Times(50_000, seed: 3);
        using SortedListMmf<int> list = Write(times);
        int[] trades = AscendingTargets(list, 200_000, seed: 4);
        var rows = new long[trades.Length];

        list.LastAtOrBefore(trades, rows);

        Assert.Equal(trades.Select(trade => LastAtOrBeforeOf(times, trade)), rows);
        Assert.Contains(-1, rows);
    }

    [Fact]
    public void UnorderedValuesAreSearchedOneByOne()
    {
        using SortedListMmf<int> list = Write(Times(100_000, seed: 5));
        int[] targets = AscendingTargets(list, 100_000, seed: 6);
        (targets[10], targets[90_000]) = (targets[90_000], targets[10]);
        var rows = new long[targets.Length];

        list.LastAtOrBefore(targets, rows);

        Assert.Equal(targets.Select(target => list.UpperBound(target) - 1), rows);
    }

    [Fact]
    public void ANaNAmongAscendingDoublesIsNotMerged()
    {
        string path = _directory.File("prices.bt");
        using var list = new SortedListMmf<double>(path, TimeSeriesOrder.AscendingOrEqual);
        list.AddRange(Enumerable.Range(0, 10_000).Select(i => i * 0.25).ToArray());
        double[] targets = [.. Enumerable.Range(0, 5_000).Select(i => i * 0.3), double.NaN, 9_999];
        var lowers = new long[targets.Length];

        list.LowerBound(targets, lowers);

        Assert.Equal(targets.Select(target => list.LowerBound(target)), lowers);
        Assert.Equal(0, lowers[^2]);
    }

    private SortedListMmf<int> Write(int[] items)
    {
        var list = new SortedListMmf<int>(_directory.File($"times-{Guid.NewGuid():N}.bt"), TimeSeriesOrder.AscendingOrEqual);
        list.AddRange(items);
        return list;
    }

    private static long LastAtOrBeforeOf(int[] times, int value)
    {
        int low = 0;
        int high = times.Length;
        while (low < high)
        {
            int middle = (low + high) / 2;
            if (times[middle] <= value)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }

        return low - 1;
    }

    private static int[] Times(int count, int seed)
    {
        var random = new Random(seed);
        int time = 1_000;
        return Enumerable.Range(0, count).Select(_ => time += random.Next(4) == 0 ? random.Next(1, 9) : 0).ToArray();
    }

    /// <summary>Ascending values over the list's range and a little past both ends, with repeats.</summary>
    private static int[] AscendingTargets(SortedListMmf<int> list, int count, int seed)
    {
        var random = new Random(seed);
        int first = list[0] - 5;
        int span = list[list.Count - 1] - first + 10;
        int[] targets = Enumerable.Range(0, count).Select(_ => first + random.Next(span)).ToArray();
        Array.Sort(targets);
        return targets;
    }
}
