using System;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Tables;

/// <summary>
/// A text column (<c>schema.AddText</c>): codes in one file, the distinct values in another, read as strings, followed
/// live by readers, made durable before their rows, sealed with the table, and refused when damaged.
/// </summary>
public sealed class TextColumnTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);
    private static readonly string[] Exchanges = ["Q", "N", "P", "Q", "Z", "N", "Q", "Ü-exchange", "", "Q"];
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Folder => _directory.File("trades");

    private TimeSeriesTable Create(DataType codes = DataType.Byte) => TimeSeriesTable.Create(
        Folder, new TimeSeriesTableSchema("time", DataType.DateTime).AddText("exchange", codes).Add<double>("price"));

    private static void AddRows(TimeSeriesTable table, string[] exchanges, int first = 0)
    {
        table.Text("exchange").AddRange(exchanges);
        table.Column<double>("price").AddRange([.. exchanges.Select((_, i) => 100.0 + first + i)]);
        table.AddRows([.. exchanges.Select((_, i) => Start.AddSeconds(first + i))]);
    }

    private static string[] Read(TextColumn column, long rows)
    {
        var values = new string[rows];
        column.CopyTo(new IndexRange(0, rows), values);
        return values;
    }

    [Fact]
    public void ValuesAddedAsARangeReadBackByRowAndByRange()
    {
        using (TimeSeriesTable writer = Create())
        {
            AddRows(writer, Exchanges);
        }

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder, FileAccess.Read);
        TextColumn column = table.Text("exchange");

        Assert.Equal(Exchanges, Read(column, table.RowCount));
        Assert.Equal(Exchanges, Enumerable.Range(0, Exchanges.Length).Select(row => column[row]));
    }

    [Fact]
    public void ValuesAddedOneAtATimeReadBackAsAddedAsARange()
    {
        using (TimeSeriesTable writer = Create())
        {
            for (int i = 0; i < Exchanges.Length; i++)
            {
                writer.Text("exchange").Add(Exchanges[i]);
                writer.Column<double>("price").Add(i);
                writer.AddRow(Start.AddSeconds(i));
            }
        }

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder, FileAccess.Read);

        Assert.Equal(Exchanges, Read(table.Text("exchange"), table.RowCount));
    }

    [Fact]
    public void CodesArePositionsOfTheDistinctValuesInTheOrderTheyFirstCame()
    {
        using TimeSeriesTable table = Create();
        AddRows(table, Exchanges);
        TextColumn column = table.Text("exchange");
        var codes = new int[Exchanges.Length];

        column.CopyCodes(new IndexRange(0, Exchanges.Length), codes);

        string[] distinct = [.. Exchanges.Distinct()];
        Assert.Equal(distinct, Enumerable.Range(0, column.EntryCount).Select(column.EntryAt));
        Assert.Equal(Exchanges.Select(value => Array.IndexOf(distinct, value)), codes);
        Assert.Equal(codes[7], column.CodeAt(7));
        Assert.Equal(Array.IndexOf(distinct, "Z"), column.CodeOf("Z"));
        Assert.Equal(-1, column.CodeOf("never added"));
    }

    [Fact]
    public void TheManifestRecordsTheColumnAsTextWithItsCodesTypeAndBothFiles()
    {
        Create(DataType.UInt16).Dispose();

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder, FileAccess.Read);
        TableColumnInfo info = table.Schema.Columns.Single(column => column.Name == "exchange");

        Assert.Equal(new TableColumnInfo("exchange", DataType.UInt16, "exchange.mmf") { EntriesFileName = "exchange.text.mmf" }, info);
        Assert.True(File.Exists(Path.Combine(Folder, "exchange.text.mmf")));
        Assert.Contains("\"type\": \"Text\"", File.ReadAllText(Path.Combine(Folder, TimeSeriesTable.ManifestFileName)));
    }

    [Fact]
    public void ByteCodesTakeOneByteARow()
    {
        using TimeSeriesTable table = Create(DataType.Byte);
        AddRows(table, Exchanges);

        ListMmfFileInfo codes = ListMmfFileInfo.Read(table.Text("exchange").Path);

        Assert.Equal(DataType.Byte, codes.DataType);
        Assert.Equal(1, codes.ItemSize);
        Assert.Equal(Exchanges.Length, codes.Count);
    }

    [Fact]
    public void AReaderOpenedBeforeNewValuesReadsThemOnceTheirRowsArePublished()
    {
        using TimeSeriesTable writer = Create();
        AddRows(writer, ["Q", "N"]);
        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        TextColumn column = reader.Text("exchange");
        Assert.Equal(["Q", "N"], Read(column, reader.RowCount));

        AddRows(writer, ["P", "Q", "X"], first: 2);

        Assert.Equal(["Q", "N", "P", "Q", "X"], Read(column, reader.RowCount));
        Assert.Equal("X", column[4]);
        Assert.Equal(4, column.EntryCount);
    }

    [Fact]
    public void ANewValueIsDurableBeforeItsRowIsPublished()
    {
        using TimeSeriesTable table = Create();
        TextColumn column = table.Text("exchange");

        column.Add("Q");

        ListMmfFileInfo entries = ListMmfFileInfo.Read(column.EntriesPath);
        Assert.Equal(2, entries.Count);
        Assert.Equal(entries.Count, entries.DurableCount);
        Assert.Equal(0, table.RowCount);
    }

    [Fact]
    public void AValueOfRowsNeverPublishedIsKeptAndItsCodeReusedByTheNextWriter()
    {
        using (TimeSeriesTable writer = Create())
        {
            AddRows(writer, ["Q"]);
            writer.Text("exchange").Add("N");
            writer.Column<double>("price").Add(1);
        }

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder);
        Assert.Contains(table.Repairs, repair => repair.Contains("'exchange'", StringComparison.Ordinal));
        Assert.Equal(2, table.Text("exchange").EntryCount);

        AddRows(table, ["N", "Q"], first: 1);

        Assert.Equal(["Q", "N", "Q"], Read(table.Text("exchange"), table.RowCount));
        Assert.Equal(2, table.Text("exchange").EntryCount);
    }

    [Fact]
    public void AValueBeyondWhatTheCodesTellApartIsRefusedNamingTheColumnAndNothingIsStored()
    {
        using TimeSeriesTable table = Create(DataType.Byte);
        AddRows(table, [.. Enumerable.Range(0, 256).Select(i => $"c{i}")]);
        TextColumn column = table.Text("exchange");

        string[] batch = [.. Enumerable.Range(0, 600).Select(i => $"c{i % 256}"), "new one"];

        ListMmfException refused = Assert.Throws<ListMmfException>(() => column.AddRange(batch));

        Assert.Contains("256", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'exchange'", refused.Message, StringComparison.Ordinal);
        Assert.Equal(256, column.EntryCount);
        Assert.Equal(256, ListMmfFileInfo.Read(column.Path).Count);
    }

    [Fact]
    public void ANullValueIsRefusedAndNothingIsStored()
    {
        using TimeSeriesTable table = Create();
        TextColumn column = table.Text("exchange");

        Assert.Throws<ArgumentNullException>(() => column.AddRange(["Q", null!]));

        Assert.Equal(0, column.EntryCount);
        Assert.Equal(0, ListMmfFileInfo.Read(column.Path).Count);
    }

    [Fact]
    public void ASealedTableReadsItsTextAsBeforeAndUnsealedTakesNewValues()
    {
        string[] many = [.. Enumerable.Range(0, 5000).Select(i => Exchanges[(i * 7) % Exchanges.Length])];
        using (TimeSeriesTable writer = Create())
        {
            AddRows(writer, many);
        }

        TimeSeriesTable.Seal(Folder);
        using (TimeSeriesTable sealedTable = TimeSeriesTable.Open(Folder, FileAccess.Read))
        {
            TextColumn column = sealedTable.Text("exchange");
            Assert.True(column.IsSealed);
            Assert.Equal(many, Read(column, sealedTable.RowCount));
            Assert.Equal(many[4321], column[4321]);
            sealedTable.Verify();
        }

        TimeSeriesTable.Unseal(Folder);
        using TimeSeriesTable table = TimeSeriesTable.Open(Folder);
        AddRows(table, ["new"], first: many.Length);
        Assert.Equal([.. many, "new"], Read(table.Text("exchange"), table.RowCount));
    }

    [Fact]
    public void ACodeNoValueHasIsRefusedByReadsAndByVerifyNamingTheRow()
    {
        using (TimeSeriesTable writer = Create())
        {
            AddRows(writer, Exchanges);
        }

        using (var codes = new ListMmf<byte>(Path.Combine(Folder, "exchange.mmf")))
        {
            codes[6] = 200;
        }

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder, FileAccess.Read);
        ListMmfFormatException read = Assert.Throws<ListMmfFormatException>(() => table.Text("exchange")[6]);
        ListMmfFormatException verify = Assert.Throws<ListMmfFormatException>(table.Verify);

        Assert.Contains("row 6 holds code 200", read.Message, StringComparison.Ordinal);
        Assert.Contains("row 6 holds code 200", verify.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new byte[] { 2, 0xC3, 0x28 }, "not UTF-8")]
    [InlineData(new byte[] { 1, (byte)'Q', 1, (byte)'Q' }, "repeats value 0")]
    [InlineData(new byte[] { 9, (byte)'Q' }, "run past the file's end")]
    [InlineData(new byte[] { 0x81, 0x00 }, "shortest LEB128")]
    [InlineData(new byte[] { 0x81, 0x80, 0x80, 0x80, 0x10, (byte)'A' }, "shortest LEB128")]
    [InlineData(new byte[] { 0x81, 0x80, 0x80, 0x80, 0x80, 0x01 }, "more than five bytes")]
    public void ADamagedValuesFileIsRefusedAtOpenNamingTheFileAndTheProblem(byte[] entries, string problem)
    {
        Create().Dispose();
        string path = Path.Combine(Folder, "exchange.text.mmf");
        using (var bytes = new ListMmf<byte>(path))
        {
            bytes.AddRange(entries);
        }

        ListMmfFormatException refused = Assert.Throws<ListMmfFormatException>(() => TimeSeriesTable.Open(Folder, FileAccess.Read));

        Assert.Equal(path, refused.FilePath);
        Assert.Contains(problem, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AValueUtf8CannotHoldIsRefusedAndNothingIsAppended()
    {
        using TimeSeriesTable table = Create();
        TextColumn column = table.Text("exchange");

        Assert.Throws<ArgumentException>(() => column.AddRange(["Q", "lone \uD800 surrogate"]));

        Assert.Equal(0, ListMmfFileInfo.Read(column.EntriesPath).Count);
        Assert.Equal(0, ListMmfFileInfo.Read(column.Path).Count);
    }

    [Fact]
    public void TheCodesOfATextColumnAreNotAddedThroughTheColumnOfNumbers()
    {
        using TimeSeriesTable table = Create();
        var codes = (TableColumn<byte>)table.Text("exchange").Codes;

        Assert.Throws<NotSupportedException>(() => codes.Add(7));
        Assert.Throws<NotSupportedException>(() => codes.AddRange([7, 8]));
    }

    [Fact]
    public void BarsOfATextColumnAreRefusedNamingIt()
    {
        using TimeSeriesTable table = Create();
        AddRows(table, Exchanges);

        ListMmfDataTypeException refused = Assert.Throws<ListMmfDataTypeException>(
            () => table.Bars("exchange", "price", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromMinutes(1)));

        Assert.Contains("'exchange'", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AMissingValuesFileIsRefusedNamingThatFile()
    {
        Create().Dispose();
        string entries = Path.Combine(Folder, "exchange.text.mmf");
        File.Delete(entries);

        ListMmfFormatException refused = Assert.Throws<ListMmfFormatException>(() => TimeSeriesTable.Open(Folder, FileAccess.Read));

        Assert.Equal(entries, refused.FilePath);
        Assert.Contains("'exchange.text.mmf', does not exist", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AManifestWithATextColumnIsVersion2AndOneOfNumbersOnlyStaysVersion1()
    {
        Create().Dispose();
        TimeSeriesTable.Create(_directory.File("numbers"), new TimeSeriesTableSchema("time").Add<double>("price")).Dispose();

        Assert.Contains("\"version\": 2", File.ReadAllText(Path.Combine(Folder, TimeSeriesTable.ManifestFileName)), StringComparison.Ordinal);
        Assert.Contains("\"version\": 1", File.ReadAllText(_directory.File("numbers/table.json")), StringComparison.Ordinal);
    }

    [Fact]
    public void ColumnOfNumbersOnATextColumnAndTextOnANumberColumnAreRefused()
    {
        using TimeSeriesTable table = Create();

        Assert.Throws<ListMmfDataTypeException>(() => table.Column<byte>("exchange"));
        Assert.Throws<ListMmfDataTypeException>(() => table.Text("price"));
    }

    [Theory]
    [InlineData(DataType.Int32)]
    [InlineData(DataType.UInt64)]
    [InlineData(DataType.Double)]
    public void ASchemaRefusesCodesOtherThanUnsignedBytesShortsAndInts(DataType codes)
    {
        var schema = new TimeSeriesTableSchema("time");

        Assert.Throws<ArgumentException>(() => schema.AddText("exchange", codes));
    }

    [Fact]
    public void ASchemaRefusesAValuesFileThatIsAnotherColumnsFile()
    {
        var schema = new TimeSeriesTableSchema("time").Add<int>("size");

        Assert.Throws<ArgumentException>(() => schema.AddText("exchange", entriesFileName: "size.mmf"));
        Assert.Throws<ArgumentException>(() => schema.AddText("exchange", fileName: "x.mmf", entriesFileName: "x.mmf"));
        Assert.Single(schema.Columns);
    }

    [Fact]
    public void UpgradeConvertsTheValuesFileWithTheColumns()
    {
        var version1 = new ListMmfOptions { FormatVersion = ListMmfFormatVersion.Version1 };
        using (TimeSeriesTable writer = TimeSeriesTable.Create(
            Folder, new TimeSeriesTableSchema("time", DataType.DateTime).AddText("exchange", DataType.Byte).Add<double>("price"), version1))
        {
            AddRows(writer, Exchanges);
        }

        Assert.Equal(4, TimeSeriesTable.Upgrade(Folder));

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder, FileAccess.Read);
        Assert.Equal(2, ListMmfFileInfo.Read(table.Text("exchange").EntriesPath).Version);
        Assert.Equal(Exchanges, Read(table.Text("exchange"), table.RowCount));
    }
}
