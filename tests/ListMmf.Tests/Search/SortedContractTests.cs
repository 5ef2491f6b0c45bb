using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using Xunit;

namespace ListMmf.Tests.Search;

/// <summary>
/// The sorted queries (bounds, within ranges and in batches, the ASOF join, equal ranges, binary search, time-free
/// ranges) asked of every sorted form over the same keys, each answer against a linear scan: the appendable sorted
/// list, the keyed list of rows, and the sealed list.
/// </summary>
public sealed class SortedContractTests : IDisposable
{
    private const int Items = 30_000;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string> Forms => new() { "sorted", "keyed", "sealed" };

    /// <summary>Ascending keys with runs of equal ones and gaps, across many sealed blocks.</summary>
    private static int[] Keys()
    {
        var random = new Random(11);
        int[] keys = new int[Items];
        int key = -1_000;
        for (int i = 0; i < Items; i++)
        {
            key += random.Next(8) switch { 0 or 1 or 2 => 0, 7 => random.Next(50, 500), _ => random.Next(1, 4) };
            keys[i] = key;
        }

        return keys;
    }

    /// <summary>Probes below, between, on and above the keys.</summary>
    private static int[] Probes(int[] keys)
    {
        var random = new Random(3);
        return [int.MinValue, keys[0] - 1, keys[0], keys[^1], keys[^1] + 1, int.MaxValue,
            .. Enumerable.Range(0, 400).Select(_ => random.Next(keys[0] - 10, keys[^1] + 10)),
            .. Enumerable.Range(0, 200).Select(_ => keys[random.Next(Items)])];
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void BoundsAgreeWithAScan(string form)
    {
        int[] keys = Keys();
        using Form sorted = Open(form, keys);

        Assert.All(Probes(keys), probe =>
        {
            Assert.Equal(ScanLower(keys, probe, 0, Items), sorted.LowerBound(probe));
            Assert.Equal(ScanUpper(keys, probe, 0, Items), sorted.UpperBound(probe));
            Assert.Equal(ScanUpper(keys, probe, 0, Items) - 1, sorted.LastAtOrBeforeOne(probe));
        });
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void BoundsWithinRangesAgreeWithAScan(string form)
    {
        int[] keys = Keys();
        using Form sorted = Open(form, keys);
        var random = new Random(5);

        Assert.All(Probes(keys), probe =>
        {
            long first = random.Next(Items + 1);
            long last = random.Next((int)first, Items + 1);
            Assert.Equal(ScanLower(keys, probe, first, last), sorted.LowerBoundIn(probe, first, last));
            Assert.Equal(ScanUpper(keys, probe, first, last), sorted.UpperBoundIn(probe, first, last));
            Assert.Equal(ScanEqualRange(keys, probe, first, last), sorted.EqualRangeIn(probe, first, last));
            Assert.Equal(ScanBinarySearch(keys, probe, first, last), sorted.BinarySearchIn(probe, first, last));
        });
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void EqualRangesBinarySearchesAndRangesAgreeWithAScan(string form)
    {
        int[] keys = Keys();
        using Form sorted = Open(form, keys);
        int[] probes = Probes(keys);

        Assert.All(probes, probe =>
        {
            Assert.Equal(ScanEqualRange(keys, probe, 0, Items), sorted.EqualRange(probe));
            Assert.Equal(ScanBinarySearch(keys, probe, 0, Items), sorted.BinarySearch(probe));
        });
        Assert.All(probes.Zip(Enumerable.Reverse(probes)), pair =>
        {
            (int from, int to) = pair;
            long start = ScanLower(keys, from, 0, Items);
            var expected = new IndexRange(start, to > from ? Math.Max(start, ScanLower(keys, to, 0, Items)) : start);
            Assert.Equal(expected, sorted.FindRange(from, to));
        });
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void BatchesAndTheAsofJoinAgreeWithAScan(string form)
    {
        int[] keys = Keys();
        using Form sorted = Open(form, keys);
        int[] shuffled = Probes(keys);
        int[] ascending = [.. shuffled.Order()];

        foreach (int[] probes in new[] { shuffled, ascending })
        {
            long[] lower = new long[probes.Length];
            long[] upper = new long[probes.Length];
            long[] asOf = new long[probes.Length];
            sorted.LowerBounds(probes, lower);
            sorted.UpperBounds(probes, upper);
            sorted.LastAtOrBefore(probes, asOf);

            Assert.Equal(probes.Select(probe => ScanLower(keys, probe, 0, Items)), lower);
            Assert.Equal(probes.Select(probe => ScanUpper(keys, probe, 0, Items)), upper);
            Assert.Equal(probes.Select(probe => ScanUpper(keys, probe, 0, Items) - 1), asOf);
        }
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void ARangeOutsideTheListIsRefused(string form)
    {
        using Form sorted = Open(form, Keys());

        Assert.Throws<ArgumentOutOfRangeException>(() => sorted.LowerBoundIn(0, 5, 4));
        Assert.Throws<ArgumentOutOfRangeException>(() => sorted.EqualRangeIn(0, 0, Items + 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => sorted.BinarySearchIn(0, -1, 3));
    }

    private static long ScanLower(int[] keys, int value, long first, long last)
    {
        long i = first;
        while (i < last && keys[i] < value)
        {
            i++;
        }

        return i;
    }

    private static long ScanUpper(int[] keys, int value, long first, long last)
    {
        long i = first;
        while (i < last && keys[i] <= value)
        {
            i++;
        }

        return i;
    }

    private static IndexRange ScanEqualRange(int[] keys, int value, long first, long last) =>
        new(ScanLower(keys, value, first, last), ScanUpper(keys, value, first, last));

    private static long ScanBinarySearch(int[] keys, int value, long first, long last)
    {
        long at = ScanLower(keys, value, first, last);
        return at < last && keys[at] == value ? at : ~at;
    }

    private Form Open(string form, int[] keys)
    {
        string path = _directory.File($"{form}.bin");
        switch (form)
        {
            case "sorted":
                var sorted = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual);
                sorted.AddRange(keys);
                return new Form(sorted, sorted.LowerBound, sorted.UpperBound, sorted.LowerBound, sorted.UpperBound, sorted.LowerBound,
                    sorted.UpperBound, sorted.LastAtOrBefore, sorted.LastAtOrBefore, sorted.EqualRange, sorted.EqualRange,
                    sorted.BinarySearch, sorted.BinarySearch, sorted.FindRange);
            case "keyed":
                var rows = new KeyedListMmf<Row, int, RowKey>(path, TimeSeriesOrder.AscendingOrEqual);
                rows.AddRange(keys.Select(key => new Row(key, ~key)).ToArray());
                return new Form(rows, rows.LowerBound, rows.UpperBound, rows.LowerBound, rows.UpperBound, rows.LowerBound, rows.UpperBound,
                    rows.LastAtOrBefore, rows.LastAtOrBefore, rows.EqualRange, rows.EqualRange, rows.BinarySearch, rows.BinarySearch,
                    rows.FindRange);
            default:
                using (var writer = new ListMmf<int>(path))
                {
                    writer.AddRange(keys);
                }

                SealedListMmf.Seal(path);
                var list = new SealedListMmf<int>(path);
                return new Form(list, list.LowerBound, list.UpperBound, list.LowerBound, list.UpperBound, list.LowerBound, list.UpperBound,
                    list.LastAtOrBefore, list.LastAtOrBefore, list.EqualRange, list.EqualRange, list.BinarySearch, list.BinarySearch,
                    list.FindRange);
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    private readonly record struct Row(int Key, int Payload);

    private readonly struct RowKey : IKeySelector<Row, int>
    {
        public static int KeyOf(in Row row) => row.Key;
    }

    private delegate void SpanBounds(ReadOnlySpan<int> values, Span<long> results);

    /// <summary>One sorted form's queries, the same shape whatever the form.</summary>
    private sealed record Form(
        IDisposable List,
        Func<int, long> LowerBound,
        Func<int, long> UpperBound,
        Func<int, long, long, long> LowerBoundIn,
        Func<int, long, long, long> UpperBoundIn,
        SpanBounds LowerBounds,
        SpanBounds UpperBounds,
        Func<int, long> LastAtOrBeforeOne,
        SpanBounds LastAtOrBefore,
        Func<int, IndexRange> EqualRange,
        Func<int, long, long, IndexRange> EqualRangeIn,
        Func<int, long> BinarySearch,
        Func<int, long, long, long> BinarySearchIn,
        Func<int, int, IndexRange> FindRange) : IDisposable
    {
        public void Dispose() => List.Dispose();
    }
}
