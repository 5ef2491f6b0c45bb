using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using ParquetSharp;
using ParquetSharp.Schema;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// What leaves a table in Parquet is what the table holds, down to the statistics engines prune row groups by; every
/// column type comes back exactly; and files other writers make with their usual encodings come in, or are refused for
/// their real reason, naming the column and the row.
/// </summary>
public sealed class ParquetFidelityTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 14, 30, 0);
    private readonly TempDirectory _directory = new();
    private readonly DuckDb _duck = new();

    public void Dispose()
    {
        _duck.Dispose();
        _directory.Dispose();
    }

    private string Table => _directory.File("table");

    private string Back => _directory.File("back");

    private string ParquetFile => _directory.File("out.parquet");

    private string Quoted => DuckDb.Quote(ParquetFile);

    [Theory]
    [InlineData(DataType.DateTime)]
    [InlineData(DataType.UnixSeconds)]
    public void FilteredCountsOnEveryColumnAgreeWithTheTable(DataType timeType)
    {
        const int Rows = 200_000;
        var schema = new TimeSeriesTableSchema("time", timeType, TimeSeriesOrder.AscendingOrEqual)
            .Add<double>("price")
            .Add<int>("size")
            .Add("opened", DataType.DateTime);
        using (TimeSeriesTable created = TimeSeriesTable.Create(Table, schema))
        {
            for (int i = 0; i < Rows; i++)
            {
                created.Column<double>("price").Add(4500 + ((i % 1000) * 0.25));
                created.Column<int>("size").Add((i % 97) + 1);
                created.Column<long>("opened").Add(Start.AddTicks(i * 987_654L).Ticks);
                created.AddRow(timeType == DataType.DateTime ? Start.AddTicks(i * 1_234_567L) : Start.AddSeconds(i / 3));
            }
        }

        Assert.Equal(0, ToolRunner.Run("export", "parquet", Table, "--out", ParquetFile, "--row-group-rows", "16384").ExitCode);

        using TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read);
        var all = new IndexRange(0, Rows);
        foreach (double fraction in new[] { -0.1, 0, 0.1, 0.37, 0.5, 0.93, 1.1 })
        {
            DateTime time = Start.AddTicks((long)(fraction * (table.TimeAt(Rows - 1) - Start).Ticks));
            time = new DateTime(time.Ticks - (time.Ticks % TimeSpan.TicksPerMillisecond));
            string literal = $"TIMESTAMP_NS '{time:yyyy-MM-dd HH:mm:ss.fff}'";
            long expected = Rows - table.LowerBound(time);
            Assert.Equal([Text(expected)], _duck.Row($"select count(*) from {Quoted} where time >= {literal}"));
            Assert.Equal([Text(expected)], _duck.Row($"select count(*) from {Quoted} where epoch_ns(time) >= epoch_ns({literal})"));

            long opened = table.Column<long>("opened").AsSpan(all).ToArray().Count(ticks => ticks >= time.Ticks);
            Assert.Equal([Text(opened)], _duck.Row($"select count(*) from {Quoted} where opened >= {literal}"));
        }

        foreach (double price in new[] { 4500, 4562.5, 4749.75, 4800 })
        {
            long expected = table.Column<double>("price").AsSpan(all).ToArray().Count(value => value >= price);
            Assert.Equal([Text(expected)], _duck.Row($"select count(*) from {Quoted} where price >= {Text(price)}"));
        }

        foreach (int size in new[] { 1, 50, 97, 98 })
        {
            long expected = table.Column<int>("size").AsSpan(all).ToArray().Count(value => value < size);
            Assert.Equal([Text(expected)], _duck.Row($"select count(*) from {Quoted} where size < {Text(size)}"));
        }
    }

    [Fact]
    public void TheIssuesTwoQueriesOnATicksTableGiveTheSameCount()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.AscendingOrEqual).Add<double>("price");
        using (TimeSeriesTable created = TimeSeriesTable.Create(Table, schema))
        {
            for (int i = 0; i < 200_000; i++)
            {
                created.Column<double>("price").Add(i);
                created.AddRow(Start.AddTicks(i * 1_000_000L));
            }
        }

        Assert.Equal(0, ToolRunner.Run("export", "parquet", Table, "--out", ParquetFile).ExitCode);

        string[] filtered = _duck.Row($"select count(*) from {Quoted} where time >= TIMESTAMP '2024-01-02 16:00'");
        string[] scanned = _duck.Row($"select count(*) from {Quoted} where epoch_ns(time) >= epoch_ns(TIMESTAMP '2024-01-02 16:00')");
        Assert.Equal(scanned, filtered);
        Assert.Equal([Text(200_000 - 54_000)], filtered);
    }

    [Theory]
    [InlineData(DataType.DateTime)]
    [InlineData(DataType.UnixSeconds)]
    public void EveryColumnTypeRoundTripsExactly(DataType timeType)
    {
        using (TimeSeriesTable created = TimeSeriesTable.Create(Table, EdgeValues.Schema(timeType)))
        {
            for (int row = 0; row < EdgeValues.Rows; row++)
            {
                EdgeValues.AddRow(created, row);
            }
        }

        ToolResult export = ToolRunner.Run("export", "parquet", Table, "--out", ParquetFile, "--row-group-rows", "2");
        ToolResult import = ToolRunner.Run("import", "parquet", ParquetFile, "--out", Back);

        Assert.True(export.ExitCode == 0, export.Error);
        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable original = TimeSeriesTable.Open(Table, FileAccess.Read);
        using TimeSeriesTable back = TimeSeriesTable.Open(Back, FileAccess.Read);
        Assert.Equal(original.Schema.Time.DataType, back.Schema.Time.DataType);
        Assert.Equal(original.Columns.Select(column => (column.Name, column.DataType)), back.Columns.Select(column => (column.Name, column.DataType)));
        for (int i = 0; i < original.Columns.Count; i++)
        {
            Assert.True(
                ValueBytes(original, original.Columns[i]).SequenceEqual(ValueBytes(back, back.Columns[i])),
                $"column '{original.Columns[i].Name}' differs after the round trip");
        }

        Assert.Equal(["18446744073709551615", "-128", "-Infinity"], _duck.Row($"select max(uint64), min(sbyte), min(double) from {Quoted}"));
    }

    [Fact]
    public void DeltaEncodedColumnsFromDuckDbVersion2AreImported()
    {
        _duck.Execute($"""
            copy (select timestamp '2024-01-02 09:30:00' + to_microseconds(i * 250000) as time, (i % 120)::tinyint as venue,
                         (i % 10000 * 3)::smallint as qty, (i * 7)::bigint as sequence, ((i % 400) * 0.25)::double as price
                  from range(20000) t(i)) to {Quoted} (format parquet, parquet_version v2, row_group_size 4096)
            """);
        Assert.Contains("DELTA_BINARY_PACKED", _duck.Row($"select string_agg(distinct encodings, ',') from parquet_metadata({Quoted}) where path_in_schema = 'time'")[0]);

        ToolResult import = ToolRunner.Run("import", "parquet", ParquetFile, "--out", Back);

        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable table = TimeSeriesTable.Open(Back, FileAccess.Read);
        var all = new IndexRange(0, table.RowCount);
        string[] ours =
            [
                Text(table.RowCount), Stamp(table.TimeAt(0)), Stamp(table.TimeAt(table.RowCount - 1)),
                Text(table.Column<sbyte>("venue").AsSpan(all).ToArray().Sum(v => (long)v)),
                Text(table.Column<short>("qty").AsSpan(all).ToArray().Sum(v => (long)v)),
                Text(table.Column<long>("sequence").AsSpan(all).ToArray().Sum()),
            ];
        Assert.Equal(_duck.Row($"select count(*), min(time), max(time), sum(venue), sum(qty), sum(sequence) from {Quoted}"), ours);
    }

    [Theory]
    [InlineData("(i * 2654435761 % 4294967296 - 2147483648)::integer", "its DELTA_BINARY_PACKED values have deltas wider")]
    [InlineData("(4294000000 - i * 13)::uinteger", "its DELTA_BINARY_PACKED unsigned 32-bit values")]
    public void DuckDbVersion2FormsNoArrowReaderTakesAreRefusedForWhatTheyAreNotAsDamage(string column, string said)
    {
        _duck.Execute($"""
            copy (select timestamp '2024-01-02' + to_seconds(i) as time, {column} as v
                  from range(1000) t(i)) to {Quoted} (format parquet, parquet_version v2)
            """);

        ToolResult import = ToolRunner.Run("import", "parquet", ParquetFile, "--out", Back);

        Assert.Equal(1, import.ExitCode);
        Assert.True(import.IsOneErrorLine, import.Error);
        Assert.True(import.Error.Contains($"column 'v': {said}", StringComparison.Ordinal), import.Error);
        Assert.DoesNotContain("damaged", import.Error);
        Assert.False(Directory.Exists(Back), "the failed import left its table folder");
    }

    /// <summary>
    /// Strings in plain pages, compressed and small (no dictionary): a slice of the import spans many pages, whose
    /// bytes the reader's page buffer holds only until the next page, so every page's values must be read as they come.
    /// </summary>
    [Fact]
    public void StringsInManySmallCompressedPlainPagesAreImportedAsWritten()
    {
        string[] values = [.. Enumerable.Range(0, 40_000).Select(i => $"v{i % 7919}" + new string((char)('a' + (i % 26)), i % 23))];
        using (var time = new PrimitiveNode("time", Repetition.Required, LogicalType.Timestamp(false, TimeUnit.Micros), PhysicalType.Int64))
        using (var text = new PrimitiveNode("exchange", Repetition.Required, LogicalType.String(), PhysicalType.ByteArray))
        using (var schema = new GroupNode("schema", Repetition.Required, [time, text]))
        using (WriterProperties properties = new WriterPropertiesBuilder().Compression(Compression.Snappy).DisableDictionary().DataPagesize(512).Build())
        using (var writer = new ParquetFileWriter(ParquetFile, schema, properties))
        {
            using RowGroupWriter group = writer.AppendRowGroup();
            using (var times = (ColumnWriter<long>)group.NextColumn())
            {
                times.WriteBatch(Enumerable.Range(0, values.Length).Select(i => 1_704_187_800_000_000L + i).ToArray());
            }

            using (ColumnWriter strings = group.NextColumn())
            {
                strings.LogicalWriter<string>().WriteBatch(values);
            }

            writer.Close();
        }

        ToolResult import = ToolRunner.Run("import", "parquet", ParquetFile, "--out", Back);

        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable table = TimeSeriesTable.Open(Back, FileAccess.Read);
        var read = new string[values.Length];
        table.Text("exchange").CopyTo(new IndexRange(0, values.Length), read);
        Assert.Equal(values, read);
    }

    /// <summary>
    /// FLOAT16 is read through a reader that buffers values of its own: a row group of more rows than the import reads
    /// at a time (131,072) must go on where the last slice stopped.
    /// </summary>
    [Fact]
    public void Float16ColumnsAreImportedAsFloats()
    {
        float[] pattern = [1.5f, -2.25f, 65504f, 0.000061035156f, float.PositiveInfinity, -0f, 3f];
        float[] values = Enumerable.Range(0, 300_007).Select(i => i % 1000 == 999 ? i % 2048 : pattern[i % pattern.Length]).ToArray();
        using (var time = new PrimitiveNode("time", Repetition.Required, LogicalType.Timestamp(false, TimeUnit.Micros), PhysicalType.Int64))
        using (var half = new PrimitiveNode("half", Repetition.Required, LogicalType.Float16(), PhysicalType.FixedLenByteArray, 2))
        using (var schema = new GroupNode("schema", Repetition.Required, [time, half]))
        using (WriterProperties properties = new WriterPropertiesBuilder().Build())
        using (var writer = new ParquetFileWriter(ParquetFile, schema, properties))
        {
            using RowGroupWriter group = writer.AppendRowGroup();
            using (var times = (ColumnWriter<long>)group.NextColumn())
            {
                times.WriteBatch(Enumerable.Range(0, values.Length).Select(i => 1_704_187_800_000_000L + i).ToArray());
            }

            using (var halves = (ColumnWriter<FixedLenByteArray>)group.NextColumn())
            {
                ushort[] bits = values.Select(value => BitConverter.HalfToUInt16Bits((Half)value)).ToArray();
                var handle = GCHandle.Alloc(bits, GCHandleType.Pinned);
                try
                {
                    FixedLenByteArray[] pointers = Enumerable.Range(0, bits.Length)
                        .Select(i => new FixedLenByteArray(handle.AddrOfPinnedObject() + (i * sizeof(ushort))))
                        .ToArray();
                    halves.WriteBatch(pointers);
                }
                finally
                {
                    handle.Free();
                }
            }

            writer.Close();
        }

        ToolResult import = ToolRunner.Run("import", "parquet", ParquetFile, "--out", Back);

        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable table = TimeSeriesTable.Open(Back, FileAccess.Read);
        Assert.Equal(DataType.Single, table.Columns[1].DataType);
        Assert.Equal(values, table.Column<float>("half").AsSpan(new IndexRange(0, values.Length)).ToArray());
    }

    /// <summary>
    /// One row group of 300,001 rows in nullable columns of every width DuckDB writes: read a slice at a time, every
    /// row comes back in its place.
    /// </summary>
    [Fact]
    public void ARowGroupOfMoreRowsThanASliceIsImportedWhole()
    {
        const int Rows = 300_001;
        _duck.Execute($"""
            copy (select timestamp '2024-01-02' + to_microseconds(i * 1000) as time, (i * 0.25)::double as price,
                         (i % 30000)::smallint as size, (i * 7)::bigint as volume, (i % 1000)::float as bid
                  from range({Rows}) t(i)) to {Quoted} (format parquet, row_group_size 400000)
            """);

        ToolResult import = ToolRunner.Run("import", "parquet", ParquetFile, "--out", Back);

        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable table = TimeSeriesTable.Open(Back, FileAccess.Read);
        var all = new IndexRange(0, Rows);
        Assert.Equal(Enumerable.Range(0, Rows).Select(i => new DateTime(2024, 1, 2).AddTicks(i * 10_000L).Ticks), table.Column<long>("time").AsSpan(all).ToArray());
        Assert.Equal(Enumerable.Range(0, Rows).Select(i => i * 0.25), table.Column<double>("price").AsSpan(all).ToArray());
        Assert.Equal(Enumerable.Range(0, Rows).Select(i => (short)(i % 30000)), table.Column<short>("size").AsSpan(all).ToArray());
        Assert.Equal(Enumerable.Range(0, Rows).Select(i => i * 7L), table.Column<long>("volume").AsSpan(all).ToArray());
        Assert.Equal(Enumerable.Range(0, Rows).Select(i => (float)(i % 1000)), table.Column<float>("bid").AsSpan(all).ToArray());
    }

    [Fact]
    public void ATimeBeyondTheYear9999IsRefusedNamingItsColumnAndRow()
    {
        _duck.Execute($"""
            copy (select timestamp '2024-01-02' + to_seconds(i) as time,
                         case when i = 4 then make_timestamp(10000, 1, 1, 0, 0, 0) else timestamp '2024-01-02' end as opened
                  from range(10) t(i)) to {Quoted} (format parquet)
            """);

        ToolResult import = ToolRunner.Run("import", "parquet", ParquetFile, "--out", Back, "--time", "time");

        Assert.Equal(1, import.ExitCode);
        Assert.True(import.IsOneErrorLine, import.Error);
        Assert.True(import.Error.Contains("row 4: column 'opened' holds", StringComparison.Ordinal), import.Error);
        Assert.Contains("outside the years 0001 to 9999", import.Error);
        Assert.DoesNotContain("damaged", import.Error);
        Assert.False(Directory.Exists(Back), "the failed import left its table folder");
    }

    [Fact]
    public void NanosecondsBefore1970AreFlooredToTheTickLikeTheyAreAfter()
    {
        _duck.Execute($"""
            copy (select * from (values (TIMESTAMP_NS '1969-12-31 23:59:59.99999985', 1.0::double),
                                        (TIMESTAMP_NS '1969-12-31 23:59:59.99999995', 2.0::double),
                                        (TIMESTAMP_NS '1970-01-01 00:00:00.00000005', 3.0::double),
                                        (TIMESTAMP_NS '1970-01-01 00:00:00.00000015', 4.0::double)) t(time, price)) to {Quoted} (format parquet)
            """);

        ToolResult import = ToolRunner.Run("import", "parquet", ParquetFile, "--out", Back, "--order", "ascending");

        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable table = TimeSeriesTable.Open(Back, FileAccess.Read);
        Assert.Equal(
            [DateTime.UnixEpoch.AddTicks(-2), DateTime.UnixEpoch.AddTicks(-1), DateTime.UnixEpoch, DateTime.UnixEpoch.AddTicks(1)],
            Enumerable.Range(0, 4).Select(row => table.TimeAt(row)));
    }

    [Fact]
    public void AnExportOverOneOfTheTablesOwnFilesIsRefusedAndTheTableStaysWhole()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.Ascending).Add<sbyte>("i8");
        using (TimeSeriesTable created = TimeSeriesTable.Create(Table, schema))
        {
            for (int row = 0; row < 100; row++)
            {
                created.Column<sbyte>("i8").Add((sbyte)row);
                created.AddRow(Start.AddSeconds(row));
            }
        }

        string[] files = Directory.GetFiles(Table);
        byte[][] before = files.Select(Bytes).ToArray();
        string columnFile;
        using (TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read))
        {
            columnFile = table.Columns[1].Path;
        }

        foreach (string output in new[] { columnFile, Table, Path.Combine(Table, "new.parquet") })
        {
            ToolResult result = ToolRunner.Run("export", "parquet", Table, "--out", output);

            Assert.Equal(1, result.ExitCode);
            Assert.True(result.IsOneErrorLine, result.Error);
            Assert.Contains("Nothing was written", result.Error);
        }

        Assert.Equal(files, Directory.GetFiles(Table));
        Assert.Equal(before, files.Select(Bytes).ToArray());
    }

    /// <summary>A column's values as bytes, whatever its type, so that NaN payloads and -0 compare too.</summary>
    private static byte[] ValueBytes(TimeSeriesTable table, TableColumn column) =>
        DataTypeInfo.Of(column.DataType).Accept(new ValueBytesOf(table, column.Name));

    private static byte[] Bytes(string path) => System.IO.File.ReadAllBytes(path);

    private sealed record ValueBytesOf(TimeSeriesTable Table, string Name) : IDataTypeVisitor<byte[]>
    {
        public byte[] Visit<T>(DataTypeInfo type)
            where T : unmanaged, System.Numerics.INumber<T>, System.Numerics.IMinMaxValue<T> =>
            MemoryMarshal.AsBytes(Table.Column<T>(Name).AsSpan(new IndexRange(0, Table.RowCount))).ToArray();
    }

    private static string Text(double value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Text(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Stamp(DateTime time) => time.ToString("yyyy-MM-dd HH:mm:ss.fffffff", CultureInfo.InvariantCulture);
}
