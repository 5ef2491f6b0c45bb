using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.LowerBound;
using ListMmf.Benchmarks.Peers;

namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// <c>catalog-workloads [--workloads w1,w2,w3] [--scale S] [--rounds K]</c>: issue 67's three workloads, each a
/// generated market (<see cref="WorkloadMarket"/>) written to a catalog, then replayed whole with an empty strategy
/// (every row's time, instrument, price and size read into a checksum), cold (a new catalog, the folder's pages
/// dropped) and warm (a new catalog, pages cached), appendable and then sealed: time to the first row, rows a second,
/// how much the process's memory beyond the page cache grew (<see cref="AnonymousMemory"/>) and what the replay
/// allocated on the managed heap (garbage included), partitions opened, bytes read, and the
/// checksum of the order, which must equal a sort of every row by the documented tie rule in every run and form.
/// W1 wide: 1,000 instruments' minute bars over 10 days. W2 deep: 10 instruments' trades and quotes over 5 days,
/// and 1,000 random 15-minute windows (p50, p99). W3 dense ties: 2,000 instruments quoting on each minute boundary
/// of an hour, written live with a watermark each minute while four reader processes follow it, each checked. S scales the
/// instruments.
/// </summary>
internal static class CatalogWorkloadsCommand
{
    private const int Readers = 4;
    private const int Windows = 1_000;
    private const int ColdWindows = 100;
    private const double MemoryGoalMiB = 64;
    private static readonly TimeSpan Window = TimeSpan.FromMinutes(15);
    private static readonly TimeSpan Hang = TimeSpan.FromMinutes(2);
    internal static readonly string[] Columns = ["price", "size"];

