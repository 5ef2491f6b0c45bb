using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// export parquet and import parquet: round trips, checked by DuckDB both ways (what we write, DuckDB reads; what
/// DuckDB writes, we read), and every bad input the issue names, each refused in one line with nothing published.
/// </summary>
public sealed class ParquetCommandTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly DuckDb _duck = new();

    public void Dispose()
    {
        _duck.Dispose();
        _directory.Dispose();
    }

    private string Table => _directory.File("table");

    private string Back => _directory.File("back");

    private string ParquetFile => _directory.File("ticks.parquet");

    /// <summary>Three ticks a second from 2024-01-02 09:30, prices in quarter points, sizes 1 to 97.</summary>
    private void CreateTable(int rows, string folder)
    {
        var text = new StringBuilder("time,price,size\n");
        for (int i = 0; i < rows; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{1704187800 + (i / 3)},{4500 + ((i % 1000) * 0.25)},{(i % 97) + 1}\n");
        }

        string csv = _directory.File($"{Path.GetFileName(folder)}.csv");
        File.WriteAllText(csv, text.ToString());
        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", folder, "--time", "time", "--column", "price:double", "--column", "size:int", "--order", "ascending-or-equal");
        Assert.True(import.ExitCode == 0, import.Error);
    }

    private ToolResult Export(string table, params string[] extra) => ToolRunner.Run(["export", "parquet", table, "--out", ParquetFile, .. extra]);

    private ToolResult ImportParquet(string parquet, params string[] extra) => ToolRunner.Run(["import", "parquet", parquet, "--out", Back, .. extra]);

    [Fact]
    public void ExportThenImportGivesBackTheSameTable()
    {
        CreateTable(10_000, Table);

        ToolResult export = Export(Table, "--row-group-rows", "3000");
        ToolResult import = ImportParquet(ParquetFile);

        Assert.True(export.ExitCode == 0, export.Error);
        Assert.Contains("exported 10,000 rows", export.Output);
        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable original = TimeSeriesTable.Open(Table, FileAccess.Read);
        using TimeSeriesTable back = TimeSeriesTable.Open(Back, FileAccess.Read);
        Assert.Equal(DataType.UnixSeconds, back.Schema.Time.DataType);
        Assert.Equal(TimeSeriesOrder.AscendingOrEqual, back.Schema.Order);
        var all = new IndexRange(0, 10_000);
        Assert.True(original.Column<int>("time").AsSpan(all).SequenceEqual(back.Column<int>("time").AsSpan(all)), "times differ");
        Assert.True(original.Column<double>("price").AsSpan(all).SequenceEqual(back.Column<double>("price").AsSpan(all)), "prices differ");
        Assert.True(original.Column<int>("size").AsSpan(all).SequenceEqual(back.Column<int>("size").AsSpan(all)), "sizes differ");
    }

    [Fact]
    public void DuckDbReadsWhatWeExportAsTheTableHoldsIt()
    {
        CreateTable(10_000, Table);

        Assert.Equal(0, Export(Table, "--row-group-rows", "4096").ExitCode);

        using TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read);
        var all = new IndexRange(0, table.RowCount);
        string file = DuckDb.Quote(ParquetFile);
        Assert.Equal(
            ["10000", Stamp(table.TimeAt(0)), Stamp(table.TimeAt(9_999)), Sum(table.Column<double>("price").AsSpan(all)), table.Column<int>("size").AsSpan(all).ToArray().Sum(s => (long)s).ToString(CultureInfo.InvariantCulture)],
            _duck.Row($"select count(*), min(time), max(time), sum(price), sum(size) from {file}"));
        foreach (long row in new long[] { 0, 1, 2, 4095, 4096, 7777, 9_999 })
        {
            Assert.Equal(
                [Stamp(table.TimeAt(row)), table.Column<double>("price")[row].ToString(CultureInfo.InvariantCulture), table.Column<int>("size")[row].ToString(CultureInfo.InvariantCulture)],
                _duck.Row($"select time, price, size from read_parquet({file}, file_row_number = true) where file_row_number = {row}"));
        }

        Assert.Equal(["3", "TIMESTAMP"], _duck.Row($"select count(*), any_value(typeof(time)) from (select distinct row_group_id from parquet_metadata({file})), (select time from {file} limit 1)"));
    }

    [Fact]
    public void WeImportWhatDuckDbWritesAsDuckDbReadsIt()
    {
        string file = DuckDb.Quote(ParquetFile);
        _duck.Execute($"""
            copy (select timestamp '2024-01-02 09:30:00' + to_microseconds(i * 250000) as time, (4500 + (i % 400) * 0.25)::double as price,
                         (i % 97 + 1)::integer as size, (i * 7)::bigint as sequence, (i % 120)::tinyint as venue
                  from range(50000) t(i)) to {file} (format parquet, row_group_size 8192)
            """);

        ToolResult import = ImportParquet(ParquetFile);

        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable table = TimeSeriesTable.Open(Back, FileAccess.Read);
        Assert.Equal(DataType.DateTime, table.Schema.Time.DataType);
        Assert.Equal(["price", "size", "sequence", "venue"], table.Schema.Columns.Select(column => column.Name));
        Assert.Equal(DataType.SByte, table.Schema.Columns[3].DataType);
        var all = new IndexRange(0, table.RowCount);
        string[] ours =
            [
                table.RowCount.ToString(CultureInfo.InvariantCulture), Stamp(table.TimeAt(0)), Stamp(table.TimeAt(table.RowCount - 1)),
                Sum(table.Column<double>("price").AsSpan(all)),
                table.Column<int>("size").AsSpan(all).ToArray().Sum(s => (long)s).ToString(CultureInfo.InvariantCulture),
                table.Column<long>("sequence").AsSpan(all).ToArray().Sum().ToString(CultureInfo.InvariantCulture),
                table.Column<sbyte>("venue").AsSpan(all).ToArray().Sum(v => (long)v).ToString(CultureInfo.InvariantCulture),
            ];
        Assert.Equal(_duck.Row($"select count(*), min(time), max(time), sum(price), sum(size), sum(sequence), sum(venue) from {file}"), ours);
        foreach (long row in new long[] { 0, 8191, 8192, 33_333, 49_999 })
        {
            string[] ourRow = [Stamp(table.TimeAt(row)), table.Column<double>("price")[row].ToString(CultureInfo.InvariantCulture), table.Column<int>("size")[row].ToString(CultureInfo.InvariantCulture), table.Column<long>("sequence")[row].ToString(CultureInfo.InvariantCulture)];
            Assert.Equal(_duck.Row($"select time, price, size, sequence from read_parquet({file}, file_row_number = true) where file_row_number = {row}"), ourRow);
        }
    }

    [Theory]
    [InlineData("zstd")]
    [InlineData("gzip")]
    [InlineData("lz4")]
    [InlineData("none")]
    public void EveryCompressionIsReadByDuckDb(string compression)
    {
        CreateTable(1_000, Table);

        Assert.Equal(0, Export(Table, "--compression", compression).ExitCode);

        string expected = compression == "none" ? "UNCOMPRESSED" : compression == "lz4" ? "LZ4_RAW" : compression.ToUpperInvariant();
        Assert.Equal(["1000", expected], _duck.Row($"select count(*), (select any_value(compression) from parquet_metadata({DuckDb.Quote(ParquetFile)})) from {DuckDb.Quote(ParquetFile)}"));
    }

    [Fact]
    public void TheCompressionLevelReachesTheCodec()
    {
        CreateTable(20_000, Table);
        string smallest = _directory.File("smallest.parquet");

        Assert.Equal(0, Export(Table, "--compression", "gzip", "--compression-level", "fastest").ExitCode);
        Assert.Equal(0, ToolRunner.Run("export", "parquet", Table, "--out", smallest, "--compression", "gzip", "--compression-level", "smallest").ExitCode);

        Assert.True(new FileInfo(smallest).Length < new FileInfo(ParquetFile).Length, $"smallest {new FileInfo(smallest).Length:N0} bytes, fastest {new FileInfo(ParquetFile).Length:N0}");
        Assert.Equal(["20000"], _duck.Row($"select count(*) from {DuckDb.Quote(smallest)}"));
    }

    [Fact]
    public void TicksTablesExportToTheTickAsNanosecondTimestamps()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.Ascending).Add<float>("price");
        DateTime first = new DateTime(2024, 1, 2, 9, 30, 0).AddTicks(1234567);
        using (TimeSeriesTable table = TimeSeriesTable.Create(Table, schema))
        {
            for (int row = 0; row < 5; row++)
            {
                table.Column<float>("price").Add(row);
                table.AddRow(first.AddTicks(row));
            }
        }

        Assert.Equal(0, Export(Table).ExitCode);
        Assert.Equal(0, ImportParquet(ParquetFile).ExitCode);

        Assert.Equal(["TIMESTAMP_NS", (((first.AddTicks(4) - DateTime.UnixEpoch).Ticks * 100)).ToString(CultureInfo.InvariantCulture)], _duck.Row($"select typeof(max(time)), epoch_ns(max(time)) from {DuckDb.Quote(ParquetFile)}"));
        using TimeSeriesTable back = TimeSeriesTable.Open(Back, FileAccess.Read);
        Assert.Equal(first.AddTicks(4), back.TimeAt(4));
    }

    [Fact]
    public void AFailedExportLeavesTheTargetAsItWas()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.Ascending).Add<float>("price");
        using (TimeSeriesTable table = TimeSeriesTable.Create(Table, schema))
        {
            table.Column<float>("price").Add(1);
            table.AddRow(new DateTime(2300, 1, 1));
        }

        File.WriteAllText(ParquetFile, "the old file");

        ToolResult result = Export(Table, "--force");

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains("outside what a Parquet nanosecond timestamp holds", result.Error);
        Assert.Equal("the old file", File.ReadAllText(ParquetFile));
        Assert.Equal([ParquetFile], Directory.GetFiles(_directory.Path, "ticks.parquet*"));
    }

    [Fact]
    public void DateTimeMinValueInASecondsTableTravelsAsWhatItStandsFor()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.Ascending).Add<double>("price");
        using (TimeSeriesTable table = TimeSeriesTable.Create(Table, schema))
        {
            table.Column<double>("price").Add(1);
            table.AddRow(DateTime.MinValue);
            table.Column<double>("price").Add(2);
            table.AddRow(new DateTime(2024, 1, 2));
        }

        Assert.Equal(0, Export(Table).ExitCode);
        ToolResult import = ImportParquet(ParquetFile);

        Assert.Equal(["0001-01-01 00:00:00.0000000"], _duck.Row($"select min(time) from {DuckDb.Quote(ParquetFile)}"));
        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable back = TimeSeriesTable.Open(Back, FileAccess.Read);
        Assert.Equal(DateTime.MinValue, back.TimeAt(0));
    }

    [Fact]
    public void AnExportedFilesOrderDoesNotStopAnAppendToATableOfAnother()
    {
        TimeSeriesTable Create(string folder, TimeSeriesOrder order, DateTime first, int rows)
        {
            TimeSeriesTable table = TimeSeriesTable.Create(folder, new TimeSeriesTableSchema("time", DataType.UnixSeconds, order).Add<double>("price"));
            for (int row = 0; row < rows; row++)
            {
                table.Column<double>("price").Add(row);
                table.AddRow(first.AddSeconds(row));
            }

            return table;
        }

        Create(Table, TimeSeriesOrder.AscendingOrEqual, new DateTime(2024, 1, 2), 5).Dispose();
        Create(Back, TimeSeriesOrder.Ascending, new DateTime(2020, 1, 1), 3).Dispose();
        Assert.Equal(0, Export(Table).ExitCode);

        // The file records AscendingOrEqual; its rows are strictly ascending, which the Ascending table takes.
        ToolResult import = ImportParquet(ParquetFile);

        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable back = TimeSeriesTable.Open(Back, FileAccess.Read);
        Assert.Equal(TimeSeriesOrder.Ascending, back.Schema.Order);
        Assert.Equal(8, back.RowCount);
    }

    [Fact]
    public void ColumnNamesThatCannotBeFileNamesAreRefusedNamingTheFile()
    {
        ToolResult result = ImportDuckDbFile("select timestamp '2024-01-02' + to_seconds(i) as time, i::double as \"a/b\" from range(10) t(i)");

        AssertRefusedWithNothingPublished(result, "its columns cannot be a table's", "ticks.parquet");
    }

    [Fact]
    public void AnExportBesideAnotherExportsTemporaryFileLeavesItAloneAndPublishesItsOwn()
    {
        CreateTable(100, Table);
        string otherTemporary = ParquetFile + ".listmmf.tmp";
        using (var other = new FileStream(otherTemporary, FileMode.CreateNew, FileAccess.Write, FileShare.None))
        {
            other.WriteByte(42);
            other.Flush();

            ToolResult result = Export(Table);

            Assert.Equal(0, result.ExitCode);
        }

        Assert.Equal([42], File.ReadAllBytes(otherTemporary));
        Assert.True(File.Exists(ParquetFile));
    }

    [Theory]
    [InlineData("(i * 0.25) as price", "column 'price' holds DECIMAL, which a table cannot hold")]
    [InlineData("encode('x' || i) as price", "column 'price' holds bytes, which a table cannot hold")]
    [InlineData("i % 2 = 0 as price", "column 'price' holds Boolean, which a table cannot hold")]
    [InlineData("[i, i] as price", "column 'price' is a list")]
    [InlineData("{'bid': i, 'ask': i} as price", "column 'price' is a struct")]
    public void ColumnsOfTypesATableCannotHoldAreRefused(string column, string said)
    {
        ToolResult result = ImportDuckDbFile($"select timestamp '2024-01-02' + to_seconds(i) as time, {column} from range(10) t(i)");

        AssertRefusedWithNothingPublished(result, said);
    }

    private static readonly string[] Exchanges = ["Q", "N", "", "Ü,\"x\"", "日本"];

    [Theory]
    [InlineData("V1")]
    [InlineData("V2")]
    public void StringsDuckDbWritesBecomeATextColumnOfTheSameValues(string version)
    {
        _duck.Execute($"copy (select timestamp '2024-01-02' + to_seconds(i) as time, " +
            $"['Q', 'N', '', 'Ü,\"x\"', '日本'][1 + i % 5] || (case when i % 1000 = 0 then i::varchar else '' end) as exchange, " +
            $"i::int as size from range(20000) t(i)) to {DuckDb.Quote(ParquetFile)} (format parquet, parquet_version {version}, row_group_size 7000)");

        ToolResult result = ImportParquet(ParquetFile);

        Assert.True(result.ExitCode == 0, result.Error);
        using TimeSeriesTable table = TimeSeriesTable.Open(Back, FileAccess.Read);
        TextColumn exchange = table.Text("exchange");
        Assert.Equal(DataType.UInt16, exchange.DataType);
        string[] expected = [.. Enumerable.Range(0, 20000).Select(i => Exchanges[i % 5] + (i % 1000 == 0 ? i.ToString(CultureInfo.InvariantCulture) : ""))];
        var read = new string[20000];
        exchange.CopyTo(new IndexRange(0, 20000), read);
        Assert.Equal(expected, read);
    }

    [Fact]
    public void ATextColumnExportedAndImportedComesBackTheSameWithItsCodes()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime).AddText("exchange", DataType.Byte).Add<int>("size");
        string[] values = [.. Enumerable.Range(0, 5000).Select(i => $"S{i % 200}")];
        using (TimeSeriesTable table = TimeSeriesTable.Create(Table, schema))
        {
            table.Text("exchange").AddRange(values);
            table.Column<int>("size").AddRange([.. Enumerable.Range(0, 5000)]);
            table.AddRows([.. Enumerable.Range(0, 5000).Select(i => new DateTime(2024, 1, 2).AddMilliseconds(i))]);
        }

        Assert.Equal(0, Export(Table, "--row-group-rows", "1500").ExitCode);
        ToolResult result = ImportParquet(ParquetFile);

        Assert.True(result.ExitCode == 0, result.Error);
        using TimeSeriesTable back = TimeSeriesTable.Open(Back, FileAccess.Read);
        var read = new string[5000];
        back.Text("exchange").CopyTo(new IndexRange(0, 5000), read);
        Assert.Equal(values, read);
        Assert.Equal(DataType.Byte, back.Text("exchange").DataType);
    }

    [Fact]
    public void ANullStringIsRefusedNamingItsRowAndColumn()
    {
        ToolResult result = ImportDuckDbFile("select timestamp '2024-01-02' + to_seconds(i) as time, case when i = 4 then null else 'Q' end as exchange from range(10) t(i)");

        AssertRefusedWithNothingPublished(result, "row 4: column 'exchange' is null");
    }

    [Fact]
    public void ANullValueIsRefusedNamingItsRowAndColumn()
    {
        ToolResult result = ImportDuckDbFile("select timestamp '2024-01-02' + to_seconds(i) as time, case when i = 7 then null else i::double end as price from range(10) t(i)");

        AssertRefusedWithNothingPublished(result, "row 7: column 'price' is null");
    }

    [Fact]
    public void ANullTimeIsRefusedNamingItsRow()
    {
        ToolResult result = ImportDuckDbFile("select case when i = 3 then null else timestamp '2024-01-02' + to_seconds(i) end as time, i::double as price from range(10) t(i)");

        AssertRefusedWithNothingPublished(result, "row 3: column 'time' is null");
    }

    [Fact]
    public void UnsortedTimesAreRefusedNamingTheRow()
    {
        ToolResult result = ImportDuckDbFile("select timestamp '2024-01-02' + to_seconds(case when i = 6 then 2 else i end) as time, i::double as price from range(10) t(i)");

        AssertRefusedWithNothingPublished(result, "row 6: time 2024-01-02 00:00:02", "is before the previous row's");
    }

    [Fact]
    public void ATruncatedFileIsRefused()
    {
        _duck.Execute($"copy (select timestamp '2024-01-02' + to_seconds(i) as time, i::double as price from range(1000) t(i)) to {DuckDb.Quote(ParquetFile)} (format parquet)");
        byte[] whole = File.ReadAllBytes(ParquetFile);
        File.WriteAllBytes(ParquetFile, whole[..(whole.Length / 2)]);

        AssertRefusedWithNothingPublished(ImportParquet(ParquetFile), "is not a whole Parquet file");
    }

    [Fact]
    public void AFileOfOtherBytesIsRefused()
    {
        File.WriteAllText(ParquetFile, "time,price\n1704187800,4500\n");

        AssertRefusedWithNothingPublished(ImportParquet(ParquetFile), "is not a whole Parquet file");
    }

    [Fact]
    public void AFailedImportIntoAnExistingTableLeavesItsRows()
    {
        CreateTable(30, Back);
        Assert.Equal(0, Export(Back).ExitCode);

        // The same rows again: the first one's time is before the table's last.
        ToolResult result = ImportParquet(ParquetFile);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("row 0: time", result.Error);
        using TimeSeriesTable table = TimeSeriesTable.Open(Back, FileAccess.Read);
        Assert.Equal(30, table.RowCount);
    }

    [Fact]
    public void ATableOfOtherColumnsIsRefused()
    {
        CreateTable(3, Back);

        ToolResult result = ImportDuckDbFile("select timestamp '2030-01-02' + to_seconds(i) as time, i::double as price from range(10) t(i)");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("does not match", result.Error);
    }

    private ToolResult ImportDuckDbFile(string select)
    {
        _duck.Execute($"copy ({select}) to {DuckDb.Quote(ParquetFile)} (format parquet)");
        return ImportParquet(ParquetFile);
    }

    private void AssertRefusedWithNothingPublished(ToolResult result, params string[] said)
    {
        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        foreach (string part in said)
        {
            Assert.Contains(part, result.Error);
        }

        Assert.Contains("Nothing was imported", result.Error);
        Assert.False(Directory.Exists(Back), "the failed import left its table folder");
    }

    private static string Stamp(DateTime time) => time.ToString("yyyy-MM-dd HH:mm:ss.fffffff", CultureInfo.InvariantCulture);

    private static string Sum(ReadOnlySpan<double> values)
    {
        double sum = 0;
        foreach (double value in values)
        {
            sum += value;
        }

        return sum.ToString(CultureInfo.InvariantCulture);
    }
}
