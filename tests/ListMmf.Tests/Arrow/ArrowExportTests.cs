using System;
using System.IO;
using System.Linq;
using Apache.Arrow;
using Apache.Arrow.C;
using Apache.Arrow.Ipc;
using Apache.Arrow.Types;
using ListMmf.Arrow;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.Arrow;

public sealed class ArrowExportTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Folder => _directory.File("ticks");

    private TimeSeriesTable CreateWithRows(long rows) => TickTable.CreateWithRows(Folder, rows);

    [Fact]
    public unsafe void RecordBatchBuffersAreTheMappedColumnsThemselves()
    {
        using (CreateWithRows(1000))
        {
        }

        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        using RecordBatch batch = reader.ToRecordBatch(ArrowTimeColumn.Stored);

        var all = new IndexRange(0, 1000);
        Assert.Equal(1000, batch.Length);
        Assert.True(Address(batch.Column("time")) == (nint)Unsafe(reader.Column<int>("time").AsSpan(all)), "the time buffer is not the mapped time column");
        Assert.True(Address(batch.Column("price")) == (nint)Unsafe(reader.Column<double>("price").AsSpan(all)), "the price buffer is not the mapped column");
        Assert.True(Address(batch.Column("size")) == (nint)Unsafe(reader.Column<int>("size").AsSpan(all)), "the size buffer is not the mapped column");
        Assert.True(Address(batch.Column("sequence")) == (nint)Unsafe(reader.Column<long>("sequence").AsSpan(all)), "the sequence buffer is not the mapped column");
    }

    [Fact]
    public void AnArrayOfAListSeesTheWritersChangesBecauseNothingWasCopied()
    {
        using var list = new ListMmf<double>(_directory.File("prices.mmf"));
        list.AddRange([1.0, 2.0, 3.0]);
        var array = (DoubleArray)list.ToArrowArray();

        list[1] = 42.5;

        Assert.Equal(42.5, array.GetValue(1));
        Assert.Equal(3, array.Length);
    }

    [Fact]
    public void MemoryOfADisposedListThrowsInsteadOfReadingUnmappedPages()
    {
        var list = new ListMmf<double>(_directory.File("prices.mmf"));
        list.AddRange([1.0, 2.0, 3.0]);
        var array = (DoubleArray)list.ToArrowArray();

        list.Dispose();

        Assert.Throws<ObjectDisposedException>(() => array.GetValue(0));
    }

    [Fact]
    public void ASealedListsRangeBecomesAnArrayOfTheSameValues()
    {
        string path = _directory.File("prices.mmf");
        double[] prices = Enumerable.Range(0, 5_000).Select(i => 4_500 + ((i % 17) * 0.25)).ToArray();
        using (var list = new ListMmf<double>(path))
        {
            list.AddRange(prices);
        }

        SealedListMmf.Seal(path);
        using var sealedList = new SealedListMmf<double>(path);
        var array = Assert.IsType<DoubleArray>(sealedList.ToArrowArray(new IndexRange(1_000, 3_500)));

        Assert.Equal(prices.Skip(1_000).Take(2_500), array.Values.ToArray());
    }

    [Fact]
    public void ASealedSeriesGivesTheTimestampsTheAppendableSeriesGives()
    {
        string path = _directory.File("seconds.mmf");
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.AscendingOrEqual))
        {
            series.AddRange(Enumerable.Range(0, 3_000).Select(i => new DateTime(2024, 1, 2, 9, 30, 0).AddSeconds(i / 3)).ToArray());
        }

        File.Copy(path, path + ".appendable");
        SealedListMmf.Seal(path);
        using var appendable = ListMmfTimeSeriesDateTimeSeconds.OpenRead(path + ".appendable", TimeSeriesOrder.AscendingOrEqual);
        using var sealedSeries = new SealedListMmf<int>(path);

        var expected = (TimestampArray)appendable.ToArrowArray(new IndexRange(0, 3_000));
        var actual = Assert.IsType<TimestampArray>(sealedSeries.ToArrowArray());

        Assert.Equal(expected.Data.DataType.TypeId, actual.Data.DataType.TypeId);
        Assert.Equal(((TimestampType)expected.Data.DataType).Unit, ((TimestampType)actual.Data.DataType).Unit);
        Assert.Equal(expected.Values.ToArray(), actual.Values.ToArray());
    }

    [Fact]
    public void AUtcSeriesGivesTimestampsInTheZoneItsListGives()
    {
        string path = _directory.File("utc-seconds.mmf");
        using var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.AscendingOrEqual, options: new ListMmfOptions { TimesAreUtc = true });
        series.AddRange([new DateTime(2024, 1, 2, 9, 30, 0, DateTimeKind.Utc), new DateTime(2024, 1, 2, 9, 30, 1, DateTimeKind.Utc)]);

        var ofSeries = (TimestampType)series.ToArrowArray(new IndexRange(0, 2)).Data.DataType;
        var ofKeys = (TimestampType)series.Keys.Items.ToArrowArray().Data.DataType;

        Assert.Equal("UTC", ofSeries.Timezone);
        Assert.Equal(ofKeys.Timezone, ofSeries.Timezone);
    }

    [Fact]
    public void DateTimeMinValueInSecondsBecomesItsOwnTimestamp()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.Ascending).Add<double>("price");
        using TimeSeriesTable table = TimeSeriesTable.Create(Folder, schema);
        table.Column<double>("price").Add(1);
        table.AddRow(DateTime.MinValue);

        using RecordBatch batch = table.ToRecordBatch();

        Assert.Equal((DateTime.MinValue - DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerSecond, ((TimestampArray)batch.Column("time")).GetValue(0));
    }

    [Fact]
    public void ARecordBatchOfASealedTableHoldsTheValuesItHeldBeforeTheSeal()
    {
        using (CreateWithRows(3_000))
        {
        }

        string before = Text(Folder);
        TimeSeriesTable.Seal(Folder);

        Assert.Equal(before, Text(Folder));

        static string Text(string folder)
        {
            using TimeSeriesTable table = TimeSeriesTable.Open(folder, FileAccess.Read);
            using RecordBatch batch = table.ToRecordBatch(new IndexRange(1_000, 2_500));
            var time = Assert.IsType<TimestampArray>(batch.Column("time"));
            var price = Assert.IsType<DoubleArray>(batch.Column("price"));
            var size = Assert.IsType<Int32Array>(batch.Column("size"));
            var sequence = Assert.IsType<Int64Array>(batch.Column("sequence"));
            return string.Join('\n', Enumerable.Range(0, batch.Length).Select(row => $"{time.GetTimestampUnchecked(row):O} " +
                $"{BitConverter.DoubleToInt64Bits(price.GetValue(row)!.Value)} {size.GetValue(row)} {sequence.GetValue(row)}"));
        }
    }

    [Fact]
    public void TimeColumnsBecomeArrowTimestampsOfTheSameInstants()
    {
        using TimeSeriesTable table = CreateWithRows(10);
        using RecordBatch batch = table.ToRecordBatch();

        var time = Assert.IsType<TimestampArray>(batch.Column("time"));
        Assert.Equal(TimeUnit.Second, ((TimestampType)time.Data.DataType).Unit);
        Assert.All(Enumerable.Range(0, 10), row => Assert.Equal(TickTable.Time(row), time.GetTimestampUnchecked(row).UtcDateTime));
    }

    [Fact]
    public void TicksBecomeNanosecondTimestampsToTheTick()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.Ascending).Add<float>("price");
        using TimeSeriesTable table = TimeSeriesTable.Create(Folder, schema);
        DateTime first = new DateTime(2024, 1, 2, 9, 30, 0).AddTicks(1234567);
        for (int row = 0; row < 5; row++)
        {
            table.Column<float>("price").Add(row);
            table.AddRow(first.AddTicks(row));
        }

        using RecordBatch batch = table.ToRecordBatch();
        var time = Assert.IsType<TimestampArray>(batch.Column("time"));
        Assert.Equal(TimeUnit.Nanosecond, ((TimestampType)time.Data.DataType).Unit);
        Assert.Equal((first.AddTicks(4) - DateTime.UnixEpoch).Ticks * 100, time.GetValue(4));
    }

    [Fact]
    public void TicksBeyondWhatNanosecondsHoldAreRefusedNamingTheRow()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.Ascending).Add<float>("price");
        using TimeSeriesTable table = TimeSeriesTable.Create(Folder, schema);
        table.Column<float>("price").Add(1);
        table.AddRow(new DateTime(2024, 1, 2));
        table.Column<float>("price").Add(2);
        table.AddRow(new DateTime(2300, 1, 2));

        var exception = Assert.Throws<ListMmfException>(() => table.ToRecordBatch());
        Assert.Contains("row 1:", exception.Message, StringComparison.Ordinal);
        Assert.Contains("ArrowTimeColumn.Stored", exception.Message, StringComparison.Ordinal);
        Assert.Equal(2, table.ToRecordBatch(ArrowTimeColumn.Stored).Length);
    }

    [Fact]
    public void BatchesCoverEveryRowOnceInOrder()
    {
        using TimeSeriesTable table = CreateWithRows(1000);

        RecordBatch[] batches = table.ToRecordBatches(rowsPerBatch: 300).ToArray();

        Assert.Equal([300, 300, 300, 100], batches.Select(batch => batch.Length));
        Assert.Equal(999 * 7, ((Int64Array)batches[3].Column("sequence")).GetValue(99));
    }

    [Fact]
    public async System.Threading.Tasks.Task ArrowIpcFileReadsBackAsTheTableWithItsSchema()
    {
        using TimeSeriesTable table = CreateWithRows(2500);
        string path = _directory.File("ticks.arrow");

        Assert.Equal(2500, table.WriteArrowFile(path, rowsPerBatch: 1000));

        using var reader = ArrowFileReader.FromFile(path);
        Assert.Equal(3, await reader.RecordBatchCountAsync());
        Assert.Equal("time", reader.Schema.Metadata[ListMmfArrowExtensions.TimeColumnKey]);
        Assert.Equal(["time", "price", "size", "sequence"], reader.Schema.FieldsList.Select(field => field.Name));
        long row = 0;
        while (await reader.ReadNextRecordBatchAsync() is { } batch)
        {
            using (batch)
            {
                var times = (TimestampArray)batch.Column("time");
                var prices = (DoubleArray)batch.Column("price");
                var sizes = (Int32Array)batch.Column("size");
                for (int i = 0; i < batch.Length; i++, row++)
                {
                    Assert.Equal(TickTable.Time(row), times.GetTimestampUnchecked(i).UtcDateTime);
                    Assert.Equal(TickTable.Price(row), prices.GetValue(i));
                    Assert.Equal(TickTable.Size(row), sizes.GetValue(i));
                }
            }
        }

        Assert.Equal(2500, row);
        Assert.Equal([path], Directory.GetFiles(_directory.Path, "ticks.arrow*"));
    }

    [Fact]
    public void ListsOfStructsAreRefusedNamingTheType()
    {
        using var list = new ListMmf<Guid>(_directory.File("ids.mmf"));

        var exception = Assert.Throws<NotSupportedException>(() => list.ToArrowArray());
        Assert.Contains("Guid", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async System.Threading.Tasks.Task AnArrowFileOfATableWithNoRowsIsOneArrowReadersOpen()
    {
        string path = _directory.File("empty.arrow");
        using (TimeSeriesTable table = CreateWithRows(0))
        {
            Assert.Equal(0, table.WriteArrowFile(path));
        }

        Assert.Equal("ARROW1"u8.ToArray(), File.ReadAllBytes(path)[..6]);
        using var reader = new ArrowFileReader(File.OpenRead(path));
        Assert.Equal(["time", "price", "size", "sequence"], reader.Schema.FieldsList.Select(field => field.Name));
        Assert.Equal(0, await reader.RecordBatchCountAsync());
    }

    [Fact]
    public unsafe void ABatchExportedThroughTheCDataInterfaceOutlivesItsTableUntilReleased()
    {
        CArrowArray* exported = CArrowArray.Create();
        CArrowSchema* schema = CArrowSchema.Create();
        try
        {
            using (TimeSeriesTable table = CreateWithRows(5000))
            {
                RecordBatch batch = table.ToRecordBatch(ArrowTimeColumn.Stored);
                CArrowSchemaExporter.ExportSchema(batch.Schema, schema);
                CArrowArrayExporter.ExportRecordBatch(batch, exported);
            }

            // The consumer reads after the table is gone, as Polars or DuckDB may, and releases when done.
            Schema imported = CArrowSchemaImporter.ImportSchema(schema);
            using RecordBatch seen = CArrowArrayImporter.ImportRecordBatch(exported, imported);
            var prices = (DoubleArray)seen.Column("price");
            var sequences = (Int64Array)seen.Column("sequence");
            Assert.Equal(5000, seen.Length);
            Assert.All(Enumerable.Range(0, 5000), row =>
            {
                Assert.Equal(TickTable.Price(row), prices.GetValue(row));
                Assert.Equal(TickTable.Sequence(row), sequences.GetValue(row));
            });
        }
        finally
        {
            CArrowArray.Free(exported);
            CArrowSchema.Free(schema);
        }
    }

    private static unsafe nint Address(IArrowArray array)
    {
        fixed (byte* start = array.Data.Buffers[1].Span)
        {
            return (nint)start;
        }
    }

    private static unsafe void* Unsafe<T>(ReadOnlySpan<T> span)
        where T : unmanaged
    {
        fixed (T* start = span)
        {
            return start;
        }
    }
}
