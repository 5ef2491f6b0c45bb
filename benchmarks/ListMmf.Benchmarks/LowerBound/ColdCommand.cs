using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Peers;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// <c>cold</c>: a process starting on the reference dataset with nothing of it in memory. Each round, in a new random
/// order, each way of opening it gets the file's pages (and its fence file's) dropped, then times its open and first
/// <c>LowerBound</c> together, each of its next lookups on its own, and the bytes read meanwhile; then goes on
/// searching until the page index those searches start is there and the fence file written (the time from the open),
/// and times warm lookups after it, beside a list opened on the file read whole first. One way is the same times as a
/// <see cref="SortedListMmf{T}"/> writer leaves them (written through it in this run, its fence file, or none, kept as
/// the writer left it for every round), against the issue 67 goals; another is a table of those times and a Single
/// column written through the table's writer and opened as a user opens one. Linux only (pages are dropped with <c>posix_fadvise</c>).
/// </summary>
internal static class ColdCommand
{
    private const string WithoutFences = "no fence file yet";
    private const string WithFences = "fence file";
    private const string Mapping = "mapping only (SearchIndex = false)";
    private const string AsWritten = "as its writer left it";
    private const string TableAsWritten = "a table as its writer left it (`TimeSeriesTable.Open`)";
    private const int WarmLookups = 100_000;

    /// <summary>The goals of a cold start on a file as its writer left it (issue 67): open + first lookup, its bytes, the next lookups.</summary>
    private const double FirstGoalMicroseconds = 2_000;
    private const double FirstGoalBytes = 4 << 20;
    private const double NextGoalMicroseconds = 200;

    public static int Run(long elements, int rounds, int lookups)
    {
        if (!PageCache.CanDrop)
        {
            Console.Error.WriteLine("cold: pages can be dropped on Linux only.");
            return 2;
        }

        string path = ReferenceDataset.Ensure(elements, Console.Error);
        string fences = path + ".fences";
        int first;
        int last;
        using (var list = new ListMmf<int>(path, FileAccess.Read))
        {
            first = list[0];
            last = list[list.Count - 1];
        }

        string written = Path.ChangeExtension(path, ".written.bt");
        byte[]? writtenFences = WriteThroughWriter(path, written);
        string table = Path.ChangeExtension(path, ".table");
        string tableTimes = WriteTable(path, table);
        byte[]? tableFences = File.Exists(tableTimes + ".fences") ? File.ReadAllBytes(tableTimes + ".fences") : null;
        string[] ways = [WithoutFences, WithFences, Mapping, AsWritten, TableAsWritten];
        var rows = ways.ToDictionary(way => way, _ => new Row());
        var warmBaseline = new List<double>();
        var order = new Random(3);
        int failures = 0;
        for (int round = 0; round < rounds; round++)
        {
            foreach (string way in ways.OrderBy(_ => order.Next()))
            {
                if (way == TableAsWritten)
                {
                    RestoreFences(tableTimes, tableFences);
                    foreach (string file in Directory.EnumerateFiles(table))
                    {
                        PageCache.DropFile(file);
                    }

                    int[] tableTargets = QueryTargets.AfterOpen(first, last, lookups + 1, run: (round * 7) + Array.IndexOf(ways, way));
                    failures += rows[way].MeasureTable(table, tableTargets, path);
                    continue;
                }

                if (way == AsWritten)
                {
                    RestoreFences(written, writtenFences);
                    DropPages(written, written + ".fences");
                    int[] writtenTargets = QueryTargets.AfterOpen(first, last, lookups + 1, run: (round * 7) + Array.IndexOf(ways, way));
                    failures += rows[way].Measure(written, writtenTargets, mappingOnly: false, round);
                    continue;
                }

                if (way == WithoutFences)
                {
                    File.Delete(fences);
                }
                else if (way == WithFences && !File.Exists(fences))
                {
                    WriteFences(path);
                }

                DropPages(path, fences);
                int[] targets = QueryTargets.AfterOpen(first, last, lookups + 1, run: (round * 7) + Array.IndexOf(ways, way));
                failures += rows[way].Measure(path, targets, way == Mapping, round);
            }

            using (var warm = Open(path, index: true))
            {
                PageCache.Read(path);
                warm.LowerBound(first);
                warm.WhenIdle().Wait();
                warmBaseline.Add(TimeWarm(warm, first, last, round));
            }

            Console.Error.WriteLine($"cold: round {round + 1} of {rounds} done");
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"cold: {elements:N0} Int32 times ({new FileInfo(path).Length / 1e6:N0} MB), median of {rounds} rounds; {Environment.ProcessorCount} cores, .NET {Environment.Version}"));
        Console.WriteLine(PageCacheState.Describe());
        Console.WriteLine();
        Console.WriteLine("| way | open + first lookup | read | next lookups, median | read a lookup | index ready after | warm lookup after |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|");
        foreach (string way in ways)
        {
            Console.WriteLine(rows[way].Describe(way));
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| warm: the file read whole, then opened and indexed | | | | | | {Medians.Of(warmBaseline):N1} ns |"));
        Console.WriteLine();
        Console.WriteLine($"the writer left {(writtenFences is null ? "no fence file" : $"a fence file of {writtenFences.Length:N0} bytes")}; " +
            $"the table's writer {(tableFences is null ? "none" : $"one of {tableFences.Length:N0} bytes")}");
        foreach (string way in new[] { AsWritten, TableAsWritten })
        {
            Row row = rows[way];
            Console.WriteLine(Goal(way, "open + first lookup", row.First / 1000, FirstGoalMicroseconds, "µs"));
            Console.WriteLine(Goal(way, "bytes read by it", row.FirstBytes, FirstGoalBytes, "bytes"));
            Console.WriteLine(Goal(way, "each next lookup (median)", row.Next / 1000, NextGoalMicroseconds, "µs"));
        }

        return failures == 0 ? 0 : 1;
    }

