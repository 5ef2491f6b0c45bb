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

    private string WriteSortedFile(int[] items)
    {
        string path = _directory.File($"sorted-{Guid.NewGuid():N}.bt");
        using var list = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.AscendingOrEqual);
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
