using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;

namespace ListMmf.TestHost;

/// <summary>
/// The <c>catalog</c> workload: a catalog of a few instruments' trades over three days, appended a round at a time and
/// flushed with a watermark, each series rolling to its next day's partition inside a round, and the first day sealed
/// on the way, then a snapshot taken and the writer closed and opened again (its close leaves a checkpoint of the
/// index that readers of the later images start from, and its lines after it). Its marks promise, after each call that made something durable, every
/// instrument's rows recorded by then and the watermark, then, once the snapshot was taken, the rows each series has in
/// it: <c>catalog:WATERMARK:ROWS0:ROWS1:ROWS2:ROWS3[:SNAPSHOT]</c>.
/// </summary>
public static partial class PowerLoss
{
    private const string CatalogName = "market";

    private static readonly string[] CatalogInstruments = ["AAA", "BBB", "CCC", "DDD"];

    private static readonly DateTime CatalogDay = new(2024, 1, 2, 0, 0, 0, DateTimeKind.Utc);

    /// <summary>Rows a series gets a day: a round of <see cref="CatalogRound"/> rows ends inside a day as often as not.</summary>
    private const int CatalogRowsPerDay = 1_800;

    private const int CatalogRound = 700;

    private const string CatalogSnapshotName = "after-seal";

