using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;

namespace ListMmf.TestHost;

/// <summary>
/// A random market of trades and quotes over a few days, with many rows of one time across instruments and
/// kinds: what a catalog is given to hold, and the order a replay must give its rows in, worked out by a sort.
/// Any process builds the same world from the same seed.
/// <list type="bullet">
/// <item><c>catalog-write DIR SEED</c>: creates a catalog and writes the world, a flush with a watermark every 23 rows.</item>
/// <item><c>catalog-follow DIR SEED SECONDS</c>: waits for the catalog, follows it until every row came, and prints
/// <c>rows=N order=same</c> when they came in the order a sort gives (exit 1 when not).</item>
/// </list>
/// </summary>
public sealed class CatalogWorld
{
    public static readonly DateTime FirstDay = new(2024, 3, 4);

    public static readonly string[] Kinds = ["trades", "quotes"];

    private CatalogWorld(List<Row> rows) => Rows = rows;

    /// <summary>Every row, in the order the writer appends them: each series in time order, the series interleaved at random.</summary>
    public List<Row> Rows { get; }

    public static TimeSeriesCatalogSchema Schema(CatalogPeriod period = CatalogPeriod.Day) => new TimeSeriesCatalogSchema(period)
        .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("price").Add<long>("id"))
        .Add("quotes", new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("bid").Add<long>("id"));

    /// <summary>
    /// Rows of <paramref name="instruments"/> instruments over <paramref name="days"/> days: times on a grid of one
    /// second over a few minutes a day, so that about half the rows share their time with a row of another series.
    /// </summary>
    public static CatalogWorld Random(int seed, int instruments = 6, int days = 3, int rowsPerSeriesDay = 40)
    {
        var random = new Random(seed);
        string[] names = Enumerable.Range(0, instruments).Select(i => $"SYM{(char)('A' + random.Next(26))}{i}").ToArray();
        var series = new List<Queue<Row>>();
        long id = 0;
        foreach (string name in names)
        {
            foreach (string kind in Kinds)
            {
                var rows = new Queue<Row>();
                for (int day = 0; day < days; day++)
                {
                    if (random.Next(5) == 0)
                    {
                        continue; // a day without rows of this series
                    }

                    DateTime open = FirstDay.AddDays(day).AddHours(9.5);
                    int second = 0;
                    for (int i = 0; i < rowsPerSeriesDay; i++)
                    {
                        second += random.Next(3); // equal times within a series too
                        rows.Enqueue(new Row(kind, name, open.AddSeconds(second), ++id));
                    }
                }

                series.Add(rows);
            }
        }

        // Interleaved in time, as a live writer receives them, with each series' order kept.
        var appended = new List<Row>();
        while (series.Any(rows => rows.Count > 0))
        {
            Queue<Row>[] ready = series.Where(rows => rows.Count > 0).ToArray();
            DateTime earliest = ready.Min(rows => rows.Peek().Time);
            Queue<Row>[] due = ready.Where(rows => rows.Peek().Time == earliest).ToArray();
            appended.Add(due[random.Next(due.Length)].Dequeue());
        }

        return new CatalogWorld(appended);
    }

    /// <summary>Appends every row through the catalog's writer, flushing now and then.</summary>
    public void WriteTo(TimeSeriesCatalog catalog, int flushEvery = 97)
    {
        for (int start = 0; start < Rows.Count; start += flushEvery)
        {
            Write(catalog, start, Math.Min(start + flushEvery, Rows.Count));
            catalog.Flush();
        }
    }

    /// <summary>Appends the rows [<paramref name="start"/>, <paramref name="end"/>) through the catalog's writer.</summary>
    public void Write(TimeSeriesCatalog catalog, int start, int end)
    {
        for (int i = start; i < end; i++)
        {
            Row row = Rows[i];
            TimeSeriesTable table = catalog.Partition(row.Kind, row.Instrument, row.Time);
            table.Column<double>(row.Kind == "trades" ? "price" : "bid").Add(row.Id / 100.0);
            table.Column<long>("id").Add(row.Id);
            table.AddRow(row.Time);
        }
    }

    /// <summary>
    /// The ids of the rows in [<paramref name="from"/>, <paramref name="to"/>) in the documented replay order: time,
    /// kind rank, instrument ordinal (the order instruments first came to the catalog), then the series' own order.
    /// </summary>
    public long[] ReplayOrder(DateTime from, DateTime to)
    {
        var ordinals = new Dictionary<string, int>();
        foreach (Row row in Rows)
        {
            ordinals.TryAdd(row.Instrument, ordinals.Count);
        }

        return Rows.Select((row, appended) => (row, appended))
            .Where(entry => entry.row.Time >= from && entry.row.Time < to)
            .OrderBy(entry => entry.row.Time)
            .ThenBy(entry => Array.IndexOf(Kinds, entry.row.Kind))
            .ThenBy(entry => ordinals[entry.row.Instrument])
            .ThenBy(entry => entry.appended)
            .Select(entry => entry.row.Id)
            .ToArray();
    }

    /// <summary>The instruments in the order they first came to the catalog: their ordinals.</summary>
    public string[] Instruments() => Rows.Select(row => row.Instrument).Distinct().ToArray();

    /// <summary>
    /// The last row of <paramref name="instrument"/>'s <paramref name="kind"/> at or before <paramref name="time"/>,
    /// by a scan; null if none.
    /// </summary>
    public Row? LastAtOrBefore(string kind, string instrument, DateTime time) =>
        Rows.LastOrDefault(row => row.Kind == kind && row.Instrument == instrument && row.Time <= time);

    /// <summary>
    /// The ids a replay asked for the column "id" alone gives, checking each batch's times and values against its
    /// table's rows.
    /// </summary>
    public static long[] Replayed(CatalogReplay replay)
    {
        var ids = new List<long>();
        while (replay.MoveNext())
        {
            TableColumn<long> id = replay.Table.Column<long>("id");
            IndexRange rows = replay.Rows;
            ReadOnlySpan<DateTime> times = replay.Times;
            ReadOnlySpan<long> values = replay.Values<long>(0);
            if (times.Length != rows.Length || values.Length != rows.Length || rows.IsEmpty)
            {
                throw new InvalidOperationException($"a batch of {rows.Length} rows has {times.Length} times and {values.Length} values");
            }

            for (long row = rows.Start; row < rows.End; row++)
            {
                int at = (int)(row - rows.Start);
                if (replay.Table.TimeAt(row) != times[at] || id[row] != values[at])
                {
                    throw new InvalidOperationException($"row {row} of {replay.Table.Path}: the batch's time or value is not the table's");
                }

                ids.Add(values[at]);
            }
        }

        return ids.ToArray();
    }

    /// <summary>
    /// The ids runs asked for the column "id" alone give (until MoveNext returns false), checking each row's time and
    /// value against its partition's table, and that times never go back.
    /// </summary>
    public static long[] Ran(CatalogRuns runs, TimeSeriesCatalog catalog)
    {
        var ids = new List<long>();
        var tables = new Dictionary<string, TimeSeriesTable>();
        try
        {
            DateTime last = DateTime.MinValue;
            while (runs.MoveNext())
            {
                ReadOnlySpan<long> values = runs.Values<long>(0);
                if (runs.Count == 0 || runs.Times.Length != runs.Count || values.Length != runs.Count || runs.Rows.Length != runs.Count)
                {
                    throw new InvalidOperationException($"a run of {runs.Count} rows has {runs.Times.Length} times and {values.Length} values");
                }

                for (int i = 0; i < runs.Count; i++)
                {
                    CatalogPartition partition = runs.Partitions[i];
                    string key = $"{partition.Kind}/{partition.Instrument}/{partition.PeriodStart:O}";
                    if (!tables.TryGetValue(key, out TimeSeriesTable? table))
                    {
                        tables.Add(key, table = catalog.OpenPartition(partition));
                    }

                    long row = runs.Rows[i];
                    if (table.TimeAt(row) != runs.Times[i] || table.Column<long>("id")[row] != values[i] || runs.Times[i] < last)
                    {
                        throw new InvalidOperationException($"row {row} of {table.Path}: the run's time or value is not the table's, " +
                            "or its time is before the last");
                    }

                    last = runs.Times[i];
                    ids.Add(values[i]);
                }
            }
        }
        finally
        {
            foreach (TimeSeriesTable table in tables.Values)
            {
                table.Dispose();
            }
        }

        return ids.ToArray();
    }

    /// <summary>
    /// Writes the world into a new catalog, each flush recording as watermark the next row's time (rows come in time
    /// order, so every row before it is in).
    /// </summary>
    public static int WriteCatalog(string directory, int seed)
    {
        CatalogWorld world = Random(seed, instruments: 10, days: 4, rowsPerSeriesDay: 200);
        using var catalog = TimeSeriesCatalog.Create(directory, Schema());
        Console.WriteLine("created");
        for (int start = 0; start < world.Rows.Count; start += 23)
        {
            int end = Math.Min(start + 23, world.Rows.Count);
            world.Write(catalog, start, end);
            catalog.Flush(end < world.Rows.Count ? world.Rows[end].Time : world.Rows[^1].Time.AddTicks(1));
        }

        Console.WriteLine($"rows={world.Rows.Count}");
        return 0;
    }

    /// <summary>Follows the catalog the writer of <paramref name="seed"/> writes until every row came, checking their order.</summary>
    public static int FollowCatalog(string directory, int seed, TimeSpan deadline)
    {
        CatalogWorld world = Random(seed, instruments: 10, days: 4, rowsPerSeriesDay: 200);
        long[] expected = world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue);
        var clock = Stopwatch.StartNew();
        TimeSeriesCatalog? catalog = null;
        while (catalog is null)
        {
            try
            {
                catalog = TimeSeriesCatalog.Open(directory, FileAccess.Read);
            }
            catch (FileNotFoundException) when (clock.Elapsed < deadline)
            {
                Thread.Yield();
            }
        }

        using (catalog)
        {
            Console.WriteLine("open");
            using CatalogReplay follow = catalog.Follow(DateTime.MinValue, columns: ["id"], batchRows: 64);
            var followed = new List<long>();
            int polls = 0;
            while (followed.Count < expected.Length)
            {
                if (clock.Elapsed > deadline)
                {
                    Console.WriteLine($"timed out at rows={followed.Count}");
                    return 2;
                }

                int before = followed.Count;
                followed.AddRange(Replayed(follow));
                polls += followed.Count > before ? 1 : 0;
            }

            bool same = followed.SequenceEqual(expected);
            Console.WriteLine($"rows={followed.Count} order={(same ? "same" : "different")} polls={polls}");
            return same ? 0 : 1;
        }
    }

    public sealed record Row(string Kind, string Instrument, DateTime Time, long Id);
}
