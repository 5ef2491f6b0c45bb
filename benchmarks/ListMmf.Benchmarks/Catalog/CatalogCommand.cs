using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using DuckDB.NET.Data;
using ListMmf.Benchmarks.Core;

namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// <c>catalog [--instruments N] [--days D] [--rows-per-day R] [--busy B] [--rounds K]</c>: a market of N instruments'
/// trades over D days (the first instrument B times as busy as the others) written to a <see cref="TimeSeriesCatalog"/>
/// in time order with a watermark each minute, then replayed in one time order, warm, beside the same merge over
/// arrays in memory and DuckDB's <c>ORDER BY</c> streamed through its reader; appendable, then sealed. Every way must
/// give the same order and turnover (a checksum). Also: flushing
/// many instruments' appends beside the same bytes in one table, a replay's time to its first row, and the state of
/// every instrument at T (<see cref="StateAtRounds"/>).
/// </summary>
internal static class CatalogCommand
{
    private const int FlushInstruments = 100;
    private const int FlushRowsEach = 1_000;

    public static int Run(int instruments, int days, int rowsPerDay, int busy, int rounds)
    {
        string first = busy > 1 ? $" ({busy:N0}x as many for the first)" : "";
        Console.WriteLine($"catalog: {instruments:N0} instruments x {days} days x {rowsPerDay:N0} trades a day{first}, {rounds} rounds, " +
            $"{Environment.ProcessorCount} cores, {System.Runtime.InteropServices.RuntimeInformation.OSDescription}, .NET {Environment.Version}");
        var market = new CatalogMarket(instruments, days, rowsPerDay, busy);
        string folder = BenchmarkFiles.FreshDirectory("catalog");
        string duckPath = BenchmarkFiles.Fresh("catalog-duckdb");
        try
        {
            (double seconds, List<double> flushes) = Write(market, folder);
            Console.WriteLine($"write: {market.Rows:N0} rows in {seconds:N2} s ({market.Rows / seconds / 1e6:N2} M rows/s), " +
                $"{flushes.Count:N0} flushes with a watermark, median {Medians.Of(flushes):N2} ms, max {flushes.Max():N2} ms");
            Flushes(folder + "-flush", Math.Min(FlushInstruments, instruments), rounds);

            ReplayChecksum expected = ArrayMerge.Replay(market);
            using var duck = LoadDuckDb(market, duckPath);
            var times = new Dictionary<string, List<double>>();
            using (var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read))
            {
                for (int round = 0; round < rounds; round++)
                {
                    ReplayChecksum.Timed(times, "replay, appendable", expected, () => Replay(catalog, out _));
                    ReplayChecksum.Timed(times, "runs (many instruments a call), appendable", expected, () => Runs(catalog));
                    ReplayChecksum.Timed(times, "slices (a time at a time), appendable", expected, () => Slices(catalog));
                    ReplayChecksum.Timed(times, "merge of arrays in memory", expected, () => ArrayMerge.Replay(market));
                    ReplayChecksum.Timed(times, "DuckDB ORDER BY, streamed", expected, () => DuckReplay(duck));
                }

                Replay(catalog, out long allocated);
                Console.WriteLine($"a replay allocated {allocated / 1024.0:N0} KiB on the managed heap; " +
                    $"it holds at most {market.Names.Length:N0} instruments x {CatalogReplay.DefaultBatchRows:N0} times " +
                        $"({market.Names.Length * CatalogReplay.DefaultBatchRows * 8 / 1048576.0:N1} MiB); opened {catalog.Partitions().Count:N0} partitions");
                FirstRows(catalog, rounds);
            }

            StateAtRounds.Run(market, folder, duck, duckPath, rounds);

            using (var writer = TimeSeriesCatalog.Open(folder))
            {
                Console.WriteLine($"sealed {writer.Seal(DateTime.MaxValue):N0} partitions");
            }

            using (var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read))
            {
                for (int round = 0; round < rounds; round++)
                {
                    ReplayChecksum.Timed(times, "replay, sealed", expected, () => Replay(catalog, out _));
                    ReplayChecksum.Timed(times, "runs (many instruments a call), sealed", expected, () => Runs(catalog));
                    ReplayChecksum.Timed(times, "merge of arrays in memory, beside sealed", expected, () => ArrayMerge.Replay(market));
                }
            }