    public static int Run(IReadOnlyCollection<string> workloads, double scale, int rounds)
    {
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"catalog-workloads: {string.Join(", ", workloads)} at scale {scale}, {rounds} rounds, {Environment.ProcessorCount} cores, " +
                $"{System.Runtime.InteropServices.RuntimeInformation.OSDescription}, .NET {Environment.Version}"));
        Console.WriteLine(PageCacheState.Describe());
        int Scaled(int count) => Math.Max(1, (int)Math.Round(count * scale));
        foreach (string workload in workloads)
        {
            string folder = BenchmarkFiles.FreshDirectory("catalog-" + workload);
            try
            {
                switch (workload)
                {
                    case "w1":
                        Replays(WorkloadMarket.Wide(Scaled(1_000), days: 10), folder, rounds, windows: false);
                        break;
                    case "w2":
                        Replays(WorkloadMarket.Deep(Scaled(10), days: 5, tradesPerDay: 20_000), folder, rounds, windows: true);
                        break;
                    default:
                        Live(WorkloadMarket.DenseTies(Scaled(2_000), minutes: 60), folder, rounds);
                        break;
                }
            }
            finally
            {
                BenchmarkFiles.DeleteDirectory(folder);
            }
        }

        return 0;
    }

    /// <summary>W1 and W2: the market written a day at a time, a flush with a watermark after each, then replayed.</summary>
    private static void Replays(WorkloadMarket market, string folder, int rounds, bool windows)
    {
        var clock = Stopwatch.StartNew();
        var flushes = new List<double>();
        using (var writer = TimeSeriesCatalog.Create(folder, Schema(market)))
        {
            for (int day = 0; day < market.Days; day++)
            {
                for (int k = 0; k < market.Kinds.Length; k++)
                {
                    for (int i = 0; i < market.Names.Length; i++)
                    {
                        WorkloadSeries series = market.Series[k][i];
                        int perDay = series.Times.Length / market.Days;
                        Append(writer.Partition(market.Kinds[k], market.Names[i], new DateTime(WorkloadMarket.SessionOpen(day))), series,
                            day * perDay, perDay);
                    }
                }

                long flush = Stopwatch.GetTimestamp();
                writer.Flush(WorkloadMarket.FirstDay.AddDays(day + 1));
                flushes.Add(Stopwatch.GetElapsedTime(flush).TotalMilliseconds);
            }
        }

        Console.WriteLine();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{market.Name}: written in {clock.Elapsed.TotalSeconds:N1} s, a day at a time, {flushes.Count:N0} flushes with a watermark " +
                $"(median {Medians.Of(flushes):N1} ms)"));
        WorkloadMarket.ReplayOrder order = market.Order();
        Measure(market, folder, order, rounds, windows);
    }

    /// <summary>
    /// W3: the market written live, a minute at a time with a watermark, while <see cref="Readers"/> reader processes
    /// follow it (<see cref="CatalogFollower"/>); every reader must replay every row in the order of the sort. Then
    /// replayed as W1.
    /// </summary>
    private static void Live(WorkloadMarket market, string folder, int rounds)
    {
        WorkloadMarket.ReplayOrder order = market.Order();
        ReplayChecksum expected = order.All;
        int minutes = market.Series[0][0].Times.Length;
        long[] flushStarts = new long[minutes];
        var flushes = new List<double>();
        var clock = Stopwatch.StartNew();
        var readers = new List<Process>();
        try
        {
            using (var writer = TimeSeriesCatalog.Create(folder, Schema(market)))
            {
                for (int r = 0; r < Readers; r++)
                {
                    readers.Add(CatalogFollower.Start(folder, market.Names.Length, minutes, expected));
                }

                for (int minute = 0; minute < minutes; minute++)
                {
                    var time = new DateTime(market.Series[0][0].Times[minute]);
                    for (int i = 0; i < market.Names.Length; i++)
                    {
                        Append(writer.Partition(market.Kinds[0], market.Names[i], time), market.Series[0][i], minute, 1);
                    }

                    flushStarts[minute] = Stopwatch.GetTimestamp();
                    writer.Flush(time.AddTicks(1));
                    flushes.Add(Stopwatch.GetElapsedTime(flushStarts[minute]).TotalMilliseconds);
                }
            }

            // Stopwatch's clock is the system's monotonic one, the same in every process.
            var lags = new List<double>();
            foreach (Process reader in readers)
            {
                long[] seen = CatalogFollower.Result(reader, minutes, Hang);
                lags.AddRange(seen.Select((at, minute) => Stopwatch.GetElapsedTime(flushStarts[minute], at).TotalMilliseconds));
            }

            Console.WriteLine();
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{market.Name}: {market.Names.Length:N0} instruments x {minutes} minutes written live in {clock.Elapsed.TotalSeconds:N1} s, " +
                    $"a flush with a watermark each minute: median {Medians.Of(flushes):N1} ms, p99 {Percentile(flushes, 0.99):N1} ms; " +
                        $"{Readers} reader processes following (polling each millisecond when caught up), each given every row in the " +
                            $"sort's order ({expected}); a minute's rows reached a reader a median {Medians.Of(lags):N1} ms " +
                                $"(p99 {Percentile(lags, 0.99):N1} ms) after its flush began"));
        }
        finally
        {
            foreach (Process reader in readers)
            {
                if (!reader.HasExited)
                {
                    reader.Kill();
                }

                reader.Dispose();
            }
        }

        Measure(market, folder, order, rounds, windows: false);
    }

    /// <summary>The replays of a written market, appendable then sealed, and its table of results.</summary>
    private static void Measure(WorkloadMarket market, string folder, WorkloadMarket.ReplayOrder order, int rounds, bool windows)
    {
        ReplayChecksum expected = order.All;
        var results = new List<(string Way, Replayed Result)>();
        var sizes = new List<string>();
        foreach (string form in new[] { "appendable", "sealed" })
        {
            if (form == "sealed")
            {
                using var writer = TimeSeriesCatalog.Open(folder);
                writer.Seal(DateTime.MaxValue);
            }

            int files = Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories).Count();
            sizes.Add($"{form} {ProcessIo.Describe(BytesOnDisk(folder))} in {files:N0} files");
            var ways = new List<(string Way, bool Cold, bool InRuns)> { ($"{form}, warm", false, false), ($"{form}, warm, in runs", false, true) };
            if (PageCache.CanDrop)
            {
                ways.InsertRange(0, [($"{form}, cold", true, false), ($"{form}, cold, in runs", true, true)]);
            }

            var runs = ways.ToDictionary(way => way.Way, _ => new List<Replayed>());
            for (int round = 0; round <= rounds; round++)
            {
                foreach ((string way, bool cold, bool inRuns) in ways)
                {
                    Replayed replayed = ReplayAll(folder, cold, inRuns, expected, way);
                    if (round > 0)
                    {
                        runs[way].Add(replayed);
                    }
                }
            }

            results.AddRange(runs.Select(run => (run.Key, Replayed.Median(run.Value))));
            if (windows)
            {
                WindowRounds(market, folder, order, form);
            }
        }

        long partitions;
        using (var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read))
        {
            partitions = catalog.Partitions().Count;
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{market.Name}: {market.Names.Length:N0} instruments, {string.Join(" and ", market.Kinds)}, {market.Rows:N0} rows in " +
                $"{partitions:N0} partitions; on disk: {string.Join("; ", sizes)}; every replay's checksum {expected}"));
        Console.WriteLine();
        Console.WriteLine("| replay of every row, a new catalog (times: medians; the rest: the most) | first row ms | M rows/s | memory grew by | " +
            "allocated | partitions opened | read |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|");
        foreach ((string way, Replayed result) in results)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {way} | {result.FirstRowMilliseconds:N2} | {market.Rows / result.Seconds / 1e6:N2} | " +
                    $"{(result.MemoryBytes is { } memory ? ProcessIo.Describe(memory) : "n/a")} | {ProcessIo.Describe(result.AllocatedBytes)} | " +
                        $"{result.Partitions:N0} | {ProcessIo.Describe(result.ReadBytes)} |"));
        }

        if (results.Any(result => result.Result.MemoryBytes is null))
        {
            return;
        }

        double most = results.Max(result => result.Result.MemoryBytes ?? 0) / (double)(1 << 20);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"goal {(most <= MemoryGoalMiB ? "MET" : "MISSED")}: memory beyond the page cache grew by at most {most:N1} MiB in any replay " +
                $"(wanted at most {MemoryGoalMiB:N0} MiB)"));
    }

    /// <summary>
    /// A new catalog replays every row, in batches or in runs (<see cref="TimeSeriesCatalog.Runs"/>); its time to the
    /// first row and in all, and what it held and read.
    /// </summary>
    private static Replayed ReplayAll(string folder, bool cold, bool inRuns, ReplayChecksum expected, string way)
    {
        if (cold)
        {
            PageCache.Drop(folder);
        }

        long readBefore = ProcessIo.ReadBytes() ?? 0;
        long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        using var memory = AnonymousMemory.Watch();
        long start = Stopwatch.GetTimestamp();
        double first = double.NaN;
        var checksum = new ReplayChecksum();
        long opened;
        using (var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read))
        {
            if (inRuns)
            {
                using CatalogRuns runs = catalog.Runs(DateTime.MinValue, DateTime.MaxValue, columns: Columns);
                while (runs.MoveNext())
                {
                    if (double.IsNaN(first))
                    {
                        first = Stopwatch.GetElapsedTime(start).TotalMilliseconds;
                    }

                    Add(ref checksum, runs);
                }
            }
            else
            {
                using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: Columns);
                while (replay.MoveNext())
                {
                    if (double.IsNaN(first))
                    {
                        first = Stopwatch.GetElapsedTime(start).TotalMilliseconds;
                    }

                    Add(ref checksum, replay);
                }
            }

            opened = catalog.TableCache.Opened;
        }

        double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        Check(way, checksum, expected);

        long allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        return new Replayed(first, seconds, memory.Peak, allocated, opened, (ProcessIo.ReadBytes() ?? 0) - readBefore);
    }

    /// <summary>
    /// W2's windows: <see cref="Windows"/> random 15-minute windows of every instrument and kind replayed on one open
    /// catalog (warm), then <see cref="ColdWindows"/> each on a new catalog with the folder's pages dropped.
    /// </summary>
    private static void WindowRounds(WorkloadMarket market, string folder, WorkloadMarket.ReplayOrder order, string form)
    {
        var random = new Random(15);
        (DateTime From, DateTime To) NextWindow()
        {
            long from = WorkloadMarket.SessionOpen(random.Next(market.Days)) + random.NextInt64(TimeSpan.FromHours(6.5).Ticks - Window.Ticks);
            return (new DateTime(from), new DateTime(from + Window.Ticks));
        }

        long Replay(TimeSeriesCatalog catalog, (DateTime From, DateTime To) window)
        {
            var checksum = new ReplayChecksum();
            using (CatalogReplay replay = catalog.Replay(window.From, window.To, columns: Columns))
            {
                while (replay.MoveNext())
                {
                    Add(ref checksum, replay);
                }
            }

            Check($"window {window.From:O}", checksum, order.Between(window.From.Ticks, window.To.Ticks));
            return checksum.Rows;
        }

        var warm = new List<double>();
        long rows = 0;
        using (var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read))
        {
            for (int w = 0; w < Windows; w++)
            {
                (DateTime From, DateTime To) window = NextWindow();
                long start = Stopwatch.GetTimestamp();
                rows += Replay(catalog, window);
                warm.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
            }
        }

        string line = string.Create(CultureInfo.InvariantCulture,
            $"{market.Name}, {form}: {Windows:N0} random 15-minute windows of every instrument and kind ({rows / Windows:N0} rows each), " +
                $"one open catalog: p50 {Medians.Of(warm):N2} ms, p99 {Percentile(warm, 0.99):N2} ms");
        if (PageCache.CanDrop)
        {
            var cold = new List<double>();
            for (int w = 0; w < ColdWindows; w++)
            {
                (DateTime From, DateTime To) window = NextWindow();
                PageCache.Drop(folder);
                long start = Stopwatch.GetTimestamp();
                using (var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read))
                {
                    Replay(catalog, window);
                }

                cold.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
            }

            line += string.Create(CultureInfo.InvariantCulture,
                $"; {ColdWindows} more, each on a new catalog with the pages dropped: p50 {Medians.Of(cold):N2} ms, " +
                    $"p99 {Percentile(cold, 0.99):N2} ms");
        }

        Console.WriteLine(line);
    }

    private static TimeSeriesCatalogSchema Schema(WorkloadMarket market)
    {
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day);
        foreach (string kind in market.Kinds)
        {
            schema.Add(kind, new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("price").Add<int>("size"));
        }

        return schema;
    }

    private static void Append(TimeSeriesTable table, WorkloadSeries series, int start, int length)
    {
        table.Column<double>("price").AddRange(series.Prices.AsSpan(start, length));
        table.Column<int>("size").AddRange(series.Sizes.AsSpan(start, length));
        table.AddRows(series.Times.AsSpan(start, length));
    }

    /// <summary>The rows of the replay's batch, into the checksum.</summary>
    internal static void Add(ref ReplayChecksum checksum, CatalogReplay replay)
    {
        ReadOnlySpan<DateTime> times = replay.Times;
        ReadOnlySpan<double> prices = replay.Values<double>(0);
        ReadOnlySpan<int> sizes = replay.Values<int>(1);
        int key = WorkloadMarket.KeyOf(replay.Partition.KindRank, replay.Partition.InstrumentOrdinal);
        for (int i = 0; i < times.Length; i++)
        {
            checksum.Add(times[i].Ticks, key, prices[i], sizes[i]);
        }
    }

    /// <summary>The rows of a run, into the checksum.</summary>
    private static void Add(ref ReplayChecksum checksum, CatalogRuns runs)
    {
        ReadOnlySpan<DateTime> times = runs.Times;
        ReadOnlySpan<CatalogPartition> partitions = runs.Partitions;
        ReadOnlySpan<double> prices = runs.Values<double>(0);
        ReadOnlySpan<int> sizes = runs.Values<int>(1);
        for (int i = 0; i < times.Length; i++)
        {
            checksum.Add(times[i].Ticks, WorkloadMarket.KeyOf(partitions[i].KindRank, partitions[i].InstrumentOrdinal), prices[i], sizes[i]);
        }
    }

    internal static void Check(string way, ReplayChecksum got, ReplayChecksum expected)
    {
        if (!got.Matches(expected))
        {
            throw new InvalidOperationException(
                $"{way} gave checksum {got} (turnover {got.Turnover}), not the sort's {expected} ({expected.Turnover})");
        }
    }

    private static long BytesOnDisk(string folder) =>
        Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories).Sum(path => new FileInfo(path).Length);

    private static double Percentile(List<double> values, double fraction)
    {
        double[] sorted = values.Order().ToArray();
        return sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(fraction * sorted.Length) - 1)];
    }

    /// <summary>
    /// One replay of every row: its time to the first row and in all, the memory it held, what it opened and read; of
    /// several, the medians of the times and of the bytes read, and the most of the rest.
    /// </summary>
    private readonly record struct Replayed(
        double FirstRowMilliseconds, double Seconds, long? MemoryBytes, long AllocatedBytes, long Partitions, long ReadBytes)
    {
        public static Replayed Median(List<Replayed> runs) => new(
            Medians.Of(runs.Select(run => run.FirstRowMilliseconds)),
            Medians.Of(runs.Select(run => run.Seconds)),
            runs.Max(run => run.MemoryBytes),
            runs.Max(run => run.AllocatedBytes),
            runs.Max(run => run.Partitions),
            (long)Medians.Of(runs.Select(run => (double)run.ReadBytes)));
    }
}
