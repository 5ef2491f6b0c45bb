using System;
using System.Buffers.Binary;
using System.IO;
using System.Linq;
using System.Numerics;
using System.Threading.Tasks;
using Xunit;

namespace ListMmf.Tests.TimeSeries;

/// <summary>The generic sorted list: order enforcement, verification, and searches over every key type.</summary>
public sealed class SortedListMmfTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("sorted.bin");

    [Fact]
    public void AscendingRefusesDuplicates()
    {
        using var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending);
        list.Add(5);
        Assert.Throws<ListMmfOrderException>(() => list.Add(5));
        Assert.Throws<ListMmfOrderException>(() => list.Add(4));
        list.Add(6);
        Assert.Equal([5, 6], list.ToArray());
    }

    [Fact]
    public void AscendingOrEqualAcceptsDuplicatesButNotDecreases()
    {
        using var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual);
        list.AddRange([5, 5, 5]);
        list.Add(5);
        Assert.Throws<ListMmfOrderException>(() => list.Add(4));
        Assert.Equal(4, list.Count);
    }

    [Fact]
    public void RejectedAddRangeLeavesCountAndItemsAsTheyWere()
    {
        using var list = new SortedListMmf<long>(FilePath, TimeSeriesOrder.Ascending);
        list.AddRange([1, 2, 3]);
        var exception = Assert.Throws<ListMmfOrderException>(() => list.AddRange([4, 5, 5, 6]));
        Assert.Equal(5, exception.Index);
        Assert.Throws<ListMmfOrderException>(() => list.AddRange([3, 4]));
        Assert.Equal([1L, 2, 3], list.ToArray());
        list.AddRange([4, 5]);
        Assert.Equal(5, list.Count);
    }

    [Fact]
    public void NaNIsRefusedInEitherOrder()
    {
        using var list = new SortedListMmf<double>(FilePath, TimeSeriesOrder.AscendingOrEqual);
        list.Add(1.5);
        Assert.Throws<ListMmfOrderException>(() => list.Add(double.NaN));
        Assert.Throws<ListMmfOrderException>(() => list.AddRange([2.0, double.NaN]));
        Assert.Equal(1, list.Count);
    }

    [Fact]
    public void VerifyReportsTheFirstStoredItemOutOfOrder()
    {
        using (var raw = new ListMmf<int>(FilePath))
        {
            raw.AddRange([1, 2, 2, 9, 3, 10]);
        }

        using var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        var exception = Assert.Throws<ListMmfOrderException>(list.Verify);
        Assert.Equal(4, exception.Index);
        Assert.Contains(FilePath, exception.Message, StringComparison.Ordinal);
        Assert.Contains("corrupt", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void VerifyOfAnAscendingListReportsDuplicates()
    {
        using (var raw = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual))
        {
            raw.AddRange([1, 2, 2]);
        }

        using var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read);
        Assert.Equal(2, Assert.Throws<ListMmfOrderException>(list.Verify).Index);
    }

    [Fact]
    public void VerifyAcceptsASortedList()
    {
        using var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual);
        list.AddRange([int.MinValue, 0, 0, int.MaxValue]);
        list.Verify();
    }

    [Fact]
    public void SearchesAllocateNothing()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual);
        series.Keys.IndexMinimumPages = 1;
        series.Keys.AddRange(Enumerable.Range(0, 10_000).Select(i => 1_700_000_000 + (i / 3)).ToArray());
        var at = DateTime.UnixEpoch.AddSeconds(1_700_001_000.5);
        DateTime[] times = Enumerable.Range(0, 100).Select(i => at.AddSeconds(i)).ToArray();
        int[] keys = Enumerable.Range(0, 100).Select(i => 1_700_000_000 + (i * 30)).ToArray();
        var results = new long[100];
        long sum = Search(series, at) + SearchBatches(series, times, keys, results);
        long allocated = GC.GetAllocatedBytesForCurrentThread();
        sum += Search(series, at) + SearchBatches(series, times, keys, results);
        allocated = GC.GetAllocatedBytesForCurrentThread() - allocated;
        Assert.Equal(0, allocated);
        Assert.True(sum > 0);

        static long SearchBatches(ListMmfTimeSeriesDateTimeSeconds series, DateTime[] times, int[] keys, long[] results)
        {
            series.LowerBound(times, results);
            series.UpperBound(times, results);
            series.Keys.LowerBound(keys, results);
            series.Keys.UpperBound(keys, results);
            return results[^1];
        }

        static long Search(ListMmfTimeSeriesDateTimeSeconds series, DateTime at)
        {
            long sum = 0;
            for (int i = 0; i < 1_000; i++)
            {
                sum += series.LowerBound(at) + series.UpperBound(at) + series.Keys.LowerBound(1_700_000_500 + i)
                    + series.Keys.BinarySearch(1_700_000_700) + series.Keys.EqualRange(1_700_000_800).Length;
            }

            return sum;
        }
    }

    [Fact]
    public void UInt32KeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => (uint)seed.Next(0, 400) * 10_000_000u, [0u, 1u, uint.MaxValue, 2_000_000_000u, 3_990_000_000u]);

    [Fact]
    public void Int64KeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => seed.NextInt64(-400, 400) * 1_000_000_000_000L, [long.MinValue, long.MaxValue, 0L, -1L, 1L]);

    [Fact]
    public void UInt64KeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => (ulong)seed.Next(0, 400) * 40_000_000_000_000_000UL, [0UL, 1UL, ulong.MaxValue, ulong.MaxValue - 1]);

    [Fact]
    public void DoubleKeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => Math.Round(seed.NextDouble() * 100, 1) - 50, [double.NegativeInfinity, double.PositiveInfinity, -0.0, 0.0, 0.05, -50.0, 50.0, double.NaN]);

    [Fact]
    public async Task ReaderSearchingWhileTheWriterAppendsAlwaysSearchesACompletePrefix()
    {
        // Item i is 2i, so LowerBound(t) over the first c items is min(ceil(t / 2), c).
        const int Items = 400_000;
        using var writer = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending);
        writer.Add(0);
        using var reader = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read, new ListMmfOptions { Backend = MappingBackend.MemoryMappedFile });
        Task writing = Task.Run(() =>
        {
            for (int i = 1; i < Items; i++)
            {
                writer.Add(2 * i);
            }
        });

        var random = new Random(7);
        int checks = 0;
        while (!writing.IsCompleted || checks < 1_000)
        {
            int target = random.Next(0, 2 * Items);
            long before = reader.Count;
            long found = reader.LowerBound(target);
            long after = reader.Count;
            long exact = (target + 1) / 2;
            Assert.True(found == exact || (found >= before && found <= after && found < exact), $"LowerBound({target}) = {found} with Count going {before} -> {after}");
            checks++;
        }

        await writing;
        Assert.Equal(Items, reader.Count);
    }

    /// <summary>
    /// Plain, indexed (forced on) and batched searches of 5,000 keys (several pages and index nodes for every key
    /// width) against a linear scan.
    /// </summary>
    private void AssertSearchesAgree<T>(Func<Random, T> next, T[] extraTargets)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        var random = new Random(11);
        T[] items = Enumerable.Range(0, 5_000).Select(_ => next(random)).Order().ToArray();
        using (var writer = new SortedListMmf<T>(FilePath, TimeSeriesOrder.AscendingOrEqual))
        {
            writer.AddRange(items);
        }

        T[] targets = items.Where((_, i) => i % 7 == 0).Concat(extraTargets).Concat(Enumerable.Range(0, 100).Select(_ => next(random))).ToArray();
        foreach (bool indexed in new[] { false, true })
        {
            using SortedListMmf<T> list = Search.SortedSearchers.OpenSorted<T>(FilePath, MappingBackend.Default, indexed);
            var lowers = new long[targets.Length];
            var uppers = new long[targets.Length];
            list.LowerBound(targets, lowers);
            list.UpperBound(targets, uppers);
            for (int i = 0; i < targets.Length; i++)
            {
                T target = targets[i];
                long lower = items.TakeWhile(item => item < target).LongCount();
                long upper = items.TakeWhile(item => item <= target).LongCount();
                Assert.Equal(lower, list.LowerBound(target));
                Assert.Equal(upper, list.UpperBound(target));
                Assert.Equal(lower, lowers[i]);
                Assert.Equal(upper, uppers[i]);
                Assert.Equal(new IndexRange(lower, upper), list.EqualRange(target));
                Assert.Equal(upper > lower ? lower : ~lower, list.BinarySearch(target));
                Assert.Equal(Math.Min(Math.Max(lower, 100), 600), list.LowerBound(target, 100, 600));
                Assert.Equal(Math.Min(Math.Max(upper, 100), 4_900), list.UpperBound(target, 100, 4_900));
            }

            Assert.Equal(indexed, list.Index is not null);
        }
    }
}