            Console.WriteLine($"checksum of every replay: {expected}");
            Console.WriteLine("| replay of every row, warm | median s | M rows/s | vs merge of arrays |");
            Console.WriteLine("|---|---:|---:|---:|");
            foreach ((string name, List<double> timed) in times)
            {
                string baseline = name.EndsWith("sealed", StringComparison.Ordinal)
                    ? "merge of arrays in memory, beside sealed"
                    : "merge of arrays in memory";
                double median = Medians.Of(timed);
                Console.WriteLine($"| {name} | {median:N3} | {market.Rows / median / 1e6:N2} | {median / Medians.Of(times[baseline]):N2}x |");
            }

            return 0;
        }
        finally
        {
            BenchmarkFiles.DeleteDirectory(folder);
            BenchmarkFiles.DeleteDirectory(folder + "-flush");
            BenchmarkFiles.Delete(duckPath);
        }
    }

    /// <summary>The catalog of the benchmark's market: one kind, trades, a partition a day.</summary>
    internal static TimeSeriesCatalogSchema Schema() => new TimeSeriesCatalogSchema(CatalogPeriod.Day)
        .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("price").Add<int>("size"));

    /// <summary>Writes the market in time order, as a live writer receives it, a flush with a watermark at each new minute.</summary>
    private static (double Seconds, List<double> Flushes) Write(CatalogMarket market, string folder)
    {
        var clock = Stopwatch.StartNew();
        using var catalog = TimeSeriesCatalog.Create(folder, Schema());
        for (int i = 0; i < market.Names.Length; i++)
        {
            // Instrument i is ordinal i, as in the merge of arrays.
            catalog.Partition("trades", market.Names[i], new DateTime(market.Times[i][0]));
        }

        var writer = new Writer(market, catalog);
        ArrayMerge.Merge(market, ref writer);
        catalog.Flush(new DateTime(market.Times.Max(times => times[^1]) + 1));
        return (clock.Elapsed.TotalSeconds, writer.Flushes);
    }

    /// <summary>Flushing appends to many instruments' partitions beside the same rows appended to one table.</summary>
    private static void Flushes(string folder, int instruments, int rounds)
    {
        var many = new List<double>();
        var one = new List<double>();
        BenchmarkFiles.DeleteDirectory(folder);
        using var catalog = TimeSeriesCatalog.Create(Path.Combine(folder, "catalog"), Schema());
        using var table = TimeSeriesTable.Create(Path.Combine(folder, "table"), Schema().SchemaOf("trades"));
        long second = CatalogMarket.FirstDay.AddHours(10).Ticks;
        for (int round = 0; round < rounds; round++)
        {
            for (int row = 0; row < FlushRowsEach; row++, second += TimeSpan.TicksPerSecond)
            {
                for (int i = 0; i < instruments; i++)
                {
                    TimeSeriesTable partition = catalog.Partition("trades", $"S{i:D4}", new DateTime(second));
                    partition.Column<double>("price").Add(row);
                    partition.Column<int>("size").Add(i);
                    partition.AddRow(new DateTime(second));
                    table.Column<double>("price").Add(row);
                    table.Column<int>("size").Add(i);
                    table.AddRow(new DateTime(second));
                }
            }

            var clock = Stopwatch.StartNew();
            catalog.Flush();
            many.Add(clock.Elapsed.TotalMilliseconds);
            clock.Restart();
            table.Flush();
            one.Add(clock.Elapsed.TotalMilliseconds);
        }

        Console.WriteLine($"flush of {instruments} instruments x {FlushRowsEach:N0} rows: median {Medians.Of(many):N2} ms; the same rows in one table: " +
            $"median {Medians.Of(one):N2} ms; {Medians.Of(many) / Medians.Of(one):N1}x");
    }

    private static ReplayChecksum Replay(TimeSeriesCatalog catalog, out long allocated)
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        var checksum = new ReplayChecksum();
        using (CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["price", "size"]))
        {
            while (replay.MoveNext())
            {
                ReadOnlySpan<DateTime> times = replay.Times;
                ReadOnlySpan<double> price = replay.Values<double>(0);
                ReadOnlySpan<int> size = replay.Values<int>(1);
                int instrument = replay.Partition.InstrumentOrdinal;
                for (int i = 0; i < times.Length; i++)
                {
                    checksum.Add(times[i].Ticks, instrument, price[i], size[i]);
                }
            }
        }

        allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        return checksum;
    }

    /// <summary>The same rows in runs of many instruments' rows, values copied into the run.</summary>
    private static ReplayChecksum Runs(TimeSeriesCatalog catalog)
    {
        var checksum = new ReplayChecksum();
        using CatalogRuns runs = catalog.Runs(DateTime.MinValue, DateTime.MaxValue, columns: ["price", "size"]);
        while (runs.MoveNext())
        {
            ReadOnlySpan<DateTime> times = runs.Times;
            ReadOnlySpan<CatalogPartition> partitions = runs.Partitions;
            ReadOnlySpan<double> price = runs.Values<double>(0);
            ReadOnlySpan<int> size = runs.Values<int>(1);
            for (int i = 0; i < times.Length; i++)
            {
                checksum.Add(times[i].Ticks, partitions[i].InstrumentOrdinal, price[i], size[i]);
            }
        }

        return checksum;
    }

    /// <summary>The same rows a slice at a time: every row of one time, values copied into the slice.</summary>
    private static ReplayChecksum Slices(TimeSeriesCatalog catalog)
    {
        var checksum = new ReplayChecksum();
        using CatalogSlices slices = catalog.Slices(DateTime.MinValue, DateTime.MaxValue, columns: ["price", "size"]);
        while (slices.MoveNext())
        {
            long ticks = slices.Time.Ticks;
            ReadOnlySpan<CatalogPartition> partitions = slices.Partitions;
            ReadOnlySpan<double> price = slices.Values<double>(0);
            ReadOnlySpan<int> size = slices.Values<int>(1);
            for (int i = 0; i < slices.Count; i++)
            {
                checksum.Add(ticks, partitions[i].InstrumentOrdinal, price[i], size[i]);
            }
        }

        return checksum;
    }

    /// <summary>Open, replay and the first batch: what a backtest waits for before its first row.</summary>
    private static void FirstRows(TimeSeriesCatalog opened, int rounds)
    {
        var firsts = new List<double>();
        for (int round = 0; round < rounds; round++)
        {
            var clock = Stopwatch.StartNew();
            using var catalog = TimeSeriesCatalog.Open(opened.Path, FileAccess.Read);
            using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue);
            replay.MoveNext();
            firsts.Add(clock.Elapsed.TotalMilliseconds);
        }

        Console.WriteLine($"open, replay and first batch (every instrument's first partition opened): median {Medians.Of(firsts):N2} ms");
    }

    private static DuckDBConnection LoadDuckDb(CatalogMarket market, string path)
    {
        var connection = new DuckDBConnection($"DataSource={path}");
        connection.Open();
        using (DuckDBCommand create = connection.CreateCommand())
        {
            create.CommandText = "create table trades (instrument integer, seq integer, time bigint, price double, size integer)";
            create.ExecuteNonQuery();
        }

        using (DuckDBAppender append = connection.CreateAppender("trades"))
        {
            for (int i = 0; i < market.Names.Length; i++)
            {
                for (int row = 0; row < market.Times[i].Length; row++)
                {
                    append.CreateRow().AppendValue(i).AppendValue(row).AppendValue(market.Times[i][row])
                        .AppendValue(market.Prices[i][row]).AppendValue(market.Sizes[i][row]).EndRow();
                }
            }
        }

        return connection;
    }

    private static ReplayChecksum DuckReplay(DuckDBConnection connection)
    {
        var checksum = new ReplayChecksum();
        using DuckDBCommand command = connection.CreateCommand();
        command.CommandText = "select time, instrument, price, size from trades order by time, instrument, seq";
        using DuckDBDataReader reader = command.ExecuteReader();
        while (reader.Read())
        {
            checksum.Add(reader.GetInt64(0), reader.GetInt32(1), reader.GetDouble(2), reader.GetInt32(3));
        }

        return checksum;
    }

    /// <summary>Appends each row the merge gives, flushing with the row's time as watermark when a new minute starts.</summary>
    private struct Writer(CatalogMarket market, TimeSeriesCatalog catalog) : ArrayMerge.IRowVisitor
    {
        private long _minute;

        public List<double> Flushes { get; } = [];

        public void Visit(int instrument, int row)
        {
            long ticks = market.Times[instrument][row];
            long minute = ticks / TimeSpan.TicksPerMinute;
            if (minute != _minute && _minute != 0)
            {
                var clock = Stopwatch.StartNew();
                catalog.Flush(new DateTime(ticks));
                Flushes.Add(clock.Elapsed.TotalMilliseconds);
            }

            _minute = minute;
            TimeSeriesTable table = catalog.Partition("trades", market.Names[instrument], new DateTime(ticks));
            table.Column<double>("price").Add(market.Prices[instrument][row]);
            table.Column<int>("size").Add(market.Sizes[instrument][row]);
            table.AddRow(new DateTime(ticks));
        }
    }
}
