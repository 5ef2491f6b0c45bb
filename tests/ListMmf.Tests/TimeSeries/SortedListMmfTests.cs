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
    public void ItemsReadTheSortedListAsAPlainList()
    {
        using var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual);
        list.AddRange([1, 3, 3, 7, 9]);

        IReadOnlyListMmf<int> items = list.Items;
        int[] copy = new int[3];
        items.CopyTo(new IndexRange(1, 4), copy);

        Assert.Equal([3, 3, 7], copy);
        Assert.Equal([1, 3, 3, 7, 9], items);
        Assert.Equal(list.Count, items.Count);
    }

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

    /// <summary>
    /// The searches trust the order (Verify checks it): over a shuffled file, through the page index, one at a time
    /// and in batches, every answer is still an index in [0, Count], nothing throws, and the file is not written,
    /// although the list is open for writing.
    /// </summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void SearchesOfAFileOutOfOrderStayInRangeAndChangeNothing(bool indexed)
    {
        var random = new Random(5);
        int[] items = Enumerable.Range(0, 50_000).Select(_ => random.Next(-1_000, 1_000)).ToArray();
        using (var raw = new ListMmf<int>(FilePath))
        {
            raw.AddRange(items);
        }

        byte[] before = File.ReadAllBytes(FilePath);
        using (var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.ReadWrite, new ListMmfOptions { SearchIndex = indexed }))
        {
            list.IndexMinimumPages = 1;
            int[] targets = [int.MinValue, int.MaxValue, .. Enumerable.Range(0, 2_000).Select(_ => random.Next(-1_100, 1_100))];
            var lowers = new long[targets.Length];
            var uppers = new long[targets.Length];
            list.LowerBound(targets, lowers);
            list.UpperBound(targets, uppers);
            for (int i = 0; i < targets.Length; i++)
            {
                Assert.InRange(list.LowerBound(targets[i]), 0, items.Length);
                Assert.InRange(list.UpperBound(targets[i]), 0, items.Length);
                Assert.InRange(lowers[i], 0, items.Length);
                Assert.InRange(uppers[i], 0, items.Length);
            }

            Assert.Equal(indexed, list.Index is not null);
            Assert.Throws<ListMmfOrderException>(list.Verify);
        }

        Assert.Equal(before, File.ReadAllBytes(FilePath));
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
    public void ByteKeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => (byte)seed.Next(0, 256), [(byte)0, (byte)1, byte.MaxValue, (byte)128]);

    [Fact]
    public void Int16KeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => (short)seed.Next(short.MinValue, short.MaxValue), [short.MinValue, short.MaxValue, (short)0, (short)-1]);

    [Fact]
    public void TwelveByteStructKeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => new Key12(seed.Next(0, 50), seed.Next(0, 3), seed.Next(0, 2)), [new Key12(-1, 0, 0), new Key12(50, 0, 0), new Key12(25, 1, 1)]);

    [Fact]
    public void FortyByteStructKeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => new Key40(seed.NextInt64(0, 5_000)), [new Key40(-1), new Key40(long.MaxValue), new Key40(2_500)]);

    [Fact]
    public void BatchWrittenOverItsOwnValuesGivesTheSameAnswers()
    {
        using (var writer = new SortedListMmf<long>(FilePath, TimeSeriesOrder.AscendingOrEqual))
        {
            writer.AddRange(Enumerable.Range(0, 20_000).Select(i => (long)i * 3).ToArray());
        }

        using SortedListMmf<long> list = Search.SortedSearchers.OpenSorted<long>(FilePath, MappingBackend.Default, indexed: true);
        long[] values = Enumerable.Range(0, 100).Select(i => (long)i * 601).ToArray();
        long[] expected = values.Select(list.LowerBound).ToArray();

        list.LowerBound(values, values);

        Assert.Equal(expected, values);
    }

    [Fact]
    public void ReaderIndexIsRebuiltWhenTheCountGoesDown()
    {
        using var writer = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual);
        writer.AddRange(Enumerable.Range(0, 50_000).ToArray());
        using SortedListMmf<int> reader = Search.SortedSearchers.OpenSorted<int>(FilePath, MappingBackend.Default, indexed: true);
        Assert.Equal(30_000, reader.LowerBound(30_000));
        long indexedBefore = reader.Index!.IndexedCount;

        writer.Truncate(10_000);
        Assert.Equal(10_000, reader.LowerBound(30_000));
        writer.AddRange(Enumerable.Range(20_000, 5_000).ToArray());

        Assert.Equal(10_000, reader.LowerBound(15_000));
        Assert.Equal(15_000, reader.UpperBound(24_999));
        Assert.True(reader.Index!.IndexedCount < indexedBefore, "the reader kept the index of the truncated items");
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
    public void SByteKeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => (sbyte)seed.Next(sbyte.MinValue, sbyte.MaxValue + 1), [sbyte.MinValue, sbyte.MaxValue, (sbyte)0, (sbyte)-1]);

    [Fact]
    public void UInt16KeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => (ushort)seed.Next(0, 3_000), [ushort.MinValue, ushort.MaxValue, (ushort)1_500, (ushort)2_999]);

    [Fact]
    public void SingleKeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => MathF.Round((float)seed.NextDouble() * 100, 1) - 50, [float.NegativeInfinity, float.PositiveInfinity, -0.0f, 0.0f, 0.05f, -50.0f, 50.0f, float.NaN]);

    [Fact]
    public void DoubleKeysAgreeWithALinearScan() =>
        AssertSearchesAgree(seed => Math.Round(seed.NextDouble() * 100, 1) - 50, [double.NegativeInfinity, double.PositiveInfinity, -0.0, 0.0, 0.05, -50.0, 50.0, double.NaN]);

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task ReaderSearchingWhileTheWriterAppendsAlwaysSearchesACompletePrefix(bool indexed)
    {
        // Item i is 2i, so LowerBound(t) over the first c items is min(ceil(t / 2), c).
        const int Items = 400_000;
        using var writer = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending);
        writer.Add(0);
        using var reader = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read, new ListMmfOptions { Backend = MappingBackend.MemoryMappedFile, SearchIndex = indexed });
        reader.IndexMinimumPages = 1;
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
    /// Plain, indexed (forced on) and batched searches of 20,000 keys (several pages, nodes and index levels for
    /// every key width) against a linear scan, whole-list and over ranges narrower and wider than the index's.
    /// </summary>
    private void AssertSearchesAgree<T>(Func<Random, T> next, T[] extraTargets)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        var random = new Random(11);
        T[] items = Enumerable.Range(0, 20_000).Select(_ => next(random)).Order().ToArray();
        using (var writer = new SortedListMmf<T>(FilePath, TimeSeriesOrder.AscendingOrEqual))
        {
            writer.AddRange(items);
        }

        T[] targets = items.Where((_, i) => i % 97 == 0).Concat(extraTargets).Concat(Enumerable.Range(0, 100).Select(_ => next(random))).ToArray();
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
                long lower = LinearCount(items, item => item < target);
                long upper = LinearCount(items, item => item <= target);
                Assert.Equal(lower, list.LowerBound(target));
                Assert.Equal(upper, list.UpperBound(target));
                Assert.Equal(lower, lowers[i]);
                Assert.Equal(upper, uppers[i]);
                Assert.Equal(new IndexRange(lower, upper), list.EqualRange(target));
                Assert.Equal(upper > lower ? lower : ~lower, list.BinarySearch(target));
                Assert.Equal(Math.Min(Math.Max(lower, 100), 600), list.LowerBound(target, 100, 600));
                Assert.Equal(Math.Min(Math.Max(lower, 3_000), 17_000), list.LowerBound(target, 3_000, 17_000));
                Assert.Equal(Math.Min(Math.Max(upper, 100), 19_900), list.UpperBound(target, 100, 19_900));
            }

            Assert.Equal(indexed, list.Index is not null);
        }
    }

    private static long LinearCount<T>(T[] items, Func<T, bool> before)
    {
        long count = 0;
        while (count < items.Length && before(items[count]))
        {
            count++;
        }

        return count;
    }

    /// <summary>A 12-byte key, compared field by field: no vector path, and a size that divides neither 16 nor 4096.</summary>
    private readonly record struct Key12(int A, int B, int C) : IComparisonOperators<Key12, Key12, bool>, IComparable<Key12>
    {
        public int CompareTo(Key12 other) => Compare(this, other);

        public static bool operator <(Key12 left, Key12 right) => Compare(left, right) < 0;

        public static bool operator >(Key12 left, Key12 right) => Compare(left, right) > 0;

        public static bool operator <=(Key12 left, Key12 right) => Compare(left, right) <= 0;

        public static bool operator >=(Key12 left, Key12 right) => Compare(left, right) >= 0;

        private static int Compare(Key12 left, Key12 right) =>
            left.A != right.A ? left.A.CompareTo(right.A) : left.B != right.B ? left.B.CompareTo(right.B) : left.C.CompareTo(right.C);
    }

    /// <summary>A 40-byte key: four keys to a node, nodes wider than a cache line.</summary>
    [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Sequential, Size = 40)]
    private readonly record struct Key40(long Value) : IComparisonOperators<Key40, Key40, bool>, IComparable<Key40>
    {
        public int CompareTo(Key40 other) => Value.CompareTo(other.Value);

        public static bool operator <(Key40 left, Key40 right) => left.Value < right.Value;

        public static bool operator >(Key40 left, Key40 right) => left.Value > right.Value;

        public static bool operator <=(Key40 left, Key40 right) => left.Value <= right.Value;

        public static bool operator >=(Key40 left, Key40 right) => left.Value >= right.Value;
    }
}