    private static TimeSeriesCatalogSchema CatalogSchema() => new TimeSeriesCatalogSchema(CatalogPeriod.Day)
        .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.AscendingOrEqual).Add<double>("price").Add<long>("id"));

    /// <summary>Row <paramref name="k"/> of instrument <paramref name="i"/>: its time, and values only that row has.</summary>
    private static (DateTime Time, double Price, long Id) CatalogRow(int i, long k) => (
        CatalogDay.AddTicks(((k * 86_400L / CatalogRowsPerDay) + i) * TimeSpan.TicksPerSecond),
        100 + i + (k * 0.25),
        (i * 1_000_000L) + k);

    private static void WriteCatalog(string directory, ListMmfFormatVersion format, Action<string> mark)
    {
        long[] rows = new long[CatalogInstruments.Length];
        long[] recorded = new long[CatalogInstruments.Length];
        long watermark = 0;
        long snapshotRows = -1;
        string Promise() => $"catalog:{watermark}:{string.Join(':', recorded)}" + (snapshotRows >= 0 ? $":{snapshotRows}" : "");
        string folder = Path.Combine(directory, CatalogName);
        var options = new ListMmfOptions { FormatVersion = format };
        TimeSeriesCatalog catalog = TimeSeriesCatalog.Create(folder, CatalogSchema(), options);
        mark(Promise());
        bool sealedFirstDay = false;
        while (rows[0] < 3 * CatalogRowsPerDay)
        {
            for (int n = 0; n < CatalogRound && rows[0] < 3 * CatalogRowsPerDay; n++)
            {
                for (int i = 0; i < CatalogInstruments.Length; i++)
                {
                    (DateTime time, double price, long id) = CatalogRow(i, rows[i]);
                    TimeSeriesTable partition = catalog.Partition("trades", CatalogInstruments[i], time);
                    if (rows[i] > 0 && rows[i] % CatalogRowsPerDay == 0 && recorded[i] < rows[i])
                    {
                        // The series moved to its next day: the day it left is recorded, and promised, now.
                        recorded[i] = rows[i];
                        mark(Promise());
                    }

                    partition.Column<double>("price").Add(price);
                    partition.Column<long>("id").Add(id);
                    partition.AddRow(time);
                    rows[i]++;
                }
            }

            // Every row before the next row of any series is in.
            watermark = Enumerable.Range(0, CatalogInstruments.Length).Min(i => CatalogRow(i, rows[i]).Time.Ticks);
            catalog.Flush(new DateTime(watermark, DateTimeKind.Utc));
            rows.CopyTo(recorded, 0);
            mark(Promise());
            if (!sealedFirstDay && rows.All(count => count > CatalogRowsPerDay))
            {
                catalog.Seal(CatalogDay.AddDays(1));
                sealedFirstDay = true;
                mark(Promise());

                // Every series has as many rows here: the snapshot holds them all, and must replay them exactly.
                catalog.CreateSnapshot(CatalogSnapshotName);
                snapshotRows = rows[0];
                mark(Promise());

                // A writer that restarts, as a day's writer does.
                catalog.Dispose();
                catalog = TimeSeriesCatalog.Open(folder, FileAccess.ReadWrite, options);
            }
        }

        catalog.Dispose();
    }

    /// <summary>
    /// A catalog image: before its create returned, refused or opened, never a crash. After it, a reader opens it and
    /// replays every instrument's promised rows (a prefix of its series: nothing lost, nothing out of order, no row
    /// of a partition missing before the next partition's), with the watermark promised at least, and the state at
    /// the end equal to each series' last row; then the next writer appends a row to every series on a later day and
    /// flushes, and a reader replays all of it.
    /// </summary>
    private static string CheckCatalog(string folder, string[] promise)
    {
        if (promise.Length == 0)
        {
            try
            {
                using var early = TimeSeriesCatalog.Open(folder, FileAccess.Read);
                return ReadCatalog(early, new long[CatalogInstruments.Length], extra: false).Problem ?? "ok";
            }
            catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException or ListMmfException)
            {
                return "ok";
            }
        }

        long watermark = long.Parse(promise[1], CultureInfo.InvariantCulture);
        long[] promised = promise.Skip(2).Take(CatalogInstruments.Length).Select(rows => long.Parse(rows, CultureInfo.InvariantCulture)).ToArray();
        if (promise.Length > 2 + CatalogInstruments.Length)
        {
            long snapshotRows = long.Parse(promise[^1], CultureInfo.InvariantCulture);
            using var snapshot = TimeSeriesCatalog.OpenSnapshot(folder, CatalogSnapshotName);
            (string? problem, long[] inSnapshot) = ReadCatalog(snapshot, promised.Select(_ => snapshotRows).ToArray(), extra: false);
            if (problem is not null || inSnapshot.Any(rows => rows != snapshotRows))
            {
                return problem is not null ? $"{problem} (snapshot '{CatalogSnapshotName}')"
                    : $"undetected: snapshot '{CatalogSnapshotName}' replays {string.Join(", ", inSnapshot)} rows of the series, not the " +
                        $"{snapshotRows:N0} each it took";
            }
        }
        long[] seen;
        using (var reader = TimeSeriesCatalog.Open(folder, FileAccess.Read))
        {
            if (reader.Watermark.Ticks < watermark)
            {
                return $"lost: the watermark {reader.Watermark:O} is before the one flushed, {new DateTime(watermark):O}";
            }

            (string? problem, seen) = ReadCatalog(reader, promised, extra: false);
            if (problem is not null)
            {
                return problem;
            }

            // Readers start from the index's checkpoint where it passes their checks: one that passes them must hold
            // what the index's lines hold.
            try
            {
                reader.VerifyIndex();
            }
            catch (ListMmfFormatException exception)
            {
                return $"undetected: readers start from a checkpoint that disagrees with the index: {exception.Message}";
            }
        }

        using (var writer = TimeSeriesCatalog.Open(folder))
        {
            for (int i = 0; i < CatalogInstruments.Length; i++)
            {
                (DateTime time, double price, long id) = NextWritersRow(i);
                TimeSeriesTable partition = writer.Partition("trades", CatalogInstruments[i], time);
                partition.Column<double>("price").Add(price);
                partition.Column<long>("id").Add(id);
                partition.AddRow(time);
            }

            writer.Flush();
        }

        using var after = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        return ReadCatalog(after, seen, extra: true).Problem ?? "ok";
    }

    /// <summary>The row the checker's next writer adds to series <paramref name="i"/>: a day after the workload's last.</summary>
    private static (DateTime Time, double Price, long Id) NextWritersRow(int i) => (CatalogDay.AddDays(4).AddSeconds(i), -1 - i, -1 - i);

    /// <summary>
    /// Replays the whole catalog: each series must be a prefix of its rows, at least <paramref name="atLeast"/> long,
    /// then (<paramref name="extra"/>) the next writer's row; the times in order across series; the state at the end
    /// each series' last row. Returns the problem, if any, and each series' rows before the next writer's.
    /// </summary>
    private static (string? Problem, long[] Rows) ReadCatalog(TimeSeriesCatalog catalog, long[] atLeast, bool extra)
    {
        long[] rows = new long[CatalogInstruments.Length];
        bool[] ended = new bool[CatalogInstruments.Length];
        var lastTimes = new DateTime?[CatalogInstruments.Length];
        long previous = long.MinValue;
        using (CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["price", "id"]))
        {
            while (replay.MoveNext())
            {
                int i = Array.IndexOf(CatalogInstruments, replay.Instrument);
                ReadOnlySpan<DateTime> times = replay.Times;
                ReadOnlySpan<double> prices = replay.Values<double>(0);
                ReadOnlySpan<long> ids = replay.Values<long>(1);
                for (int r = 0; r < times.Length; r++)
                {
                    if (times[r].Ticks < previous)
                    {
                        return ($"undetected: the replay gave {replay.Instrument}'s row at {times[r]:O} after a row at " +
                            $"{new DateTime(previous):O}", rows);
                    }

                    previous = times[r].Ticks;
                    (DateTime Time, double Price, long Id) expected = ended[i] ? (default, 0, 0) : CatalogRow(i, rows[i]);
                    if (!ended[i] && (times[r], prices[r], ids[r]) == expected)
                    {
                        rows[i]++;
                    }
                    else if (extra && !ended[i] && (times[r], prices[r], ids[r]) == NextWritersRow(i))
                    {
                        ended[i] = true;
                    }
                    else
                    {
                        string which = ended[i] ? "after the next writer's" : rows[i].ToString("N0", CultureInfo.InvariantCulture);
                        return ($"undetected: {replay.Instrument}'s replayed row {which} " +
                            $"is ({times[r]:O}, {prices[r]}, {ids[r]}), not ({expected.Time:O}, {expected.Price}, {expected.Id})", rows);
                    }

                    lastTimes[i] = times[r];
                }
            }
        }

        for (int i = 0; i < CatalogInstruments.Length; i++)
        {
            if (rows[i] < atLeast[i])
            {
                return ($"lost: the replay gave {rows[i]:N0} of {CatalogInstruments[i]}'s rows, but {atLeast[i]:N0} were recorded", rows);
            }

            if (extra && !ended[i])
            {
                return ($"lost: the next writer's row of {CatalogInstruments[i]} did not show", rows);
            }
        }

        if (lastTimes.All(time => time is null))
        {
            return (null, rows);
        }

        // The state at the end: each series' last row, found through the index as a backtest's question finds it.
        CatalogState state = catalog.StateAt("trades", DateTime.MaxValue, ["price"], CatalogInstruments.Where((_, i) => lastTimes[i] is not null));
        for (int s = 0; s < state.Instruments.Count; s++)
        {
            int i = Array.IndexOf(CatalogInstruments, state.Instruments[s]);
            double price = extra ? NextWritersRow(i).Price : CatalogRow(i, rows[i] - 1).Price;
            if (state.Times[s] != lastTimes[i] || state.Values<double>(0)[s] != price)
            {
                return ($"undetected: the state at the end of {state.Instruments[s]} is ({state.Times[s]:O}, {state.Values<double>(0)[s]}), " +
                    $"not its last replayed row ({lastTimes[i]:O}, {price})", rows);
            }
        }

        return (null, rows);
    }
}
