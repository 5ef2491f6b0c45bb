using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using Xunit;

namespace ListMmf.Tests.Search;

/// <summary>
/// Every search implementation (both mapping backends, the four file readers, the managed array) returns the
/// index a linear scan gives, for LowerBound and UpperBound over the whole list and over sub-ranges.
/// </summary>
public sealed class LowerBoundParityTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string, int[]> Shapes() => new()
    {
        { "empty", [] },
        { "one item", [42] },
        { "two items", [-5, 7] },
        { "all equal", Enumerable.Repeat(1_700_000_000, 1_000).ToArray() },
        { "long runs of duplicates", Runs(new Random(1), runs: 60, maxRun: 400) },
        { "extremes of int", [int.MinValue, int.MinValue, -1, 0, 1, int.MaxValue - 1, int.MaxValue, int.MaxValue] },
        { "only int.MinValue", Enumerable.Repeat(int.MinValue, 17).ToArray() },
        { "only int.MaxValue", Enumerable.Repeat(int.MaxValue, 17).ToArray() },
        { "strictly increasing, 497 items", Enumerable.Range(0, 497).Select(i => (i * 3) - 6_000).ToArray() },
        { "one data-sample trading hour", SampleHour() },
    };

    public static TheoryData<int, int> RandomShapes()
    {
        var data = new TheoryData<int, int>();
        int[] lengths = [2, 3, 5, 31, 64, 100, 1_000, 1_023, 1_025, 12_345];
        for (int seed = 1; seed <= 30; seed++)
        {
            data.Add(seed, lengths[seed % lengths.Length]);
        }

        return data;
    }

    /// <summary>
    /// Lengths around the page index's boundaries for Int32 items: the first 1 KiB block holds 252 (the header takes
    /// 16 bytes), the others 256, four to a 4 KiB page; a node holds 16 fences, so 16 and 256 blocks end a node and
    /// a level.
    /// </summary>
    public static TheoryData<int> BoundaryLengths()
    {
        var data = new TheoryData<int>();
        foreach (int blocks in new[] { 1, 2, 4, 5, 16, 17, 256, 257 })
        {
            int items = 252 + ((blocks - 1) * 256);
            data.Add(items - 1);
            data.Add(items);
            data.Add(items + 1);
        }

        return data;
    }

    [Theory, MemberData(nameof(BoundaryLengths))]
    public void EveryImplementationAgreesAtPageAndNodeBoundaries(int length)
    {
        var random = new Random(length);
        int[] items = Enumerable.Range(0, length).Select(_ => random.Next(-length, length)).Order().ToArray();
        Assert.Empty(Disagreements($"length {length}", items, Targets(items, random)));
    }

    [Theory, MemberData(nameof(BoundaryLengths))]
    public void BatchedSearchesAgreeWithALinearScanAtPageAndNodeBoundaries(int length)
    {
        var random = new Random(length);
        int[] items = Enumerable.Range(0, length).Select(_ => random.Next(-length, length)).Order().ToArray();
        Assert.Empty(BatchDisagreements($"length {length}", items, Targets(items, random)));
    }

    [Theory, MemberData(nameof(Shapes))]
    public void BatchedSearchesAgreeWithALinearScan(string shape, int[] items)
    {
        Assert.Empty(BatchDisagreements(shape, items, Targets(items, new Random(shape.Length))));
    }

    [Theory, MemberData(nameof(RandomShapes))]
    public void BatchedSearchesAgreeOnRandomSortedData(int seed, int length)
    {
        var random = new Random(seed);
        int[] items = Enumerable.Range(0, length).Select(_ => random.Next(-50, 50)).Order().ToArray();
        Assert.Empty(BatchDisagreements($"seed {seed}", items, Targets(items, random)));
    }

    [Fact]
    public void IndexOfAWritersGrowingListAgreesAfterEveryGrowth()
    {
        string path = _directory.File("growing.bt");
        var random = new Random(3);
        var items = new List<int>();
        using var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual);
        writer.IndexMinimumPages = 1;
        using var reader = SortedSearchers.OpenSorted<int>(path, MappingBackend.Default, indexed: true);
        int value = 0;
        var disagreements = new List<string>();
        for (int batch = 0; batch < 300; batch++)
        {
            int[] added = Enumerable.Range(0, random.Next(1, 3_000)).Select(_ => value += random.Next(0, 3)).ToArray();
            writer.AddRange(added);
            items.AddRange(added);
            for (int i = 0; i < 20; i++)
            {
                int target = random.Next(-1, value + 2);
                long expected = items.BinarySearchLowerBound(target);
                Check(disagreements, $"after batch {batch}", "writer", "LowerBound", target, 0, items.Count, expected, writer.LowerBound(target));
                Check(disagreements, $"after batch {batch}", "reader", "LowerBound", target, 0, items.Count, expected, reader.LowerBound(target));
            }
        }

        Assert.NotNull(writer.Index);
        Assert.True(writer.Index!.IndexedCount >= items.Count / 2, $"the writer's index covers {writer.Index.IndexedCount:N0} of {items.Count:N0} items");
        Assert.Empty(disagreements.Take(20));
    }

    [Fact]
    public void IndexIsDroppedWhenTheWriterTruncates()
    {
        string path = _directory.File("truncated.bt");
        using var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual);
        writer.IndexMinimumPages = 1;
        writer.AddRange(Enumerable.Range(0, 50_000).ToArray());
        Assert.Equal(30_000, writer.LowerBound(30_000));

        writer.Truncate(10_000);
        writer.AddRange(Enumerable.Range(20_000, 40_000).ToArray());

        Assert.Equal(10_000, writer.LowerBound(15_000));
        Assert.Equal(20_000, writer.LowerBound(30_000));
    }

    /// <summary>
    /// The last steps of an indexed search compare a cache line of items at once. In a file that ends exactly at a
    /// page boundary, the page after the last item is not part of the file (touching it raises SIGBUS): the
    /// searches near and past the end must read nothing beyond the last item.
    /// </summary>
    [Theory, MemberData(nameof(Backends.AllWithFormats), MemberType = typeof(Backends))]
    public void IndexedSearchesOfAFileEndingOnAPageBoundaryReadNothingPastItsEnd(MappingBackend backend, ListMmfFormatVersion format)
    {
        // The items run from after the header (16 bytes in version 1, 4 KiB in version 2) to the end of the fourth page.
        int count = ((4 * 4096) - (format == ListMmfFormatVersion.Version1 ? 16 : 4096)) / 4;
        int[] items = Enumerable.Range(0, count).Select(i => i * 2).ToArray();
        string path = WriteSortedFile(items, format);
        using (var file = new FileStream(path, FileMode.Open, FileAccess.Write))
        {
            file.SetLength(4 * 4096);
        }

        using SortedListMmf<int> list = SortedSearchers.OpenSorted<int>(path, backend, indexed: true);
        int[] targets = [.. Enumerable.Range((2 * count) - 40, 50), int.MaxValue];
        var lower = new long[targets.Length];
        list.LowerBound(targets, lower);
        for (int i = 0; i < targets.Length; i++)
        {
            long expected = Math.Min((targets[i] + 1L) / 2, count);
            Assert.Equal(expected, list.LowerBound(targets[i]));
            Assert.Equal(expected, lower[i]);
        }

        Assert.NotNull(list.Index);
    }

    [Fact]
    public void BatchWithAShorterResultSpanIsRefused()
    {
        string path = WriteSortedFile([1, 2, 3]);
        using var list = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);

        Assert.Throws<ArgumentException>(() => list.LowerBound([1, 2, 3], new long[2]));
    }

    [Theory, MemberData(nameof(Shapes))]
    public void EveryImplementationAgreesWithALinearScan(string shape, int[] items)
    {
        Assert.Empty(Disagreements(shape, items, Targets(items, new Random(shape.Length))));
    }

    [Theory, MemberData(nameof(RandomShapes))]
    public void EveryImplementationAgreesOnRandomSortedData(int seed, int length)
    {
        var random = new Random(seed);
        int spread = random.Next(2) == 0 ? 50 : int.MaxValue;
        int[] items = Enumerable.Range(0, length).Select(_ => random.Next(-spread, spread)).Order().ToArray();
        Assert.Empty(Disagreements($"seed {seed}", items, Targets(items, random)));
    }

    /// <summary>
    /// Each item and its neighbours (a random 500 of them when there are more, to keep the file readers' syscalls
    /// within seconds), the extremes, and random values.
    /// </summary>
    private static List<int> Targets(int[] items, Random random)
    {
        const int MostItemTargets = 500;
        var targets = new List<int> { int.MinValue, int.MinValue + 1, -1, 0, 1, int.MaxValue - 1, int.MaxValue };
        int[] distinct = items.Distinct().ToArray();
        if (distinct.Length > MostItemTargets)
        {
            random.Shuffle(distinct);
            distinct = distinct[..MostItemTargets];
        }

        foreach (int item in distinct)
        {
            targets.Add(item);
            if (item > int.MinValue)
            {
                targets.Add(item - 1);
            }

            if (item < int.MaxValue)
            {
                targets.Add(item + 1);
            }
        }

        for (int i = 0; i < 50; i++)
        {
            targets.Add(random.Next(int.MinValue, int.MaxValue));
        }

        return targets;
    }

    private List<string> Disagreements(string shape, int[] items, List<int> targets)
    {
        string path = WriteSortedFile(items);
        List<ISortedSearcher> searchers = SortedSearchers.OpenAll(path, items);
        var random = new Random(items.Length);
        var ranges = new List<(long First, long Last)> { (0, items.Length) };
        for (int i = 0; i < 8 && items.Length > 0; i++)
        {
            long a = random.NextInt64(items.Length + 1);
            long b = random.NextInt64(items.Length + 1);
            ranges.Add((Math.Min(a, b), Math.Max(a, b)));
        }

        var disagreements = new List<string>();
        try
        {
            foreach ((long first, long last) in ranges)
            {
                foreach (int target in targets)
                {
                    long lower = LinearLowerBound(items, target, first, last);
                    long upper = LinearUpperBound(items, target, first, last);
                    foreach (ISortedSearcher searcher in searchers)
                    {
                        Check(disagreements, shape, searcher.Name, "LowerBound", target, first, last, lower, searcher.LowerBound(target, first, last));
                        Check(disagreements, shape, searcher.Name, "UpperBound", target, first, last, upper, searcher.UpperBound(target, first, last));
                    }
                }
            }
        }
        finally
        {
            searchers.ForEach(s => s.Dispose());
        }

        return disagreements.Take(20).ToList();
    }

    /// <summary>The batch searches, with and without the index, against a linear scan: all targets in one call, and in odd-sized pieces.</summary>
    private List<string> BatchDisagreements(string shape, int[] items, List<int> targets)
    {
        string path = WriteSortedFile(items);
        var disagreements = new List<string>();
        int[] all = targets.ToArray();
        long[] expectedLower = all.Select(t => LinearLowerBound(items, t, 0, items.Length)).ToArray();
        long[] expectedUpper = all.Select(t => LinearUpperBound(items, t, 0, items.Length)).ToArray();
        foreach (bool indexed in new[] { true, false })
        {
            using SortedListMmf<int> list = SortedSearchers.OpenSorted<int>(path, MappingBackend.Default, indexed);
            foreach (int piece in new[] { all.Length, 1, 7, 33, 100 })
            {
                var lower = new long[all.Length];
                var upper = new long[all.Length];
                for (int start = 0; start < all.Length; start += piece)
                {
                    int size = Math.Min(piece, all.Length - start);
                    list.LowerBound(all.AsSpan(start, size), lower.AsSpan(start, size));
                    list.UpperBound(all.AsSpan(start, size), upper.AsSpan(start, size));
                }

                string name = $"batched{(indexed ? " indexed" : "")} by {piece}";
                for (int i = 0; i < all.Length; i++)
                {
                    Check(disagreements, shape, name, "LowerBound", all[i], 0, items.Length, expectedLower[i], lower[i]);
                    Check(disagreements, shape, name, "UpperBound", all[i], 0, items.Length, expectedUpper[i], upper[i]);
                }
            }
        }

        return disagreements.Take(20).ToList();
    }

    private static void Check(List<string> disagreements, string shape, string name, string search, int target, long first, long last, long expected, long actual)
    {
        if (expected != actual)
        {
            disagreements.Add($"{shape}: {name} {search}({target}, [{first}, {last})) = {actual}, expected {expected}");
        }
    }

    private static long LinearLowerBound(int[] items, int target, long first, long last)
    {
        long index = first;
        while (index < last && items[index] < target)
        {
            index++;
        }

        return index;
    }

    private static long LinearUpperBound(int[] items, int target, long first, long last)
    {
        long index = first;
        while (index < last && items[index] <= target)
        {
            index++;
        }

        return index;
    }

    private string WriteSortedFile(int[] items, ListMmfFormatVersion format = ListMmfFormatVersion.Version2)
    {
        string path = _directory.File($"sorted-{Guid.NewGuid():N}.bt");
        using var list = new ListMmfTimeSeriesDateTimeSeconds(
            path, TimeSeriesOrder.AscendingOrEqual, FileAccess.ReadWrite, new ListMmfOptions { FormatVersion = format });
        list.Keys.AddRange(items);
        return path;
    }

    private static int[] Runs(Random random, int runs, int maxRun)
    {
        var items = new List<int>();
        int value = -1_000;
        for (int run = 0; run < runs; run++)
        {
            value += random.Next(1, 5);
            items.AddRange(Enumerable.Repeat(value, random.Next(1, maxRun)));
        }

        return items.ToArray();
    }

    /// <summary>The 08:30-09:30 CT hour of the timestamp sample in data-samples: real tick structure, many ticks per second.</summary>
    private static int[] SampleHour()
    {
        using var list = new ListMmf<int>(RepositoryFiles.Path("data-samples", "MES-2024-03-12-timestamps.bt"), FileAccess.Read);
        int from = (int)new DateTimeOffset(2024, 3, 12, 14, 30, 0, TimeSpan.Zero).ToUnixTimeSeconds();
        return list.Where(s => s >= from && s < from + 3_600).ToArray();
    }
}

/// <summary>LowerBound over a sorted list, for checking against.</summary>
internal static class SortedListExtensions
{
    public static long BinarySearchLowerBound(this List<int> items, int target)
    {
        int first = 0;
        int count = items.Count;
        while (count > 0)
        {
            int step = count / 2;
            if (items[first + step] < target)
            {
                first += step + 1;
                count -= step + 1;
            }
            else
            {
                count = step;
            }
        }

        return first;
    }
}
