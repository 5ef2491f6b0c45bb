using System;
using System.Buffers.Binary;
using System.IO;
using System.Linq;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.Tables;

public sealed class TimeSeriesTableTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Folder => _directory.File("ticks");

    private TimeSeriesTable CreateWithRows(long rows) => TickTable.CreateWithRows(Folder, rows);

    [Fact]
    public void TheNextWriterRemovesTheManifestAKilledCreateWasWriting()
    {
        using (CreateWithRows(3))
        {
        }

        string leftover = ListMmf.Storage.DurableFile.TemporaryFor(Path.Combine(Folder, TimeSeriesTable.ManifestFileName));
        File.WriteAllText(leftover, "{");

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder);

        Assert.False(File.Exists(leftover), "the killed create's manifest is still there");
        Assert.Equal(3, table.RowCount);
    }

    [Fact]
    public void RowsAddedByTheWriterAreReadBackByAReaderInAnotherInstance()
    {
        using TimeSeriesTable writer = CreateWithRows(1000);
        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);

        Assert.Equal(1000, reader.RowCount);
        Assert.All(Enumerable.Range(0, 1000), row => Assert.True(TickTable.IsIntact(reader, row), $"row {row}"));
    }

    [Fact]
    public void FindRangeGivesTheRowsOfATimeRangeAsSpansOfEveryColumn()
    {
        using TimeSeriesTable table = CreateWithRows(3000);
        DateTime from = TickTable.Start.AddSeconds(100);
        DateTime to = TickTable.Start.AddSeconds(200);

        IndexRange range = table.FindRange(from, to);

        Assert.Equal(new IndexRange(300, 600), range);
        ReadOnlySpan<double> prices = table.Column<double>("price").AsSpan(range);
        ReadOnlySpan<int> seconds = table.Column<int>("time").AsSpan(range);
        Assert.Equal(300, prices.Length);
        Assert.Equal(TickTable.Price(300), prices[0]);
        Assert.Equal(TickTable.Price(599), prices[^1]);
        Assert.Equal((int)(from - DateTime.UnixEpoch).TotalSeconds, seconds[0]);
    }

    [Fact]
    public void LowerAndUpperBoundFollowTheTimeSeriesRules()
    {
        using TimeSeriesTable table = CreateWithRows(30);
        DateTime second5 = TickTable.Start.AddSeconds(5);

        Assert.Equal(15, table.LowerBound(second5));
        Assert.Equal(18, table.UpperBound(second5));
        Assert.Equal(18, table.LowerBound(second5.AddMilliseconds(500)));
        Assert.Equal(30, table.LowerBound(DateTime.MaxValue));
    }

    [Fact]
    public void LastRowsAndRowsSinceServeAPollingReader()
    {
        using TimeSeriesTable writer = CreateWithRows(10);
        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        IndexRange first = reader.RowsSince(0);
        TickTable.AddRow(writer, 10);
        TickTable.AddRow(writer, 11);

        IndexRange next = reader.RowsSince(first.End);

        Assert.Equal(new IndexRange(0, 10), first);
        Assert.Equal(new IndexRange(10, 12), next);
        Assert.Equal(new IndexRange(9, 12), reader.LastRows(3));
        Assert.Equal(new IndexRange(0, 12), reader.LastRows(100));
        Assert.Throws<ArgumentOutOfRangeException>(() => reader.RowsSince(13));
    }

    [Fact]
    public void AReaderFollowsTheWriterAcrossManyGrowths()
    {
        using TimeSeriesTable writer = TimeSeriesTable.Create(Folder, TickTable.Schema());
        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        for (long row = 0; row < 100_000; row++)
        {
            TickTable.AddRow(writer, row);
        }

        Assert.Equal(100_000, reader.RowCount);
        Assert.True(TickTable.IsIntact(reader, 99_999));
        Assert.Equal(TickTable.Sequence(99_999), reader.Column<long>("sequence").AsSpan(reader.LastRows(1))[0]);
    }

    [Fact]
    public void ValuesOfARowNotYetPublishedAreInvisibleToReaders()
    {
        using TimeSeriesTable writer = CreateWithRows(5);
        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        writer.Column<double>("price").Add(1.5);
        writer.Column<int>("size").Add(2);

        Assert.Equal(5, reader.RowCount);
        Assert.Throws<ArgumentOutOfRangeException>(() => reader.Column<double>("price")[5]);
        Assert.Throws<ArgumentOutOfRangeException>(() => reader.Column<double>("price").AsSpan(0, 6).Length);
    }

    [Fact]
    public void ARowMissingAValueIsRefusedAndItsValuesDiscarded()
    {
        using TimeSeriesTable table = CreateWithRows(5);
        table.Column<double>("price").Add(1.5);
        table.Column<int>("size").Add(2);

        var error = Assert.Throws<InvalidOperationException>(() => table.AddRow(TickTable.Time(5)));

        Assert.Contains("'sequence'", error.Message);
        Assert.Equal(5, table.RowCount);
        TickTable.AddRow(table, 5);
        Assert.True(TickTable.IsIntact(table, 5));
    }

    [Fact]
    public void ARowWithTwoValuesInAColumnIsRefused()
    {
        using TimeSeriesTable table = CreateWithRows(5);
        table.Column<double>("price").Add(1.5);
        table.Column<double>("price").Add(1.75);
        table.Column<int>("size").Add(2);
        table.Column<long>("sequence").Add(3);

        var error = Assert.Throws<InvalidOperationException>(() => table.AddRow(TickTable.Time(5)));

        Assert.Contains("'price' holds 2 values", error.Message);
        Assert.Equal(5, table.RowCount);
        TickTable.AddRow(table, 5);
        Assert.True(TickTable.IsIntact(table, 5));
    }

    [Fact]
    public void ARowOutOfOrderIsRefusedWithItsTimesAndItsValuesDiscarded()
    {
        using TimeSeriesTable table = CreateWithRows(5);
        table.Column<double>("price").Add(1.5);
        table.Column<int>("size").Add(2);
        table.Column<long>("sequence").Add(3);

        var error = Assert.Throws<ListMmfOrderException>(() => table.AddRow(TickTable.Start.AddSeconds(-1)));

        Assert.Equal(5, error.Index);
        Assert.Contains("2024-01-02 09:29:59", error.Message);
        Assert.Contains("2024-01-02 09:30:01", error.Message);
        Assert.Equal(5, table.RowCount);
        TickTable.AddRow(table, 5);
        Assert.True(TickTable.IsIntact(table, 5));
    }

    [Fact]
    public void BatchesOfRowsArePublishedWithSecondsDateTimesOrKeys()
    {
        using TimeSeriesTable table = TimeSeriesTable.Create(Folder, TickTable.Schema());
        long[] rows = Enumerable.Range(0, 600).Select(i => (long)i).ToArray();
        AddValues(table, rows[..300]);
        table.AddRows(rows[..300].Select(TickTable.Time).ToArray());
        AddValues(table, rows[300..]);
        table.AddRows(rows[300..].Select(row => (int)(TickTable.Time(row) - DateTime.UnixEpoch).TotalSeconds).ToArray());

        Assert.Equal(600, table.RowCount);
        Assert.All(rows, row => Assert.True(TickTable.IsIntact(table, row), $"row {row}"));
        Assert.Throws<ListMmfDataTypeException>(() => table.AddRows(new long[] { 1 }));
    }

    [Fact]
    public void ABatchWithATimeOutOfOrderPublishesNothing()
    {
        using TimeSeriesTable table = CreateWithRows(3);
        long[] rows = [3, 4, 5];
        AddValues(table, rows);
        DateTime[] times = [TickTable.Time(3), TickTable.Start.AddSeconds(-5), TickTable.Time(5)];

        var error = Assert.Throws<ListMmfOrderException>(() => table.AddRows(times));

        Assert.Equal(4, error.Index);
        Assert.Equal(3, table.RowCount);
        Assert.Equal(3, table.Column<double>("price").AsSpan(table.LastRows(10)).Length);
        TickTable.AddRow(table, 3);
        Assert.True(TickTable.IsIntact(table, 3));
    }

    [Fact]
    public void ASubSecondTimeInASecondsTableIsRefused()
    {
        using TimeSeriesTable table = CreateWithRows(3);
        table.Column<double>("price").Add(1.5);
        table.Column<int>("size").Add(2);
        table.Column<long>("sequence").Add(3);

        Assert.Throws<ArgumentOutOfRangeException>(() => table.AddRow(TickTable.Time(3).AddMilliseconds(250)));
        Assert.Equal(3, table.RowCount);
    }

    [Fact]
    public void TheWritersOpenTrimsValuesPastThePublishedRowsAndSaysSo()
    {
        using (TimeSeriesTable table = CreateWithRows(10))
        {
            table.Column<double>("price").Add(1.5);
            table.Column<int>("size").Add(2);
        }

        using TimeSeriesTable reopened = TimeSeriesTable.Open(Folder);

        Assert.Equal(10, reopened.RowCount);
        Assert.Equal(2, reopened.Repairs.Count);
        Assert.Contains(reopened.Repairs, line => line.Contains("'price' held 1 value past the 10 published rows", StringComparison.Ordinal));
        using (var price = new ListMmf<double>(_directory.File("ticks/price.mmf"), FileAccess.Read))
        {
            Assert.Equal(10, price.Count);
        }

        TickTable.AddRow(reopened, 10);
        Assert.True(TickTable.IsIntact(reopened, 10));
    }

    [Fact]
    public void AReaderDoesNotTrimAndSeesOnlyThePublishedRows()
    {
        using (TimeSeriesTable table = CreateWithRows(10))
        {
            table.Column<double>("price").Add(1.5);
        }

        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);

        Assert.Equal(10, reader.RowCount);
        Assert.Empty(reader.Repairs);
        using var price = new ListMmf<double>(_directory.File("ticks/price.mmf"), FileAccess.Read);
        Assert.Equal(11, price.Count);
    }

    [Fact]
    public void AReaderOfATableWhoseValueColumnIsBehindItsTimesIsRefusedAndNothingIsChanged()
    {
        CreateWithValueColumnBehind();

        var error = Assert.Throws<ListMmfFormatException>(() => TimeSeriesTable.Open(Folder, FileAccess.Read));

        Assert.Contains("column 'size'", error.Message);
        Assert.Contains("7 values, fewer than the 10 rows its time column publishes", error.Message);
        Assert.Contains("opening the table for writing once lowers the rows to 7", error.Message);
        using var time = new ListMmf<int>(_directory.File("ticks/time.mmf"), FileAccess.Read);
        Assert.Equal(10, time.Count);
    }

    [Fact]
    public void TheNextWriterLowersTheRowsToAValueColumnLeftBehindByAPowerLoss()
    {
        CreateWithValueColumnBehind();

        using (TimeSeriesTable writer = TimeSeriesTable.Open(Folder))
        {
            Assert.Equal(7, writer.RowCount);
            Assert.Contains(writer.Repairs, repair => repair.Contains("column 'size' held 7 values, fewer than the 10 rows", StringComparison.Ordinal));
            Assert.Contains(writer.Repairs, repair => repair.Contains("column 'price' held 3 values past the 7 published rows", StringComparison.Ordinal));
        }

        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        Assert.Equal(7, reader.RowCount);
        Assert.Equal(TickTable.Price(6), reader.Column<double>("price")[6]);
    }

    /// <summary>
    /// A value column whose counts a power loss left past its file's end (the header written back before the file's
    /// growth was committed, issue 64): the next writer lowers them to what the file holds and says so, and no
    /// published row is lost. Before, every open refused the table.
    /// </summary>
    [Theory]
    [InlineData(ListMmfFormatVersion.Version1)]
    [InlineData(ListMmfFormatVersion.Version2)]
    public void TheNextWriterLowersAValueColumnsCountLeftPastItsFilesEnd(ListMmfFormatVersion version)
    {
        using (TimeSeriesTable created = TimeSeriesTable.Create(Folder, TickTable.Schema(), new ListMmfOptions { FormatVersion = version }))
        {
            for (long row = 0; row < 10; row++)
            {
                TickTable.AddRow(created, row);
            }
        }

        string price = _directory.File("ticks/price.mmf");
        long room = (new FileInfo(price).Length - ListMmfFileInfo.Read(price).ItemsOffset) / sizeof(double);
        using (FileStream file = File.OpenWrite(price))
        {
            Span<byte> count = stackalloc byte[sizeof(long)];
            BinaryPrimitives.WriteInt64LittleEndian(count, room + 1_000);
            RandomAccess.Write(file.SafeFileHandle, count, 8);
            RandomAccess.Write(file.SafeFileHandle, count, version == ListMmfFormatVersion.Version2 ? 24 : 8);
        }

        using (TimeSeriesTable writer = TimeSeriesTable.Open(Folder))
        {
            Assert.Equal(10, writer.RowCount);
            Assert.Contains(writer.Repairs, repair => repair.Contains(
                $"column 'price' held a count of {room + 1_000:N0} but its file room for only {room:N0}", StringComparison.Ordinal));
        }

        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        Assert.Equal(10, reader.RowCount);
        Assert.Equal(TickTable.Price(9), reader.Column<double>("price")[9]);
    }

    /// <summary>A table of 10 rows whose size column's count on disk is 7, as a power loss can leave it.</summary>
    private void CreateWithValueColumnBehind()
    {
        using (CreateWithRows(10))
        {
        }

        using var size = new ListMmf<int>(_directory.File("ticks/size.mmf"));
        size.Truncate(7);
    }

    [Fact]
    public void ColumnsAreOrdinaryListMmfFiles()
    {
        using (CreateWithRows(20))
        {
        }

        using var time = ListMmfTimeSeriesDateTimeSeconds.OpenRead(_directory.File("ticks/time.mmf"), TimeSeriesOrder.AscendingOrEqual);
        using var price = new ListMmf<double>(_directory.File("ticks/price.mmf"), FileAccess.Read);
        Assert.Equal(20, time.Count);
        Assert.Equal(TickTable.Time(19), time[19]);
        Assert.Equal(DataType.Double, price.DataType);
        Assert.Equal(TickTable.Price(19), price[19]);
    }

    [Fact]
    public void TheManifestIsReadableJsonNamingEveryColumnItsTypeAndFile()
    {
        using (CreateWithRows(1))
        {
        }

        string text = File.ReadAllText(_directory.File("ticks/table.json"));

        Assert.Contains("\"format\": \"ListMmf.TimeSeriesTable\"", text);
        Assert.Contains("\"order\": \"AscendingOrEqual\"", text);
        Assert.Contains("\"name\": \"price\"", text);
        Assert.Contains("\"type\": \"Double\"", text);
        Assert.Contains("\"file\": \"sequence.mmf\"", text);
    }

    [Fact]
    public void TheManifestRoundTripsTheSchema()
    {
        using (CreateWithRows(1))
        {
        }

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder, FileAccess.Read);

        Assert.Equal(TickTable.Schema().Time, table.Schema.Time);
        Assert.Equal(TickTable.Schema().Columns, table.Schema.Columns);
        Assert.Equal(TimeSeriesOrder.AscendingOrEqual, table.Schema.Order);
    }

    [Fact]
    public void AFolderOfParallelFilesOpensByNamingItsFiles()
    {
        using (var times = new ListMmfTimeSeriesDateTimeSeconds(_directory.File("ES.Timestamps.bt"), TimeSeriesOrder.AscendingOrEqual))
        using (var prices = new ListMmf<double>(_directory.File("ES.Prices.bt")))
        {
            for (int i = 0; i < 50; i++)
            {
                prices.Add(100 + i);
                times.Add(TickTable.Start.AddSeconds(i));
            }
        }

        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual, "ES.Timestamps.bt")
            .Add<double>("price", "ES.Prices.bt");
        using TimeSeriesTable table = TimeSeriesTable.Open(_directory.Path, schema, FileAccess.Read);

        IndexRange range = table.FindRange(TickTable.Start.AddSeconds(10), TickTable.Start.AddSeconds(20));
        Assert.Equal(110, table.Column<double>("price").AsSpan(range)[0]);
        Assert.Equal(10, range.Length);
        Assert.False(File.Exists(_directory.File(TimeSeriesTable.ManifestFileName)));
    }

    [Fact]
    public void CreateAdoptsExistingColumnFilesAndWritesTheManifest()
    {
        Directory.CreateDirectory(Folder);
        using (var times = new ListMmfTimeSeriesDateTimeSeconds(_directory.File("ticks/time.mmf"), TimeSeriesOrder.AscendingOrEqual))
        using (var prices = new ListMmf<double>(_directory.File("ticks/price.mmf")))
        {
            prices.AddRange([1.0, 2.0]);
            times.Add(TickTable.Start);
            times.Add(TickTable.Start);
        }

        var schema = new TimeSeriesTableSchema("time").Add<double>("price");
        using TimeSeriesTable table = TimeSeriesTable.Create(Folder, schema);

        Assert.Equal(2, table.RowCount);
        Assert.Empty(table.Repairs);
        Assert.True(File.Exists(_directory.File("ticks/table.json")));
    }

    [Fact]
    public void CreateRefusesAnAdoptedValueFileLongerThanTheTimeColumnAndChangesNothing()
    {
        Directory.CreateDirectory(Folder);
        using (var prices = new ListMmf<double>(_directory.File("ticks/price.mmf")))
        {
            prices.AddRange([1.0, 2.0, 3.0]);
        }

        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual, "mistyped.mmf").Add<double>("price");
        var error = Assert.Throws<ListMmfFormatException>(() => TimeSeriesTable.Create(Folder, schema));

        Assert.Contains("does not trim them", error.Message);
        Assert.False(File.Exists(_directory.File("ticks/mistyped.mmf")));
        Assert.False(File.Exists(_directory.File("ticks/table.json")));
        using var price = new ListMmf<double>(_directory.File("ticks/price.mmf"), FileAccess.Read);
        Assert.Equal(3, price.Count);
    }

    [Fact]
    public void OpeningForWritingAFolderThatIsNoTableLeavesNothingInIt()
    {
        Directory.CreateDirectory(Folder);

        Assert.Throws<FileNotFoundException>(() => TimeSeriesTable.Open(Folder));

        Assert.Empty(Directory.GetFileSystemEntries(Folder));
    }

    [Fact]
    public void TickKeysOutsideDateTimeAreRefusedBeforeAnythingIsPublished()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("price");
        using TimeSeriesTable table = TimeSeriesTable.Create(Folder, schema);
        table.Column<double>("price").AddRange([1.0, 2.0]);

        Assert.Throws<ArgumentOutOfRangeException>(() => table.AddRows(new long[] { TickTable.Start.Ticks, -1 }));

        Assert.Equal(0, table.RowCount);
        table.Column<double>("price").Add(1.0);
        table.AddRows(new[] { TickTable.Start.Ticks });
        Assert.Equal(1, table.RowCount);
    }

    [Fact]
    public void ASecondWriterOnTheTableIsRefused()
    {
        using TimeSeriesTable writer = CreateWithRows(1);

        var error = Assert.Throws<ListMmfLockedException>(() => TimeSeriesTable.Open(Folder));

        Assert.Contains("another writer has the table open", error.Message);
        Assert.Equal(Path.GetFullPath(Folder), error.FilePath);
    }

    [Fact]
    public void AWriterOfOneColumnFileKeepsTheTableWriterOut()
    {
        using (CreateWithRows(1))
        {
        }

        using var price = new ListMmf<double>(_directory.File("ticks/price.mmf"));

        var error = Assert.Throws<ListMmfLockedException>(() => TimeSeriesTable.Open(Folder));
        Assert.Contains("column 'price'", error.Message);
    }

    [Fact]
    public void CreatingOverAnExistingTableIsRefused()
    {
        using (CreateWithRows(1))
        {
        }

        var error = Assert.Throws<ListMmfException>(() => TimeSeriesTable.Create(Folder, TickTable.Schema()));
        Assert.Contains("already holds a table", error.Message);
    }

    [Fact]
    public void AReaderOfATableStillBeingCreatedFindsNoTable()
    {
        Directory.CreateDirectory(Folder);
        using (new ListMmfTimeSeriesDateTimeSeconds(_directory.File("ticks/time.mmf"), TimeSeriesOrder.AscendingOrEqual))
        {
        }

        var error = Assert.Throws<FileNotFoundException>(() => TimeSeriesTable.Open(Folder, FileAccess.Read));
        Assert.Contains("has no table.json", error.Message);
    }

    [Fact]
    public void AManifestNamingAMissingColumnFileIsDamage()
    {
        using (CreateWithRows(1))
        {
        }

        File.Delete(_directory.File("ticks/size.mmf"));

        var error = Assert.Throws<ListMmfFormatException>(() => TimeSeriesTable.Open(Folder, FileAccess.Read));
        Assert.Contains("column 'size'", error.Message);
        Assert.Contains("size.mmf", error.Message);
        Assert.False(File.Exists(_directory.File("ticks/size.mmf")));
    }

    [Fact]
    public void AColumnFileOfAnotherTypeIsRefusedNamingTheTableAndColumn()
    {
        using (CreateWithRows(1))
        {
        }

        File.Delete(_directory.File("ticks/price.mmf"));
        using (var wrong = new ListMmf<int>(_directory.File("ticks/price.mmf")))
        {
            wrong.Add(1);
        }

        var error = Assert.Throws<ListMmfDataTypeException>(() => TimeSeriesTable.Open(Folder, FileAccess.Read));
        Assert.Contains("column 'price'", error.Message);
        Assert.Contains(Path.GetFullPath(Folder), error.Message);
    }

    [Theory]
    [InlineData("{")]
    [InlineData("{\"format\": \"something else\", \"version\": 1}")]
    [InlineData("{\"format\": \"ListMmf.TimeSeriesTable\", \"version\": 2}")]
    [InlineData("{\"format\": \"ListMmf.TimeSeriesTable\", \"version\": 1, \"order\": \"Descending\"}")]
    [InlineData("{\"format\": \"ListMmf.TimeSeriesTable\", \"version\": 1, \"order\": \"Ascending\", \"time\": {\"name\": \"t\", \"type\": \"Double\", \"file\": \"t.mmf\"}, \"columns\": []}")]
    [InlineData("{\"format\": \"ListMmf.TimeSeriesTable\", \"version\": 1, \"order\": \"Ascending\", \"time\": {\"name\": \"t\", \"type\": \"UnixSeconds\", \"file\": \"../t.mmf\"}, \"columns\": []}")]
    [InlineData("{\"format\": \"ListMmf.TimeSeriesTable\", \"version\": 1, \"order\": \"Ascending\", \"time\": {\"name\": \"t\", \"type\": \"UnixSeconds\", \"file\": \"t.mmf\"}, \"columns\": [{\"name\": \"T\", \"type\": \"Double\", \"file\": \"u.mmf\"}]}")]
    public void AnInvalidManifestIsAFormatErrorNamingTheManifest(string json)
    {
        Directory.CreateDirectory(Folder);
        File.WriteAllText(_directory.File("ticks/table.json"), json);

        var error = Assert.Throws<ListMmfFormatException>(() => TimeSeriesTable.Open(Folder, FileAccess.Read));

        Assert.Equal(_directory.File("ticks/table.json"), error.FilePath);
        Assert.Contains("manifest is not valid", error.Message);
    }

    [Theory]
    [InlineData("")]
    [InlineData("bid/ask")]
    [InlineData("bid\\ask")]
    [InlineData("..")]
    [InlineData("price.")]
    [InlineData("a:b")]
    [InlineData("tab\there")]
    public void AColumnNameThatIsNotAValidFileNameIsRefused(string name)
    {
        var schema = new TimeSeriesTableSchema("time");

        var error = Assert.Throws<ArgumentException>(() => schema.Add<double>(name));

        Assert.Contains($"'{name}'", error.Message);
    }

    [Fact]
    public void ColumnNamesAreUniqueIgnoringCase()
    {
        var schema = new TimeSeriesTableSchema("time").Add<double>("Price");

        Assert.Throws<ArgumentException>(() => schema.Add<double>("price"));
        Assert.Throws<ArgumentException>(() => schema.Add<double>("TIME"));
        Assert.Throws<ArgumentException>(() => schema.Add<int>("size", "PRICE.mmf"));
    }

    [Fact]
    public void ATimeColumnMustBeSecondsOrTicks() =>
        Assert.Throws<ArgumentException>(() => new TimeSeriesTableSchema("time", DataType.Double));

    [Fact]
    public void AskingForAColumnByTheWrongTypeOrNameFailsClearly()
    {
        using TimeSeriesTable table = CreateWithRows(1);

        var wrongType = Assert.Throws<ListMmfDataTypeException>(() => table.Column<float>("price"));
        var wrongName = Assert.Throws<ArgumentException>(() => table.Column<double>("bid"));

        Assert.Contains("column 'price'", wrongType.Message);
        Assert.Contains("time, price, size, sequence", wrongName.Message);
    }

    [Fact]
    public void TheTimeColumnIsReadOnlyThroughItsHandle()
    {
        using TimeSeriesTable table = CreateWithRows(1);

        Assert.Throws<NotSupportedException>(() => table.Column<int>("time").Add(5));
        Assert.True(table.Column<int>("time").IsTime);
    }

    [Fact]
    public void AReaderCannotAddRows()
    {
        using (CreateWithRows(1))
        {
        }

        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);

        Assert.Throws<NotSupportedException>(() => reader.AddRow(TickTable.Time(1)));
        Assert.Throws<NotSupportedException>(() => reader.Column<double>("price").Add(1));
    }

    [Fact]
    public void TruncateDropsRowsFromEveryColumn()
    {
        using TimeSeriesTable table = CreateWithRows(10);

        table.Truncate(4);
        TickTable.AddRow(table, 4);

        Assert.Equal(5, table.RowCount);
        Assert.True(TickTable.IsIntact(table, 4));
        table.Verify();
    }

    [Fact]
    public void FlushAndVerifyPassOnAHealthyTable()
    {
        using TimeSeriesTable table = CreateWithRows(100);

        table.Flush();
        table.Verify();
    }

    [Fact]
    public void CopyTimesConvertsARangeOfTimesOnce()
    {
        using TimeSeriesTable table = CreateWithRows(9);
        var times = new DateTime[3];

        table.CopyTimes(new IndexRange(3, 6), times);

        Assert.Equal([TickTable.Time(3), TickTable.Time(4), TickTable.Time(5)], times);
    }

    [Fact]
    public void ATicksTableTakesSubSecondTimesAndTickKeys()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.Ascending).Add<float>("bid");
        using TimeSeriesTable table = TimeSeriesTable.Create(Folder, schema);
        table.Column<float>("bid").Add(1.5f);
        table.AddRow(TickTable.Start.AddTicks(1));
        table.Column<float>("bid").AddRange([2.5f, 3.5f]);
        table.AddRows(new[] { TickTable.Start.AddTicks(2).Ticks, TickTable.Start.AddTicks(3).Ticks });

        Assert.Equal(3, table.RowCount);
        Assert.Equal(1, table.LowerBound(TickTable.Start.AddTicks(2)));
        Assert.Throws<ListMmfDataTypeException>(() => table.AddRows(new[] { 1 }));
    }

    [Fact]
    public void AddingRowsAndBatchesAllocatesNothing()
    {
        using TimeSeriesTable table = TimeSeriesTable.Create(Folder, TickTable.Schema(), new ListMmfOptions { InitialCapacity = 20_000 });
        TableColumn<double> price = table.Column<double>("price");
        TableColumn<int> size = table.Column<int>("size");
        TableColumn<long> sequence = table.Column<long>("sequence");
        double[] prices = [1, 2];
        int[] sizes = [1, 2];
        long[] sequences = [1, 2];
        DateTime[] times = [TickTable.Start, TickTable.Start];
        table.Column<double>("price").Add(0);
        table.Column<int>("size").Add(0);
        table.Column<long>("sequence").Add(0);
        table.AddRow(TickTable.Start);

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1000; i++)
        {
            price.Add(i);
            size.Add(i);
            sequence.Add(i);
            table.AddRow(TickTable.Start);
            price.AddRange(prices);
            size.AddRange(sizes);
            sequence.AddRange(sequences);
            table.AddRows(times);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.Equal(3001, table.RowCount);
    }

    private static void AddValues(TimeSeriesTable table, long[] rows)
    {
        table.Column<double>("price").AddRange(rows.Select(TickTable.Price).ToArray());
        table.Column<int>("size").AddRange(rows.Select(TickTable.Size).ToArray());
        table.Column<long>("sequence").AddRange(rows.Select(TickTable.Sequence).ToArray());
    }
}