    private static string Goal(string way, string what, double value, double goal, string unit) => string.Create(
        CultureInfo.InvariantCulture,
        $"goal {(value <= goal ? "MET" : "MISSED")}: {way}, {what}: {value:N1} {unit} (wanted at most {goal:N0} {unit})");

    /// <summary>
    /// Writes the dataset's times again as a table's time column (Unix seconds) beside a Single column, through the
    /// table's writer, a million rows at a time with a flush after each, and closes it: a table as a live writer
    /// leaves it. Returns the time column's path.
    /// </summary>
    private static string WriteTable(string path, string folder)
    {
        if (Directory.Exists(folder))
        {
            Directory.Delete(folder, recursive: true);
        }

        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual).Add<float>("price");
        using (var source = new ListMmf<int>(path, FileAccess.Read))
        using (var table = TimeSeriesTable.Create(folder, schema))
        {
            TableColumn<float> price = table.Column<float>("price");
            var prices = new float[1_000_000];
            for (long at = 0; at < source.Count; at += prices.Length)
            {
                int length = (int)Math.Min(prices.Length, source.Count - at);
                price.AddRange(prices.AsSpan(0, length));
                table.AddRows(source.AsSpan(at, length));
                table.Flush();
            }
        }

        return Path.Combine(folder, schema.Time.FileName);
    }

    /// <summary>
    /// Writes the dataset's times again through a <see cref="SortedListMmf{T}"/> writer, a million at a time, and closes
    /// it: the file and its fences (or none) as a writer leaves them. Returns the fence file it left, or null.
    /// </summary>
    private static byte[]? WriteThroughWriter(string path, string written)
    {
        File.Delete(written);
        File.Delete(written + ".fences");
        using (var source = new ListMmf<int>(path, FileAccess.Read))
        using (var writer = new SortedListMmf<int>(written, TimeSeriesOrder.AscendingOrEqual))
        {
            for (long at = 0; at < source.Count; at += 1_000_000)
            {
                writer.AddRange(source.AsSpan(at, (int)Math.Min(1_000_000, source.Count - at)));
            }
        }

        return File.Exists(written + ".fences") ? File.ReadAllBytes(written + ".fences") : null;
    }

    /// <summary>Puts back the fence file the writer left (a reader's page index may have written its own since), or removes one it did not.</summary>
    private static void RestoreFences(string written, byte[]? fences)
    {
        if (fences is null)
        {
            File.Delete(written + ".fences");
        }
        else
        {
            File.WriteAllBytes(written + ".fences", fences);
        }
    }

    private static SortedListMmf<int> Open(string path, bool index) =>
        new(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read, ListMmfOptions.Default with { SearchIndex = index });

    private static void WriteFences(string path)
    {
        using SortedListMmf<int> list = Open(path, index: true);
        PageCache.Read(path);
        list.LowerBound(0);
        list.WhenIdle().Wait();
    }

    private static void DropPages(string path, string fences)
    {
        foreach (string file in new[] { path, fences }.Where(File.Exists))
        {
            PageCache.DropFile(file);
        }
    }

    private static double TimeWarm(SortedListMmf<int> list, int first, int last, int round)
    {
        int[] targets = QueryTargets.AfterOpen(first, last, WarmLookups, run: 1_000 + round);
        long sum = 0;
        long start = Stopwatch.GetTimestamp();
        foreach (int target in targets)
        {
            sum += list.LowerBound(target);
        }

        double nanoseconds = Stopwatch.GetElapsedTime(start).TotalNanoseconds / targets.Length;
        GC.KeepAlive(sum);
        return nanoseconds;
    }

    /// <summary>One way's figures over the rounds.</summary>
    private sealed class Row
    {
        private readonly List<double> _first = [];
        private readonly List<double> _firstBytes = [];
        private readonly List<double> _next = [];
        private readonly List<double> _nextBytes = [];
        private readonly List<double> _ready = [];
        private readonly List<double> _warm = [];

        /// <summary>Times one cold start; returns the number of wrong answers.</summary>
        public int Measure(string path, int[] targets, bool mappingOnly, int round)
        {
            int wrong = 0;
            long before = ProcessIo.ReadBytes() ?? 0;
            long start = Stopwatch.GetTimestamp();
            using SortedListMmf<int> list = Open(path, index: !mappingOnly);
            long found = list.LowerBound(targets[0]);
            _first.Add(Stopwatch.GetElapsedTime(start).TotalNanoseconds);
            long afterFirst = ProcessIo.ReadBytes() ?? 0;
            _firstBytes.Add(afterFirst - before);
            using var reference = new ListMmf<int>(path, FileAccess.Read);
            var each = new double[targets.Length - 1];
            var answers = new long[targets.Length];
            answers[0] = found;
            for (int i = 1; i < targets.Length; i++)
            {
                long at = Stopwatch.GetTimestamp();
                answers[i] = list.LowerBound(targets[i]);
                each[i - 1] = Stopwatch.GetElapsedTime(at).TotalNanoseconds;
            }

            _nextBytes.Add(((ProcessIo.ReadBytes() ?? 0) - afterFirst) / (double)each.Length);
            _next.Add(Medians.Of(each));

            // A backtest goes on asking: its searches start the page index, and go through it once it is there.
            int asked = 0;
            while (!mappingOnly && list.Index is null)
            {
                list.LowerBound(targets[asked++ % targets.Length]);
            }

            list.WhenIdle().Wait();
            _ready.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
            for (int i = 0; i < targets.Length; i++)
            {
                wrong += answers[i] == LowerBoundOf(reference, targets[i]) ? 0 : 1;
            }

            _warm.Add(TimeWarm(list, reference[0], reference[reference.Count - 1], round));
            return wrong;
        }

        /// <summary>
        /// Times one cold start of a table opened as a user opens one (its columns' forms found on the disk), its first
        /// and next lookups; returns the number of wrong answers against the dataset at <paramref name="reference"/>.
        /// </summary>
        public int MeasureTable(string folder, int[] targets, string reference)
        {
            long before = ProcessIo.ReadBytes() ?? 0;
            long start = Stopwatch.GetTimestamp();
            using TimeSeriesTable table = TimeSeriesTable.Open(folder, FileAccess.Read);
            var answers = new long[targets.Length];
            answers[0] = table.LowerBound(DateTime.UnixEpoch.AddSeconds(targets[0]));
            _first.Add(Stopwatch.GetElapsedTime(start).TotalNanoseconds);
            long afterFirst = ProcessIo.ReadBytes() ?? 0;
            _firstBytes.Add(afterFirst - before);
            var each = new double[targets.Length - 1];
            for (int i = 1; i < targets.Length; i++)
            {
                long at = Stopwatch.GetTimestamp();
                answers[i] = table.LowerBound(DateTime.UnixEpoch.AddSeconds(targets[i]));
                each[i - 1] = Stopwatch.GetElapsedTime(at).TotalNanoseconds;
            }

            _nextBytes.Add(((ProcessIo.ReadBytes() ?? 0) - afterFirst) / (double)each.Length);
            _next.Add(Medians.Of(each));
            using var list = new ListMmf<int>(reference, FileAccess.Read);
            return targets.Select((target, i) => answers[i] == LowerBoundOf(list, target) ? 0 : 1).Sum();
        }

        public double First => Medians.Of(_first);

        public double FirstBytes => Medians.Of(_firstBytes);

        public double Next => Medians.Of(_next);

        public string Describe(string way) => string.Create(
            CultureInfo.InvariantCulture,
            $"| {way} | {Medians.Of(_first) / 1000:N0} µs | {ProcessIo.Describe(Medians.Of(_firstBytes))} | {Medians.Of(_next) / 1000:N1} µs | " +
                $"{ProcessIo.Describe(Medians.Of(_nextBytes))} | {Later(Medians.Of(_ready), "N0", "ms")} | {Later(Medians.Of(_warm), "N1", "ns")} |");

        /// <summary>A figure of the searches after the cold ones, which a table's row does not measure.</summary>
        private static string Later(double value, string format, string unit) =>
            double.IsNaN(value) ? "" : value.ToString(format, CultureInfo.InvariantCulture) + " " + unit;

        private static long LowerBoundOf(ListMmf<int> list, int target)
        {
            long low = 0;
            long high = list.Count;
            while (low < high)
            {
                long middle = low + ((high - low) / 2);
                if (list[middle] < target)
                {
                    low = middle + 1;
                }
                else
                {
                    high = middle;
                }
            }

            return low;
        }
    }
}
