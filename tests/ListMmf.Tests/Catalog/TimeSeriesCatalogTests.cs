using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.Catalog;

public sealed class TimeSeriesCatalogTests
{
    public enum Form
    {
        Appendable,
        Sealed,
        Mixed,
    }

    [Theory]
    [InlineData(1, 1, Form.Appendable)]
    [InlineData(2, 3, Form.Appendable)]
    [InlineData(3, 4096, Form.Appendable)]
    [InlineData(4, 1, Form.Sealed)]
    [InlineData(5, 7, Form.Sealed)]
    [InlineData(6, 2, Form.Mixed)]
    [InlineData(7, 4096, Form.Mixed)]
    public void AReplayGivesEveryRowInTheOrderOfTimeKindInstrumentAndRow(int seed, int batchRows, Form form)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(seed);
        Write(folder.Path, world, form);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["id"], batchRows: batchRows);

        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), CatalogWorld.Replayed(replay));
    }

    [Theory]
    [InlineData(Form.Appendable)]
    [InlineData(Form.Mixed)]
    public void AReplayOfATimeRangeGivesTheRowsInItAndNoOthers(Form form)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(11);
        Write(folder.Path, world, form);
        DateTime from = CatalogWorld.FirstDay.AddHours(9.5).AddSeconds(30);
        DateTime to = CatalogWorld.FirstDay.AddDays(2).AddHours(9.5).AddSeconds(20);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay replay = catalog.Replay(from, to, columns: ["id"], batchRows: 5);

        long[] expected = world.ReplayOrder(from, to);
        Assert.InRange(expected.Length, 1, world.Rows.Count - 1);
        Assert.Equal(expected, CatalogWorld.Replayed(replay));
    }

    [Fact]
    public void AReplayOfSomeInstrumentsAndKindsGivesOnlyTheirRowsInTheSameOrder()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(12);
        Write(folder.Path, world, Form.Appendable);
        string[] instruments = world.Instruments().Take(3).ToArray();
        HashSet<long> chosen = world.Rows.Where(row => row.Kind == "quotes" && instruments.Contains(row.Instrument))
            .Select(row => row.Id).ToHashSet();

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, instruments, ["quotes"], columns: ["id"], batchRows: 3);

        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue).Where(chosen.Contains), CatalogWorld.Replayed(replay));
    }

    [Theory]
    [InlineData(Form.Appendable)]
    [InlineData(Form.Sealed)]
    [InlineData(Form.Mixed)]
    public void AReplayOfKindsWithoutColumnsInCommonReadsEachBatchsColumnsByName(Form form)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(13);
        Write(folder.Path, world, form);
        var priced = new List<long>();

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, batchRows: 5);
        while (replay.MoveNext())
        {
            // The world writes each row's id / 100 as its trade's price or its quote's bid.
            ReadOnlySpan<double> prices = replay.Values<double>(replay.Kind == "trades" ? "price" : "bid");
            ReadOnlySpan<long> ids = replay.Values<long>("id");
            for (int i = 0; i < prices.Length; i++)
            {
                priced.Add(prices[i] == ids[i] / 100.0 ? ids[i] : -ids[i]);
            }
        }

        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), priced);
    }

    [Fact]
    public void AReplayRefusesAColumnThatAReplayedKindDoesNotHave()
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());

        var refused = Assert.Throws<ArgumentException>(() => catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["price"]));

        Assert.Contains("The kind 'quotes' has no number column 'price'", refused.Message);
        catalog.Replay(DateTime.MinValue, DateTime.MaxValue, kinds: ["trades"], columns: ["price"]).Dispose();
    }

    [Fact]
    public void AReplayOfNoKindRefusesAColumnNoKindHas()
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());

        var refused = Assert.Throws<ArgumentException>(() => catalog.Replay(DateTime.MinValue, DateTime.MaxValue, kinds: [], columns: ["volume"]));

        Assert.Contains("has a number column 'volume'", refused.Message);
        catalog.Replay(DateTime.MinValue, DateTime.MaxValue, kinds: [], columns: ["price"]).Dispose();
    }

    [Fact]
    public void AFollowOfNoKindRefusesAColumnNoKindHas()
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());

        var refused = Assert.Throws<ArgumentException>(() => catalog.Follow(DateTime.MinValue, kinds: [], columns: ["volume"]));

        Assert.Contains("has a number column 'volume'", refused.Message);
    }

    [Fact]
    public void AColumnsValuesAskedForAsAnotherTypeAreRefused()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);
        Assert.True(replay.MoveNext());

        Assert.Throws<ListMmfDataTypeException>(() => replay.Values<int>(0).Length);
        Assert.Throws<ArgumentOutOfRangeException>(() => replay.Values<long>(1).Length);
        Assert.Equal([1L], replay.Values<long>(0).ToArray());
    }

    [Fact]
    public void AReaderSeesAnInstrumentsRowsOnlyOnceTheWriterFlushedThem()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);

        CatalogPartition before = Assert.Single(reader.Partitions("trades", "SPY"));
        Assert.Equal(0, before.RowCount);
        Assert.Empty(Ids(reader));

        writer.Flush();

        CatalogPartition after = Assert.Single(reader.Partitions("trades", "SPY"));
        Assert.Equal(1, after.RowCount);
        Assert.Equal([1L], Ids(reader));
    }

    [Fact]
    public void AReplayGivesTheRowsRecordedWhenItStartedWhileTheWriterGoesOn()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        DateTime time = CatalogWorld.FirstDay.AddHours(10);
        AddTrade(writer, "SPY", time, 1);
        AddTrade(writer, "QQQ", time, 2);
        writer.Flush();
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay replay = reader.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["id"], batchRows: 1);
        Assert.True(replay.MoveNext());

        AddTrade(writer, "SPY", time.AddSeconds(1), 3);
        AddTrade(writer, "QQQ", time.AddSeconds(1), 4);
        writer.Flush();

        var ids = new List<long> { replay.Table.Column<long>("id")[replay.Rows.Start] };
        ids.AddRange(CatalogWorld.Replayed(replay));
        Assert.Equal([1L, 2L], ids);
    }

    [Fact]
    public void ARowOfAPeriodBeforeTheInstrumentsLatestPartitionIsRefused()
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        AddTrade(catalog, "SPY", CatalogWorld.FirstDay.AddDays(1), 1);

        var refused = Assert.Throws<ListMmfOrderException>(() => catalog.Partition("trades", "SPY", CatalogWorld.FirstDay));

        Assert.Contains("2024-03-04 comes before its partition of 2024-03-05", refused.Message);
    }

    [Fact]
    public void ARowOfAPeriodBeforeARecordedPartitionIsRefusedByTheNextWriter()
    {
        using var folder = new TempDirectory();
        using (var first = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            AddTrade(first, "SPY", CatalogWorld.FirstDay.AddDays(1), 1);
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path);

        Assert.Throws<ListMmfOrderException>(() => catalog.Partition("trades", "SPY", CatalogWorld.FirstDay));
    }

    [Fact]
    public void AFlushRefusesARowOutsideItsPartitionsPeriodAndRecordsNothing()
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        AddTrade(catalog, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        AddTrade(catalog, "QQQ", CatalogWorld.FirstDay.AddHours(10), 2);
        TimeSeriesTable day = catalog.Partition("trades", "SPY", CatalogWorld.FirstDay);
        day.Column<double>("price").Add(1);
        day.Column<long>("id").Add(3);
        day.AddRow(CatalogWorld.FirstDay.AddDays(1));

        var refused = Assert.Throws<ListMmfOrderException>(catalog.Flush);

        Assert.Contains("lies outside the partition's period 2024-03-04", refused.Message);
        Assert.All(catalog.Partitions(), partition => Assert.Equal(0, partition.RowCount));
        day.Truncate(1);
        catalog.Flush();
        Assert.All(catalog.Partitions(), partition => Assert.Equal(1, partition.RowCount));
    }

    [Fact]
    public void APartitionFolderTheIndexDoesNotRecordIsAdoptedWithItsRows()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogSchema schema = CatalogWorld.Schema();
        using (TimeSeriesCatalog.Create(folder.Path, schema))
        {
        }

        // What a writer killed between the table's create and its index line would leave.
        using (var orphan = TimeSeriesTable.Create(Path.Combine(folder.Path, "trades", "SPY", "2024-03-04"), schema.SchemaOf("trades")))
        {
            orphan.Column<double>("price").Add(1);
            orphan.Column<long>("id").Add(7);
            orphan.AddRow(CatalogWorld.FirstDay.AddHours(10));
        }

        using (var catalog = TimeSeriesCatalog.Open(folder.Path))
        {
            AddTrade(catalog, "SPY", CatalogWorld.FirstDay.AddHours(11), 8);
        }

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal([7L, 8L], Ids(reader));
    }

    [Fact]
    public void ListingAndFindingPartitionsReadTheIndexAndOpenNoColumnFile()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(11), 2);
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddDays(2).AddHours(10), 3);
        }

        foreach (string column in Directory.EnumerateFiles(folder.Path, "price.mmf", SearchOption.AllDirectories))
        {
            File.Delete(column);
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        IReadOnlyList<CatalogPartition> all = catalog.Partitions();
        IReadOnlyList<CatalogPartition> found = catalog.Find("trades", "SPY", CatalogWorld.FirstDay.AddDays(1), DateTime.MaxValue);

        Assert.Equal([2L, 1L], all.Select(partition => partition.RowCount));
        Assert.Equal(CatalogWorld.FirstDay.AddHours(11), all[0].LastTime);
        Assert.Equal(CatalogWorld.FirstDay.AddDays(1), all[0].PeriodEnd);
        CatalogPartition last = Assert.Single(found);
        Assert.Equal(CatalogWorld.FirstDay.AddDays(2), last.PeriodStart);
        using TimeSeriesTable partition = catalog.OpenPartition(last);
        Assert.Throws<ListMmfFormatException>(() => partition.Column<double>("price")[0]);
    }

    [Fact]
    public void AReopenedCatalogKeepsItsInstrumentsInTheOrderTheyCame()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema(CatalogPeriod.Month)))
        {
            AddTrade(writer, "ZZ", CatalogWorld.FirstDay, 1);
            AddTrade(writer, "AA", CatalogWorld.FirstDay, 2);
            AddTrade(writer, "MM", CatalogWorld.FirstDay.AddMonths(1), 3);
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);

        Assert.Equal(CatalogPeriod.Month, catalog.Schema.Period);
        Assert.Equal(["trades", "quotes"], catalog.Schema.Kinds);
        Assert.Equal(["ZZ", "AA", "MM"], catalog.Instruments);
        Assert.Equal([1L, 2L, 3L], Ids(catalog));
        Assert.True(Directory.Exists(Path.Combine(folder.Path, "trades", "MM", "2024-04")));
    }

    [Theory]
    [InlineData("A/B")]
    [InlineData("..")]
    [InlineData("")]
    [InlineData("SPY.")]
    [InlineData("CON")]
    [InlineData("lpt1.x")]
    public void AnInstrumentThatIsNoPortableFolderNameIsRefused(string instrument)
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());

        var refused = Assert.Throws<ArgumentException>(() => catalog.Partition("trades", instrument, CatalogWorld.FirstDay));

        Assert.Contains($"'{instrument}'", refused.Message);
        Assert.Empty(catalog.Instruments);
    }

    [Fact]
    public void AKindKeepingItsTimesInNoOrderIsRefused()
    {
        var refused = Assert.Throws<ArgumentException>(() => new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.None)));

        Assert.Contains("The kind 'trades' keeps its times in no order", refused.Message);
    }

    [Fact]
    public void ASeriesMovingToItsNextPeriodRecordsThePartitionItLeavesAtOnce()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(11), 2);

        writer.Partition("trades", "SPY", CatalogWorld.FirstDay.AddDays(1));

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal([2L, 0L], reader.Partitions().Select(partition => partition.RowCount));
    }

    [Fact]
    public void ASeriesCannotMoveOnFromAPartitionHoldingARowOutsideItsPeriodUntilItIsTruncated()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        TimeSeriesTable day = writer.Partition("trades", "SPY", CatalogWorld.FirstDay);
        day.Column<double>("price").Add(2);
        day.Column<long>("id").Add(2);
        day.AddRow(CatalogWorld.FirstDay.AddDays(1).AddHours(10));

        Assert.Throws<ListMmfOrderException>(() => writer.Partition("trades", "SPY", CatalogWorld.FirstDay.AddDays(1)));

        day.Truncate(1);
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddDays(1).AddHours(10), 2);
        writer.Flush();
        Assert.Equal([1L, 2L], Ids(writer));
    }

    [Fact]
    public void RowsAKilledWriterLeftUnrecordedAreRecordedWhenTheSeriesMovesOn()
    {
        using var folder = new TempDirectory();
        using (var first = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            AddTrade(first, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        }

        // What a writer killed after appending, before its flush, leaves: rows in the table the index does not record.
        using (var table = TimeSeriesTable.Open(Path.Combine(folder.Path, "trades", "SPY", "2024-03-04")))
        {
            table.Column<double>("price").Add(2);
            table.Column<long>("id").Add(2);
            table.AddRow(CatalogWorld.FirstDay.AddHours(11));
        }

        using (var next = TimeSeriesCatalog.Open(folder.Path))
        {
            AddTrade(next, "SPY", CatalogWorld.FirstDay.AddDays(1).AddHours(10), 3);
        }

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal([1L, 2L, 3L], Ids(reader));
    }

    [Fact]
    public void AFlushRefusesAPartitionWhoseRecordedRowsWereTruncated()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(11), 2);
        writer.Flush();
        TimeSeriesTable day = writer.Partition("trades", "SPY", CatalogWorld.FirstDay);
        day.Truncate(1);
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(12), 3);

        var refused = Assert.Throws<ListMmfOrderException>(writer.Flush);

        Assert.Contains("the 2 the catalog recorded are no longer all there", refused.Message);
        day.Truncate(1);
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(11), 2); // the rows put back as recorded
    }

    [Fact]
    public void SealingSealsAnEndedPeriodOfASeriesWhoseNextPeriodTheWriterHoldsOpen()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddDays(1).AddHours(10), 2);

        Assert.Equal(1, writer.Seal(CatalogWorld.FirstDay.AddDays(1)));

        Assert.Equal([true, false], writer.Partitions().Select(partition => partition.IsSealed));
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddDays(1).AddHours(11), 3);
        writer.Flush();
        Assert.Equal([1L, 2L, 3L], Ids(writer));
    }

    [Fact]
    public void APartitionUnsealedSinceItWasSealedTakesAppendsAgain()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        }

        using (var writer = TimeSeriesCatalog.Open(folder.Path))
        {
            writer.Seal(DateTime.MaxValue);
            var refused = Assert.Throws<ListMmfException>(() => writer.Partition("trades", "SPY", CatalogWorld.FirstDay.AddHours(11)));
            Assert.Contains("the partition is sealed; unseal it", refused.Message);
        }

        TimeSeriesTable.Unseal(Path.Combine(folder.Path, "trades", "SPY", "2024-03-04"));
        using (var writer = TimeSeriesCatalog.Open(folder.Path))
        {
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(11), 2);
        }

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.False(Assert.Single(reader.Partitions()).IsSealed);
        Assert.Equal([1L, 2L], Ids(reader));
    }

    [Fact]
    public void AReplayThatThrewRefusesToGoOnRatherThanSkipRows()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddDays(1).AddHours(10), 2);
        }

        File.Delete(Path.Combine(folder.Path, "trades", "SPY", "2024-03-04", "id.mmf"));
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);

        Assert.ThrowsAny<ListMmfException>(() => replay.MoveNext());
        var refused = Assert.Throws<InvalidOperationException>(() => replay.MoveNext());
        Assert.Contains("An earlier MoveNext of this replay threw", refused.Message);
    }

    [Fact]
    public void AnInstrumentDifferingOnlyInCaseFromAnotherIsRefused()
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        catalog.Partition("trades", "Spy", CatalogWorld.FirstDay);

        var refused = Assert.Throws<ArgumentException>(() => catalog.Partition("trades", "SPY", CatalogWorld.FirstDay));

        Assert.Contains("differs only in case from 'Spy'", refused.Message);
    }

    [Fact]
    public void AKindTheCatalogDoesNotHaveIsRefusedNamingItsKinds()
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());

        var refused = Assert.Throws<ArgumentException>(() => catalog.Partition("bars", "SPY", CatalogWorld.FirstDay));

        Assert.Contains("has no kind 'bars'; its kinds are trades, quotes", refused.Message);
    }

    [Fact]
    public void ASecondWriterIsRefusedWhileTheFirstHasTheCatalog()
    {
        using var folder = new TempDirectory();
        using var catalog = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());

        Assert.Throws<ListMmfLockedException>(() => TimeSeriesCatalog.Open(folder.Path).Dispose());
    }

    [Fact]
    public void AWriterAskingForVersion1FilesIsRefusedAndCreatesNothing()
    {
        using var folder = new TempDirectory();
        string path = Path.Combine(folder.Path, "market");
        var version1 = new ListMmfOptions { FormatVersion = ListMmfFormatVersion.Version1 };

        var refused = Assert.Throws<ArgumentException>(() => TimeSeriesCatalog.Create(path, CatalogWorld.Schema(), version1).Dispose());

        Assert.Contains("format version 2", refused.Message);
        Assert.False(Directory.Exists(path));
    }

    [Fact]
    public void AnExistingCatalogsWriterAskingForVersion1FilesIsRefusedAndItsReadersAreNot()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()).Dispose();
        var version1 = new ListMmfOptions { FormatVersion = ListMmfFormatVersion.Version1 };

        Assert.Throws<ArgumentException>(() => TimeSeriesCatalog.Open(folder.Path, FileAccess.ReadWrite, version1).Dispose());
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read, version1);
        Assert.Empty(reader.Instruments);
    }

    [Fact]
    public void CreatingACatalogWhereOneIsIsRefused()
    {
        using var folder = new TempDirectory();
        using (TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
        }

        var refused = Assert.Throws<ListMmfException>(() => TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()).Dispose());

        Assert.Contains("already holds a catalog", refused.Message);
    }

    [Fact]
    public void AFolderWithNoCatalogIsRefusedAsNoCatalog()
    {
        using var folder = new TempDirectory();

        var refused = Assert.Throws<FileNotFoundException>(() => TimeSeriesCatalog.Open(folder.Path, FileAccess.Read).Dispose());

        Assert.Contains("is not a catalog", refused.Message);
        Assert.Empty(Directory.EnumerateFileSystemEntries(folder.Path));
    }

    [Fact]
    public void ADamagedIndexLineIsRefusedNamingTheIndexAndTheLine()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        }

        string index = Path.Combine(folder.Path, "partitions.mmf");
        using (var lines = new ListMmf<PartitionRecord>(index))
        {
            lines.Add(new PartitionRecord { Kind = 5, PeriodStart = CatalogWorld.FirstDay.Ticks });
        }

        var refused = Assert.Throws<ListMmfFormatException>(() => TimeSeriesCatalog.Open(folder.Path, FileAccess.Read).Dispose());

        Assert.Equal(index, refused.FilePath);
        Assert.Contains("line 2 of the catalog's index is damaged: kind 5 is not one of the catalog's 2", refused.Message);
    }

    [Fact]
    public void AnIndexLineOfAnInstrumentTheCatalogDoesNotHoldIsRefused()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
            AddTrade(writer, "QQQ", CatalogWorld.FirstDay.AddHours(10), 2);
        }

        string index = Path.Combine(folder.Path, "partitions.mmf");
        using (var lines = new ListMmf<PartitionRecord>(index))
        {
            lines.Add(new PartitionRecord { Instrument = 2, PeriodStart = CatalogWorld.FirstDay.Ticks });
        }

        var refused = Assert.Throws<ListMmfFormatException>(() => TimeSeriesCatalog.Open(folder.Path, FileAccess.Read).Dispose());

        Assert.Contains("line 4 of the catalog's index is damaged: instrument 2 is not one of the catalog's", refused.Message);
    }

    [Fact]
    public void AnIndexLineWhoseDayDoesNotStartAtMidnightIsRefused()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        }

        long offMidnight = CatalogWorld.FirstDay.AddHours(1).Ticks;
        using (var lines = new ListMmf<PartitionRecord>(Path.Combine(folder.Path, "partitions.mmf")))
        {
            lines.Add(new PartitionRecord { PeriodStart = offMidnight });
        }

        var refused = Assert.Throws<ListMmfFormatException>(() => TimeSeriesCatalog.Open(folder.Path, FileAccess.Read).Dispose());

        Assert.Contains($"line 2 of the catalog's index is damaged: {offMidnight} ticks starts no Day", refused.Message);
    }

    [Fact]
    public void SealingACatalogSealsThePartitionsOfEndedPeriodsAndKeepsTheirRows()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(21);
        Write(folder.Path, world, Form.Appendable);
        int sealedCount;
        using (var writer = TimeSeriesCatalog.Open(folder.Path))
        {
            sealedCount = writer.Seal(CatalogWorld.FirstDay.AddDays(1));
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        IReadOnlyList<CatalogPartition> partitions = catalog.Partitions();
        Assert.Equal(partitions.Count(partition => partition.PeriodEnd <= CatalogWorld.FirstDay.AddDays(1)), sealedCount);
        Assert.All(partitions, partition => Assert.Equal(partition.PeriodEnd <= CatalogWorld.FirstDay.AddDays(1), partition.IsSealed));
        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), Ids(catalog));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void APartitionWhoseFilesAreNotInTheFormTheIndexRecordsIsReadInTheFormTheyAre(bool recordedSealed)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(41);
        Write(folder.Path, world, recordedSealed ? Form.Sealed : Form.Appendable);
        using (var listing = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read))
        {
            foreach (CatalogPartition partition in listing.Partitions())
            {
                Assert.Equal(recordedSealed, partition.IsSealed);
                Assert.True(recordedSealed ? TimeSeriesTable.Unseal(partition.Path) > 0 : TimeSeriesTable.Seal(partition.Path) > 0);
            }
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), Ids(catalog));
        CatalogPartition first = catalog.Partitions()[0];
        Assert.Equal(recordedSealed, first.IsSealed);
        TimeSeriesTable table = catalog.RentTable(first);
        Assert.Equal(!recordedSealed, table.Column<long>("id").IsSealed);
        catalog.ReturnTable(first, table);
    }

    [Fact]
    public void AReplayThatMetADamagedBlockLeavesTheNextReplayMeetingItToo()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(61, instruments: 1, days: 1, rowsPerSeriesDay: 3000);
        Write(folder.Path, world, Form.Sealed);
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogPartition partition = Assert.Single(catalog.Partitions("trades"));
        Sealed.SealedDamageTests.FlipByteInFirstBlock(Path.Combine(partition.Path, "time.mmf"));

        for (int attempt = 0; attempt < 2; attempt++)
        {
            using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, kinds: ["trades"]);
            ListMmfFormatException damaged = Assert.Throws<ListMmfFormatException>(() => replay.MoveNext());
            Assert.Contains("checksum", damaged.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void APartitionTruncatedBehindTheCatalogsBackIsRefusedNamingItRatherThanReadShort()
    {
        using var folder = new TempDirectory();
        WriteTwoTrades(folder.Path);
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogPartition partition = Assert.Single(catalog.Partitions("trades"));
        using (TimeSeriesTable table = TimeSeriesTable.Open(partition.Path))
        {
            table.Truncate(1);
        }

        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, kinds: ["trades"]);
        var refused = Assert.Throws<ListMmfFormatException>(() => replay.MoveNext());
        Assert.Equal(partition.Path, refused.FilePath);
        Assert.Contains("records 2 rows of this partition, but its table holds 1", refused.Message, StringComparison.Ordinal);
        Assert.Throws<ListMmfFormatException>(() => catalog.StateAt("trades", DateTime.MaxValue, ["price"]));
        Assert.Throws<ListMmfFormatException>(() => catalog.OpenPartition(partition));
    }

    [Fact]
    public void APartitionOpensNoValueColumnItsReadsDoNotAskFor()
    {
        using var folder = new TempDirectory();
        WriteTwoTrades(folder.Path);
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogPartition partition = Assert.Single(catalog.Partitions("trades"));
        File.Delete(Path.Combine(partition.Path, "id.mmf"));

        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, kinds: ["trades"], columns: ["price"]);
        var prices = new List<double>();
        while (replay.MoveNext())
        {
            prices.AddRange(replay.Values<double>("price").ToArray());
        }

        Assert.Equal([1.0, 2.0], prices);
    }

    [Fact]
    public void AColumnAPartitionOpensAtItsFirstReadIsRefusedNamingItWhenItHoldsFewerValuesThanTheRows()
    {
        using var folder = new TempDirectory();
        WriteTwoTrades(folder.Path);
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogPartition partition = Assert.Single(catalog.Partitions("trades"));
        string price = Path.Combine(partition.Path, "price.mmf");
        using (var column = new ListMmf<double>(price, FileAccess.ReadWrite))
        {
            column.Truncate(1);
        }

        using TimeSeriesTable table = catalog.OpenPartition(partition);
        var refused = Assert.Throws<ListMmfFormatException>(() => table.Column<double>("price")[0]);
        Assert.Equal(price, refused.FilePath);
        Assert.Contains("column 'price'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("holds 1 values, fewer than the 2 rows", refused.Message, StringComparison.Ordinal);
    }

    internal static void Write(string folder, CatalogWorld world, Form form)
    {
        using (var writer = TimeSeriesCatalog.Create(folder, CatalogWorld.Schema()))
        {
            world.WriteTo(writer);
        }

        if (form != Form.Appendable)
        {
            using var writer = TimeSeriesCatalog.Open(folder);
            writer.Seal(form == Form.Sealed ? DateTime.MaxValue : CatalogWorld.FirstDay.AddDays(2));
        }
    }

    /// <summary>Appends a trade of <paramref name="instrument"/> whose price and id are <paramref name="id"/>.</summary>
    /// <summary>A catalog of two trades of SPY on the first day, ids 1 and 2.</summary>
    private static void WriteTwoTrades(string folder)
    {
        using var writer = TimeSeriesCatalog.Create(folder, CatalogWorld.Schema());
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(11), 2);
    }

    internal static void AddTrade(TimeSeriesCatalog catalog, string instrument, DateTime time, long id)
    {
        TimeSeriesTable table = catalog.Partition("trades", instrument, time);
        table.Column<double>("price").Add(id);
        table.Column<long>("id").Add(id);
        table.AddRow(time);
    }

    private static long[] Ids(TimeSeriesCatalog catalog)
    {
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);
        return CatalogWorld.Replayed(replay);
    }
}
