using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.TestHost;
using Xunit;
using Form = ListMmf.Tests.Catalog.TimeSeriesCatalogTests.Form;

namespace ListMmf.Tests.Catalog;

/// <summary>A catalog replayed in runs of many instruments' rows (<see cref="TimeSeriesCatalog.Runs"/>).</summary>
public sealed class CatalogRunsTests
{
    [Theory]
    [InlineData(41, 1, Form.Appendable)]
    [InlineData(42, 2, Form.Appendable)]
    [InlineData(43, 7, Form.Sealed)]
    [InlineData(44, 64, Form.Mixed)]
    [InlineData(45, CatalogRuns.DefaultRunRows, Form.Appendable)]
    [InlineData(46, CatalogRuns.DefaultRunRows, Form.Sealed)]
    [InlineData(47, 3, Form.Mixed)]
    public void RunsGiveEveryRowInTheOrderOfTimeKindInstrumentAndRow(int seed, int runRows, Form form)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(seed);
        TimeSeriesCatalogTests.Write(folder.Path, world, form);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns runs = catalog.Runs(DateTime.MinValue, DateTime.MaxValue, columns: ["id"], runRows: runRows);

        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), CatalogWorld.Ran(runs, catalog));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(CatalogRuns.DefaultRunRows)]
    public void RunsOfManyInstrumentsTiedOnEachSecondGiveTheReplaysOrder(int runRows)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(48, instruments: 150, days: 2, rowsPerSeriesDay: 60);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Appendable);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns runs = catalog.Runs(DateTime.MinValue, DateTime.MaxValue, columns: ["id"], runRows: runRows);

        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), CatalogWorld.Ran(runs, catalog));
    }

    [Fact]
    public void RunsOfManySeriesLongerThanABufferOpenedTogetherGiveTheReplaysOrder()
    {
        using var folder = new TempDirectory();
        // About a third of the 50 series start on the first second: opened on every core, each buffered in part.
        CatalogWorld world = CatalogWorld.Random(55, instruments: 25, days: 1, rowsPerSeriesDay: CatalogReplay.DefaultBatchRows + 500);
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            world.WriteTo(writer, flushEvery: 50_000);
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns runs = catalog.Runs(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);

        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), CatalogWorld.Ran(runs, catalog));
    }

    [Fact]
    public void RunsOfSeriesThatAllStartAtOneTimeAndOutgrowTheirBuffersGiveTheReplaysOrder()
    {
        using var folder = new TempDirectory();
        long[] expected = WriteTrades(folder.Path, Rows());

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns runs = catalog.Runs(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);

        Assert.Equal(expected, CatalogWorld.Ran(runs, catalog));

        static IEnumerable<(DateTime, int)> Rows()
        {
            DateTime open = CatalogWorld.FirstDay.AddHours(9.5);
            for (int row = 0; row < CatalogReplay.DefaultBatchRows + 700; row++)
            {
                // 20 series opened together, each a row every 1 to 3 seconds: their buffers end at different times.
                for (int instrument = 0; instrument < 20; instrument++)
                {
                    yield return (open.AddSeconds(row * (1 + (instrument % 3))), instrument);
                }
            }
        }
    }

    [Fact]
    public void RunsOfATimeRangeAndSomeInstrumentsGiveOnlyTheirRows()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(49);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Mixed);
        string[] instruments = world.Instruments().Skip(1).Take(3).ToArray();
        DateTime from = CatalogWorld.FirstDay.AddHours(9.5).AddSeconds(10);
        DateTime to = CatalogWorld.FirstDay.AddDays(1).AddHours(9.5).AddSeconds(30);
        Dictionary<long, CatalogWorld.Row> byId = world.Rows.ToDictionary(row => row.Id);
        long[] expected = world.ReplayOrder(from, to).Where(id => instruments.Contains(byId[id].Instrument)).ToArray();

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns runs = catalog.Runs(from, to, instruments, columns: ["id"], runRows: 5);

        Assert.InRange(expected.Length, 1, world.Rows.Count - 1);
        Assert.Equal(expected, CatalogWorld.Ran(runs, catalog));
    }

    [Fact]
    public void RunsOfOneBusyInstrumentAmongManyQuietOnesHoldAtLeastHalfTheRowsAskedFor()
    {
        using var folder = new TempDirectory();
        const int RunRows = 2_000;
        long[] expected = WriteTrades(folder.Path, Rows());

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns runs = catalog.Runs(DateTime.MinValue, DateTime.MaxValue, columns: ["id"], runRows: RunRows);
        var sizes = new List<int>();
        var ids = new List<long>();
        while (runs.MoveNext())
        {
            sizes.Add(runs.Count);
            ids.AddRange(runs.Values<long>(0).ToArray());
        }

        Assert.Equal(expected, ids);
        Assert.All(sizes.SkipLast(1), size => Assert.InRange(size, RunRows / 2, RunRows));

        static IEnumerable<(DateTime, int)> Rows()
        {
            DateTime open = CatalogWorld.FirstDay.AddHours(9.5);
            for (int tenth = 0; tenth < 30_000; tenth++)
            {
                // The busy one trades every tenth of a second, each of 200 quiet ones every 200 seconds, starting a
                // second after the one before.
                yield return (open.AddSeconds(tenth / 10.0), 0);
                for (int instrument = 1; instrument <= 200; instrument++)
                {
                    if (tenth % 2_000 == instrument * 10 % 2_000)
                    {
                        yield return (open.AddSeconds(tenth / 10.0), instrument);
                    }
                }
            }
        }
    }

    /// <summary>
    /// Writes a trade at each (time, instrument) in the order given, its id its place from 1, and flushes once;
    /// returns the ids in the order a replay gives them (time, then instrument: each instrument here comes first to
    /// the catalog before any of higher number with a row at the same time).
    /// </summary>
    private static long[] WriteTrades(string folder, IEnumerable<(DateTime Time, int Instrument)> rows)
    {
        var written = new List<(DateTime Time, int Instrument, long Id)>();
        using (var writer = TimeSeriesCatalog.Create(folder, CatalogWorld.Schema()))
        {
            foreach ((DateTime time, int instrument) in rows)
            {
                long id = written.Count + 1;
                TimeSeriesTable table = writer.Partition("trades", $"S{instrument:D3}", time);
                table.Column<double>("price").Add(1);
                table.Column<long>("id").Add(id);
                table.AddRow(time);
                written.Add((time, instrument, id));
            }

            writer.Flush();
        }

        return written.OrderBy(row => row.Time).ThenBy(row => row.Instrument).Select(row => row.Id).ToArray();
    }

    [Theory]
    [InlineData(1)]
    [InlineData(CatalogRuns.DefaultRunRows)]
    public void OneTimeWithMoreRowsThanARunOrABufferHoldsComesWholeInOneRun(int runRows)
    {
        using var folder = new TempDirectory();
        DateTime time = CatalogWorld.FirstDay.AddHours(10);
        int many = CatalogReplay.DefaultBatchRows + 900;
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            long id = 0;
            Append(writer, "A", time.AddSeconds(-1), ref id, 1);
            Append(writer, "B", time, ref id, 3);
            Append(writer, "A", time, ref id, many);
            Append(writer, "B", time.AddSeconds(1), ref id, 1);
            writer.Flush();
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns runs = catalog.Runs(DateTime.MinValue, DateTime.MaxValue, columns: ["id"], runRows: runRows);
        var tied = new List<long>();
        while (runs.MoveNext())
        {
            for (int i = 0; i < runs.Count; i++)
            {
                if (runs.Times[i] == time)
                {
                    tied.Add(runs.Values<long>(0)[i]);
                }
            }

            Assert.True(tied.Count is 0 || tied.Count == many + 3, $"a run ended inside the time's {many + 3} rows, after {tied.Count}");
        }

        // A came first to the catalog, so its rows of the time come before B's, though appended after them.
        long[] expected = [.. Enumerable.Range(5, many).Select(i => (long)i), 2, 3, 4];
        Assert.Equal(expected, tied);
    }

    private static void Append(TimeSeriesCatalog writer, string instrument, DateTime time, ref long id, int rows)
    {
        TimeSeriesTable table = writer.Partition("trades", instrument, time);
        for (int i = 0; i < rows; i++)
        {
            table.Column<double>("price").Add(1.5);
            table.Column<long>("id").Add(++id);
            table.AddRow(time);
        }
    }

    [Theory]
    [InlineData(51, 1, 6)]
    [InlineData(52, CatalogRuns.DefaultRunRows, 6)]
    [InlineData(54, CatalogRuns.DefaultRunRows, 60)] // each watermark's chains, starting at one time, opened on every core
    public void FollowingRunsGiveTheRowsBeforeEachWatermarkInTheOrderALaterReplayGives(int seed, int runRows, int instruments)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(seed, instruments, days: 2, rowsPerSeriesDay: 20);
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns follow = reader.FollowRuns(DateTime.MinValue, columns: ["id"], runRows: runRows);
        var followed = new List<long>();

        for (int start = 0; start < world.Rows.Count; start += 37)
        {
            int end = Math.Min(start + 37, world.Rows.Count);
            world.Write(writer, start, end);
            writer.Flush(end < world.Rows.Count ? world.Rows[end].Time : world.Rows[^1].Time.AddTicks(1));
            followed.AddRange(CatalogWorld.Ran(follow, reader));
        }

        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), followed);
    }

    [Theory]
    [InlineData(12, 10.5)] // the end before the start
    [InlineData(10.5, 10.5)]
    [InlineData(10, 10.5)] // partitions in the range, with no row in it
    public void RunsOfARangeWithoutRowsGiveNone(double fromHour, double toHour)
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            long id = 0;
            Append(writer, "A", CatalogWorld.FirstDay.AddHours(9), ref id, 2);
            Append(writer, "B", CatalogWorld.FirstDay.AddHours(9.5), ref id, 1);
            Append(writer, "A", CatalogWorld.FirstDay.AddHours(13), ref id, 2);
            Append(writer, "B", CatalogWorld.FirstDay.AddHours(13), ref id, 1);
            writer.Flush();
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns runs = catalog.Runs(CatalogWorld.FirstDay.AddHours(fromHour), CatalogWorld.FirstDay.AddHours(toHour), columns: ["id"]);

        Assert.False(runs.MoveNext());
        Assert.Equal(0, runs.Count);
        Assert.False(runs.MoveNext());
    }

    [Theory]
    [InlineData(2)]
    [InlineData(CatalogRuns.DefaultRunRows)]
    public void RunsCarryColumnsOfEveryWidthInTheRowsOrder(int runRows)
    {
        using var folder = new TempDirectory();
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("ticks", new TimeSeriesTableSchema("time", DataType.DateTime).Add<byte>("flag").Add<short>("venue").Add<float>("price"));
        var random = new Random(53);
        var expected = new List<(DateTime Time, int Instrument, byte Flag, short Venue, float Price)>();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, schema))
        {
            for (int instrument = 0; instrument < 5; instrument++)
            {
                DateTime time = CatalogWorld.FirstDay.AddHours(9.5);
                for (int row = 0; row < 300; row++)
                {
                    time = time.AddMilliseconds(random.Next(1, 2000)); // off any grid: every low bit of the times counts
                    (byte flag, short venue, float price) = ((byte)random.Next(256), (short)random.Next(-30000, 30000), random.NextSingle());
                    TimeSeriesTable table = writer.Partition("ticks", $"S{instrument}", time);
                    table.Column<byte>("flag").Add(flag);
                    table.Column<short>("venue").Add(venue);
                    table.Column<float>("price").Add(price);
                    table.AddRow(time);
                    expected.Add((time, instrument, flag, venue, price));
                }
            }

            writer.Flush();
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogRuns runs = catalog.Runs(DateTime.MinValue, DateTime.MaxValue, columns: ["flag", "venue", "price"], runRows: runRows);
        var ran = new List<(DateTime Time, int Instrument, byte Flag, short Venue, float Price)>();
        while (runs.MoveNext())
        {
            for (int i = 0; i < runs.Count; i++)
            {
                ran.Add((runs.Times[i], runs.Partitions[i].InstrumentOrdinal, runs.Values<byte>(0)[i], runs.Values<short>(1)[i],
                    runs.Values<float>(2)[i]));
            }
        }

        Assert.Equal(expected.OrderBy(row => row.Time).ThenBy(row => row.Instrument), ran);
    }

    [Fact]
    public void RunsAskedForNoRowsAreRefused()
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());

        Assert.Throws<ArgumentOutOfRangeException>(() => catalog.Runs(DateTime.MinValue, DateTime.MaxValue, runRows: 0));
    }
}
