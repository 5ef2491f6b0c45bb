using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using ListMmf.TestHost;
using ListMmf.Tests.Platform;
using Xunit;
using Form = ListMmf.Tests.Catalog.TimeSeriesCatalogTests.Form;

namespace ListMmf.Tests.Catalog;

public sealed class CatalogStateTests
{
    [Theory]
    [InlineData(21, Form.Appendable, 6)]
    [InlineData(22, Form.Sealed, 6)]
    [InlineData(23, Form.Mixed, 6)]
    [InlineData(24, Form.Mixed, 150)] // enough partitions to be searched on every core
    public void TheStateAtATimeIsEachInstrumentsLastRowAtOrBeforeItAsAScanFindsIt(int seed, Form form, int instrumentCount)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(seed, instruments: instrumentCount);
        TimeSeriesCatalogTests.Write(folder.Path, world, form);
        string[] instruments = world.Instruments();

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        foreach (DateTime time in Probes(world))
        {
            foreach (string kind in CatalogWorld.Kinds)
            {
                CatalogState state = catalog.StateAt(kind, time, columns: ["id"]);

                Assert.Equal(instruments, state.Instruments);
                long?[] expected = instruments.Select(instrument => world.LastAtOrBefore(kind, instrument, time)?.Id).ToArray();
                long?[] actual = Enumerable.Range(0, instruments.Length)
                    .Select(at => state.Rows[at] >= 0 ? state.Values<long>(0)[at] : (long?)null).ToArray();
                Assert.Equal(expected, actual);
            }
        }
    }

    [Fact]
    public void EachInstrumentsRowTimeAndPartitionAreThoseItsValuesWereReadFrom()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(24);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Mixed);
        DateTime time = CatalogWorld.FirstDay.AddDays(1).AddHours(9.5).AddSeconds(30);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogState state = catalog.StateAt("trades", time, columns: ["price", "id"]);

        Assert.Contains(state.Rows.ToArray(), row => row >= 0);
        for (int at = 0; at < state.Instruments.Count; at++)
        {
            if (state.Rows[at] < 0)
            {
                Assert.Null(state.Partitions[at]);
                continue;
            }

            using TimeSeriesTable table = catalog.OpenPartition(state.Partitions[at]!);
            long row = state.Rows[at];
            Assert.Equal(table.TimeAt(row), state.Times[at]);
            Assert.Equal(table.Column<double>("price")[row], state.Values<double>(0)[at]);
            Assert.Equal(table.Column<long>("id")[row], state.Values<long>(1)[at]);
            Assert.True(state.Times[at] <= time);
        }
    }

    [Fact]
    public void AStateOfTheInstrumentsGivenIsInTheOrderGiven()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(25);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Appendable);
        string[] asked = Enumerable.Reverse(world.Instruments()).Take(3).ToArray();
        DateTime time = CatalogWorld.FirstDay.AddDays(3);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogState state = catalog.StateAt("quotes", time, columns: ["id"], instruments: asked);

        Assert.Equal(asked, state.Instruments);
        Assert.Equal(asked.Select(instrument => world.LastAtOrBefore("quotes", instrument, time)?.Id ?? 0), state.Values<long>(0).ToArray());
    }

    [Fact]
    public void AnInstrumentWithNoRowAtOrBeforeTheTimeHasNoRowAndDefaultValues()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(26);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Appendable);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogState state = catalog.StateAt("trades", CatalogWorld.FirstDay, columns: ["price"]);

        Assert.All(state.Rows.ToArray(), row => Assert.Equal(-1, row));
        Assert.All(state.Times.ToArray(), time => Assert.Equal(DateTime.MinValue, time));
        Assert.All(state.Values<double>(0).ToArray(), price => Assert.Equal(0, price));
        Assert.All(state.Partitions, partition => Assert.Null(partition));
    }

    [Fact]
    public void AStateAfterEveryInstrumentsLastRowWithNoColumnsIsAnsweredByTheIndexAlone()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(27);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Appendable);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogState state = catalog.StateAt("trades", DateTime.MaxValue);

        Assert.Equal(0, catalog.TableCache.Opened);
        string[] instruments = world.Instruments();
        Assert.Equal(instruments.Select(instrument => world.LastAtOrBefore("trades", instrument, DateTime.MaxValue)?.Time ?? DateTime.MinValue),
            state.Times.ToArray());
    }

    [Fact]
    public void AStateEndsAtTheRowsTheIndexRecordsThoughTheWriterAddedMore()
    {
        using var folder = new TempDirectory();
        DateTime open = CatalogWorld.FirstDay.AddHours(9.5);
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", open, 1);
        writer.Flush();
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", open.AddSeconds(1), 2);
        writer.Partition("trades", "SPY", open).Flush();

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogState state = reader.StateAt("trades", open.AddMinutes(1), columns: ["id"]);

        Assert.Equal([1L], state.Values<long>(0).ToArray());
        Assert.Equal([0L], state.Rows.ToArray());
    }

    [Fact]
    public void AStateRefusesAColumnAskedForAsAnotherTypeNamingIt()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogTests.Write(folder.Path, CatalogWorld.Random(28), Form.Appendable);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogState state = catalog.StateAt("trades", DateTime.MaxValue, columns: ["id"]);

        ListMmfDataTypeException refused = Assert.Throws<ListMmfDataTypeException>(() => state.Values<double>(0));
        Assert.Contains("'id'", refused.Message, StringComparison.Ordinal);
        Assert.Throws<ListMmfDataTypeException>(() => state.Values<ulong>(0));
        Assert.Throws<ArgumentException>(() => catalog.StateAt("trades", DateTime.MaxValue, columns: ["bid"]));
        Assert.Throws<ArgumentException>(() => catalog.StateAt("trades", DateTime.MaxValue, instruments: ["NONE"]));
    }

    [Fact]
    public void ASecondReplayReadsThePartitionsTheCacheKeptAndOpensNone()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(29);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Mixed);
        long[] expected = world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal(expected, Replay(catalog));
        long opened = catalog.TableCache.Opened;

        Assert.Equal(expected, Replay(catalog));
        Assert.Equal(catalog.Partitions().Count, opened);
        Assert.Equal(opened, catalog.TableCache.Opened);
    }

    /// <summary>A time of the second day of <see cref="WriteManyInstruments"/>' catalogs.</summary>
    private static readonly DateTime SecondDayTime = CatalogWorld.FirstDay.AddDays(1).AddHours(9.5).AddSeconds(30);

    [Fact]
    public void AStateOnEveryCoreReadsThePartitionsTheCacheKeptAndOpensNone()
    {
        using var folder = new TempDirectory();
        WriteManyInstruments(folder.Path, seed: 25, Form.Mixed);
        DateTime time = SecondDayTime;
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogState first = catalog.StateAt("trades", time, columns: ["id"]);
        long opened = catalog.TableCache.Opened;
        int kept = catalog.TableCache.Count;

        CatalogState second = catalog.StateAt("trades", time, columns: ["id"]);

        Assert.True(kept >= 64, $"{kept} partitions searched, too few to be searched on every core");
        Assert.Equal(opened, catalog.TableCache.Opened);
        Assert.Equal(kept, catalog.TableCache.Count);
        Assert.Equal(first.Rows.ToArray(), second.Rows.ToArray());
        Assert.Equal(first.Values<long>(0).ToArray(), second.Values<long>(0).ToArray());
    }

    [Fact]
    public void AStateThatMeetsAShortPartitionGivesEveryOtherTableBackToTheCache()
    {
        using var folder = new TempDirectory();
        WriteManyInstruments(folder.Path, seed: 26, Form.Appendable);
        DateTime time = SecondDayTime;
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogState state = catalog.StateAt("trades", time, columns: ["id"]);
        int victim = Enumerable.Range(0, state.Instruments.Count).First(at => state.Partitions[at] is { RowCount: >= 2 });
        using (TimeSeriesTable table = TimeSeriesTable.Open(state.Partitions[victim]!.Path))
        {
            table.Truncate(1);
        }

        long opened = catalog.TableCache.Opened;
        var refused = Assert.Throws<ListMmfFormatException>(() => catalog.StateAt("trades", time, columns: ["id"]));
        string[] others = state.Instruments.Where((_, at) => at != victim).ToArray();
        catalog.StateAt("trades", time, columns: ["id"], instruments: others);

        Assert.Equal(state.Partitions[victim]!.Path, refused.FilePath);
        Assert.Equal(opened, catalog.TableCache.Opened);
        var again = Assert.Throws<ListMmfFormatException>(() => catalog.StateAt("trades", time, columns: ["id"]));
        Assert.Equal(refused.Message, again.Message);
    }

    [Fact]
    public void TheCacheKeepsNoMorePartitionsThanItsSizeAndClosesTheRestWhenLowered()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(30);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Appendable);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        catalog.PartitionCacheSize = 3;
        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), Replay(catalog));
        Assert.Equal(3, catalog.TableCache.Count);

        catalog.PartitionCacheSize = 1;
        Assert.Equal(1, catalog.TableCache.Count);
        Assert.Throws<ArgumentOutOfRangeException>(() => catalog.PartitionCacheSize = -1);
    }

    [LinuxFact]
    [SupportedOSPlatform("linux")]
    public void TheTablesTheCacheLetsGoOfAreClosedWhenItsSizeIsLowered()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogTests.Write(folder.Path, CatalogWorld.Random(31), Form.Appendable);
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Replay(catalog);
        Assert.NotEmpty(MappedFiles.InSubfoldersOf(folder.Path));

        catalog.PartitionCacheSize = 0;

        Assert.Empty(MappedFiles.InSubfoldersOf(folder.Path));
    }

    [LinuxFact]
    [SupportedOSPlatform("linux")]
    public void ACatalogsPartitionsAreClosedWhenItIsDisposed()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogTests.Write(folder.Path, CatalogWorld.Random(32), Form.Appendable);
        var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Replay(catalog);
        Assert.NotEmpty(MappedFiles.InSubfoldersOf(folder.Path));

        catalog.Dispose();

        Assert.Empty(MappedFiles.InSubfoldersOf(folder.Path));
    }

    [Fact]
    public void ACachedPartitionGivesTheRowsItsWriterRecordedSince()
    {
        using var folder = new TempDirectory();
        DateTime open = CatalogWorld.FirstDay.AddHours(9.5);
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", open, 1);
        writer.Flush();
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal([1L], Replay(reader));

        TimeSeriesCatalogTests.AddTrade(writer, "SPY", open.AddSeconds(1), 2);
        writer.Flush();

        Assert.Equal([1L, 2L], Replay(reader));
        Assert.Equal(1, reader.TableCache.Opened);
    }

    [Fact]
    public void ACachedPartitionReadsTheSameRowsAfterItsWriterSealedIt()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(31);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Appendable);
        long[] expected = world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue);
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal(expected, Replay(reader));

        using (var writer = TimeSeriesCatalog.Open(folder.Path))
        {
            writer.Seal(DateTime.MaxValue);
        }

        Assert.All(reader.Partitions(), partition => Assert.True(partition.IsSealed));
        Assert.Equal(expected, Replay(reader));
    }

    /// <summary>Times before every row, at rows' times, between days and after every row.</summary>
    private static IEnumerable<DateTime> Probes(CatalogWorld world)
    {
        yield return DateTime.MinValue;
        yield return CatalogWorld.FirstDay;
        foreach (CatalogWorld.Row row in world.Rows.Where((_, i) => i % 37 == 0))
        {
            yield return row.Time;
            yield return row.Time.AddTicks(-1);
        }

        yield return CatalogWorld.FirstDay.AddDays(1.2);
        yield return DateTime.MaxValue;
    }

    private static long[] Replay(TimeSeriesCatalog catalog)
    {
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);
        return CatalogWorld.Replayed(replay);
    }

    /// <summary>A catalog of 150 instruments over two days: enough partitions for a state to search them on every core.</summary>
    private static void WriteManyInstruments(string folder, int seed, Form form) =>
        TimeSeriesCatalogTests.Write(folder, CatalogWorld.Random(seed, instruments: 150, days: 2, rowsPerSeriesDay: 10), form);
}
