using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Csv;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// The cold rows of <c>peers</c>, as a process that starts meets its files: each round, every store in a new random
/// order is closed, its files' pages dropped (<see cref="PageCache"/>), then its open and first lookup are timed
/// together, then each of its next lookups on its own; with the bytes the process read from the disk meanwhile
/// (<see cref="ProcessIo"/>). No store is opened, counted or warmed untimed. Then 1,000 day files, each opened cold
/// and searched once (<see cref="DayFiles"/>).
/// </summary>
internal static class ColdLookups
{
    public const string First = "Cold start: open plus the first lookup (store closed, its files' pages dropped)";
    public const string Next = "Cold start: each of the next lookups (median)";
    public const string Days = "1,000 day files of 70,200 times, each opened cold and searched once, per file";

    private const int DayFileCount = 1_000;
    private const int TimesPerDay = 70_200;

    public static void Run(PeersRequest request, IPeerStore[] stores, int firstTime, int lastTime, PeersResults results, List<string> failures)
    {
        if (!PageCache.CanDrop)
        {
            foreach (IPeerStore store in stores)
            {
                results.Add(First, store.Name, null, "not measured: pages are dropped on Linux only", unit: "ns");
            }

            return;
        }

        var random = new SplitMix64(31);
        var order = new Random(31);
        var firsts = stores.Select(_ => new List<double>()).ToArray();
        var nexts = stores.Select(_ => new List<double>()).ToArray();
        var firstBytes = stores.Select(_ => new List<double>()).ToArray();
        var nextBytes = stores.Select(_ => new List<double>()).ToArray();
        int[] sequence = Enumerable.Range(0, stores.Length).ToArray();
        for (int round = 0; round < request.Rounds; round++)
        {
            int[] targets = QueryRounds.Targets(random, request.ColdLookups + 1, firstTime, lastTime);
            order.Shuffle(sequence);
            foreach (int s in sequence)
            {
                IPeerStore store = stores[s];
                store.Close();
                PageCache.Drop(store.Folder);
                long before = ProcessIo.ReadBytes() ?? 0;
                long start = Stopwatch.GetTimestamp();
                store.Open();
                long found = store.FirstAtOrAfter(targets[0]);
                firsts[s].Add(Stopwatch.GetElapsedTime(start).TotalNanoseconds);
                long afterFirst = ProcessIo.ReadBytes() ?? 0;
                firstBytes[s].Add(afterFirst - before);
                Check(store, targets[0], found, request.Rows, failures);
                var each = new double[request.ColdLookups];
                for (int i = 1; i < targets.Length; i++)
                {
                    start = Stopwatch.GetTimestamp();
                    found = store.FirstAtOrAfter(targets[i]);
                    each[i - 1] = Stopwatch.GetElapsedTime(start).TotalNanoseconds;
                    Check(store, targets[i], found, request.Rows, failures);
                }

                nexts[s].Add(Medians.Of(each));
                nextBytes[s].Add(((ProcessIo.ReadBytes() ?? 0) - afterFirst) / (double)request.ColdLookups);
                store.Settle();
            }

            Console.Error.WriteLine($"peers: cold round {round + 1} of {request.Rounds} done");
        }

        for (int s = 0; s < stores.Length; s++)
        {
            results.Add(First, stores[s].Name, Medians.Of(firsts[s]), $"read {ProcessIo.Describe(Medians.Of(firstBytes[s]))}", unit: "ns");
            results.Add(Next, stores[s].Name, Medians.Of(nexts[s]), $"read {ProcessIo.Describe(Medians.Of(nextBytes[s]))} a lookup", unit: "ns");
        }
    }

    /// <summary>
    /// 1,000 sorted lists of a day's times each (6.5 hours, 3 ticks a second: 70,200 Int32 times, 280 KB), made once;
    /// then per round every file's pages dropped, and each file opened, searched for a random time of its day and
    /// closed, one after the other: the time per file and the bytes read per file. ListMmf only: a backtest that keeps
    /// a file per instrument and day opens them so.
    /// </summary>
    public static void DayFiles(PeersRequest request, string folder, PeersResults results, List<string> failures)
    {
        if (!PageCache.CanDrop)
        {
            results.Add(Days, "ListMmf", null, "not measured: pages are dropped on Linux only", unit: "ns");
            return;
        }

        Directory.CreateDirectory(folder);
        var paths = new string[DayFileCount];
        var times = new int[TimesPerDay];
        for (int day = 0; day < DayFileCount; day++)
        {
            paths[day] = Path.Combine(folder, $"day-{day:D4}.mmf");
            int open = DayOpen(day);
            for (int i = 0; i < times.Length; i++)
            {
                times[i] = open + (i / 3);
            }

            using var list = new SortedListMmf<int>(paths[day], TimeSeriesOrder.AscendingOrEqual);
            list.AddRange(times);
        }

        var random = new Random(5);
        var perFile = new List<double>();
        var bytes = new List<double>();
        for (int round = 0; round < request.Rounds; round++)
        {
            PageCache.Drop(folder);
            int[] targets = Enumerable.Range(0, DayFileCount).Select(day => DayOpen(day) + random.Next(-10, (TimesPerDay / 3) + 10)).ToArray();
            long before = ProcessIo.ReadBytes() ?? 0;
            long start = Stopwatch.GetTimestamp();
            var found = new long[DayFileCount];
            for (int day = 0; day < DayFileCount; day++)
            {
                using var list = new SortedListMmf<int>(paths[day], TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
                found[day] = list.LowerBound(targets[day]);
            }

            perFile.Add(Stopwatch.GetElapsedTime(start).TotalNanoseconds / DayFileCount);
            bytes.Add(((ProcessIo.ReadBytes() ?? 0) - before) / (double)DayFileCount);
            for (int day = 0; day < DayFileCount; day++)
            {
                long expected = Math.Clamp(3L * (targets[day] - DayOpen(day)), 0, TimesPerDay);
                failures.Check(found[day] == expected, $"day file {day}: the first time at or after {targets[day]} is item {found[day]:N0}, not {expected:N0}");
            }
        }

        results.Add(Days, "ListMmf", Medians.Of(perFile), $"read {ProcessIo.Describe(Medians.Of(bytes))} a file", unit: "ns");
    }

    private static int DayOpen(int day) => 1_420_205_400 + (day * 86_400);

    private static void Check(IPeerStore store, int target, long found, long rows, List<string> failures)
    {
        long expected = TickCsv.FirstRowAtOrAfter(target, rows);
        failures.Check(found == expected, $"{store.Name} cold: the first tick at or after {target} is row {found:N0}, the CSV's is {expected:N0}");
    }
}
