using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using ListMmf.Benchmarks.Core;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// What <c>quick</c> prints under its table: this machine's memory limits measured over the dataset's own mapping,
/// and the cost of the first searches after opening a file (each search on a new mapping takes page faults) with
/// and without <see cref="ListMmfOptions.PopulateOnOpen"/>, beside the same searches on a warm mapping.
/// </summary>
internal static class ColdStart
{
    private const int Loads = 1_000_000;
    private const int FirstSearches = 10_000;
    private const int Runs = 5;

    /// <summary>
    /// ns per load over the mapped items: dependent (each address computed from the item the last load read: the
    /// latency a single search cannot beat) and independent (addresses known ahead: the throughput a batch can reach).
    /// </summary>
    public static (double Dependent, double Independent) MeasureLimits(string path)
    {
        using var list = new ListMmf<int>(path, FileAccess.Read);
        ReadOnlySpan<int> items = list.AsSpan(0, (int)Math.Min(list.Count, int.MaxValue));
        uint count = (uint)items.Length;

        uint index = 12_345;
        long start = Stopwatch.GetTimestamp();
        for (uint step = 0; step < Loads; step++)
        {
            index = (uint)(((ulong)((uint)items[(int)index] ^ step) * 2_654_435_761UL) % count);
        }

        double dependent = Stopwatch.GetElapsedTime(start).TotalNanoseconds / Loads;

        var random = new Random(7);
        var addresses = new int[Loads];
        for (int i = 0; i < addresses.Length; i++)
        {
            addresses[i] = random.Next(items.Length);
        }

        long sum = index;
        start = Stopwatch.GetTimestamp();
        foreach (int address in addresses)
        {
            sum += items[address];
        }

        double independent = Stopwatch.GetElapsedTime(start).TotalNanoseconds / Loads;
        GC.KeepAlive(sum);
        return (dependent, independent);
    }

    /// <summary>Median ns per search of the first 10,000 fresh searches after opening: plain, populated, and on a warm mapping.</summary>
    public static (double Plain, double Populated, double Warm, double PopulateMilliseconds) MeasureFirstSearches(string path, int first, int last)
    {
        var plain = new double[Runs];
        var populated = new double[Runs];
        var warm = new double[Runs];
        var populate = new double[Runs];
        var results = new long[FirstSearches];
        using var warmList = Open(path, populate: false);
        Time(warmList, QueryTargets.AfterOpen(first, last, 100_000, run: 99).AsSpan(0, FirstSearches), results);
        for (int run = 0; run < Runs; run++)
        {
            int[] targets = QueryTargets.AfterOpen(first, last, FirstSearches, run);
            using (SortedListMmf<int> list = Open(path, populate: false))
            {
                plain[run] = Time(list, targets, results);
            }

            long start = Stopwatch.GetTimestamp();
            using (SortedListMmf<int> list = Open(path, populate: true))
            {
                populate[run] = Stopwatch.GetElapsedTime(start).TotalMilliseconds;
                populated[run] = Time(list, QueryTargets.AfterOpen(first, last, FirstSearches, run + Runs), results);
            }

            warm[run] = Time(warmList, QueryTargets.AfterOpen(first, last, FirstSearches, run + (2 * Runs)), results);
        }

        return (Medians.Of(plain), Medians.Of(populated), Medians.Of(warm), Medians.Of(populate));
    }

    public static void Print(string path, int first, int last, (TimeSpan Time, long Bytes)? indexBuild)
    {
        if (indexBuild is { } build)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Page index: built by the first search in {build.Time.TotalMilliseconds:N1} ms, {build.Bytes / 1_048_576.0:N2} MiB in RAM."));
        }

        (double dependent, double independent) = MeasureLimits(path);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Memory limits over the mapping: a dependent random load {dependent:N1} ns (the floor of one search), an independent random load {independent:N1} ns (the floor of a batched search's loads)."));
        (double plain, double populated, double warm, double populateMs) = MeasureFirstSearches(path, first, last);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"First {FirstSearches:N0} fresh searches after opening (plain binary search, median of {Runs}): {plain:N1} ns/search ({plain / warm:F2}x warm); with PopulateOnOpen {populated:N1} ns/search ({populated / warm:F2}x warm, the open itself {populateMs:N1} ms); on a warm mapping {warm:N1} ns/search."));
        Console.WriteLine();
    }

    private static SortedListMmf<int> Open(string path, bool populate) =>
        new(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read, new ListMmfOptions { SearchIndex = false, PopulateOnOpen = populate });

    private static double Time(SortedListMmf<int> list, ReadOnlySpan<int> targets, long[] results)
    {
        long start = Stopwatch.GetTimestamp();
        for (int i = 0; i < targets.Length; i++)
        {
            results[i] = list.LowerBound(targets[i]);
        }

        return Stopwatch.GetElapsedTime(start).TotalNanoseconds / targets.Length;
    }
}
