using System;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// A table's text column through the tool: exported to CSV (quoted where CSV needs it) and to Parquet as
/// dictionary-encoded strings, both read back by DuckDB as the same values; shown by head, tail and info; checked by
/// verify in either form, which fails a code no value has.
/// </summary>
public sealed class TextColumnCommandTests : IDisposable
{
    private static readonly string[] Conditions = ["@", "F,I", "say \"hi\"", "Ü ü", "", " padded ", "@", "line\nbreak"];
    private readonly TempDirectory _directory = new();
    private readonly DuckDb _duck = new();

    public void Dispose()
    {
        _duck.Dispose();
        _directory.Dispose();
    }

    private string Table => _directory.File("trades");

    private string[] Rows { get; } = [.. Enumerable.Range(0, 5000).Select(row => Conditions[(row * 5) % Conditions.Length])];

    private void CreateTable()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime).AddText("condition", DataType.Byte).Add<int>("size");
        using TimeSeriesTable table = TimeSeriesTable.Create(Table, schema);
        table.Text("condition").AddRange(Rows);
        table.Column<int>("size").AddRange([.. Rows.Select((_, row) => row)]);
        table.AddRows([.. Rows.Select((_, row) => new DateTime(2024, 1, 2, 9, 30, 0).AddMilliseconds(row))]);
    }

    /// <summary>DuckDB's reading of the condition column, joined in row order.</summary>
    private string DuckDbConditions(string from) =>
        _duck.Row($"SELECT string_agg(condition, '|' ORDER BY CAST(size AS INTEGER)) FROM {from}")[0];

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ExportCsvWritesEachValueAsCsvQuotesItAndDuckDbReadsTheSameValues(bool seal)
    {
        CreateTable();
        if (seal)
        {
            TimeSeriesTable.Seal(Table);
        }

        string csv = _directory.File("back.csv");
        ToolResult export = ToolRunner.Run("export", "csv", Table, "--out", csv);

        Assert.True(export.ExitCode == 0, export.Error);
        string[] lines = File.ReadAllText(csv).Split('\n');
        Assert.Equal("2024-01-02T09:30:00.0010000,\" padded \",1", lines[2]);
        Assert.Equal("2024-01-02T09:30:00.0020000,\"say \"\"hi\"\"\",2", lines[3]);
        Assert.Equal(string.Join('|', Rows), DuckDbConditions($"read_csv({DuckDb.Quote(csv)}, header = true, quote = '\"', all_varchar = true, allow_quoted_nulls = false)"));
    }

    [Fact]
    public void ExportParquetWritesDictionaryEncodedStringsThatDuckDbReadsAsTheSameValues()
    {
        CreateTable();
        string parquet = _directory.File("trades.parquet");

        ToolResult export = ToolRunner.Run("export", "parquet", Table, "--out", parquet, "--row-group-rows", "2000");

        Assert.True(export.ExitCode == 0, export.Error);
        Assert.Equal(string.Join('|', Rows), DuckDbConditions($"read_parquet({DuckDb.Quote(parquet)})"));
        Assert.Equal("VARCHAR", _duck.Row($"SELECT typeof(condition) FROM read_parquet({DuckDb.Quote(parquet)}) LIMIT 1")[0]);
        Assert.Contains("RLE_DICTIONARY", _duck.Row($"SELECT string_agg(encodings, ' ') FROM parquet_metadata({DuckDb.Quote(parquet)}) " +
            "WHERE path_in_schema = 'condition'")[0], StringComparison.Ordinal);
    }

    [Fact]
    public void HeadShowsTheValuesARowALineAndInfoTheColumnsFiles()
    {
        CreateTable();

        ToolResult head = ToolRunner.Run("head", Table, "-n", "8");
        ToolResult info = ToolRunner.Run("info", Table);

        Assert.True(head.ExitCode == 0, head.Error);
        Assert.Contains("Ü ü", head.Output, StringComparison.Ordinal);
        Assert.Contains("say \"hi\"", head.Output, StringComparison.Ordinal);
        Assert.Contains("line\\nbreak", head.Output, StringComparison.Ordinal);
        Assert.Equal(10, head.Output.TrimEnd('\n').Split('\n').Length);
        Assert.Contains("column condition: Text (Byte codes, 7 distinct values), condition.mmf and condition.text.mmf", info.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void VerifyPassesAHealthyTextColumnInEitherForm(bool seal)
    {
        CreateTable();
        if (seal)
        {
            TimeSeriesTable.Seal(Table);
        }

        ToolResult verify = ToolRunner.Run("verify", Table);

        Assert.True(verify.ExitCode == 0, verify.Output + verify.Error);
        Assert.Contains("text column 'condition', every row's code one of its 7 values", verify.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void VerifyFailsACodeNoValueHas()
    {
        CreateTable();
        using (var codes = new ListMmf<byte>(Path.Combine(Table, "condition.mmf")))
        {
            codes[4321] = 99;
        }

        ToolResult verify = ToolRunner.Run("verify", Table);

        Assert.NotEqual(0, verify.ExitCode);
        Assert.Contains("row 4,321 holds code 99", verify.Output + verify.Error, StringComparison.Ordinal);
    }

    [Fact]
    public void ImportCsvOfTextColumnsGivesBackTheValuesItsExportWrote()
    {
        CreateTable();
        string csv = _directory.File("trades.csv");
        string again = _directory.File("again.csv");
        Assert.Equal(0, ToolRunner.Run("export", "csv", Table, "--out", csv).ExitCode);

        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", _directory.File("back"), "--time", "time:iso",
            "--column", "condition:text8", "--column", "size:int");
        ToolResult export = ToolRunner.Run("export", "csv", _directory.File("back"), "--out", again);

        Assert.True(import.ExitCode == 0, import.Error);
        Assert.True(export.ExitCode == 0, export.Error);
        Assert.Equal(File.ReadAllText(csv), File.ReadAllText(again));
        using TimeSeriesTable back = TimeSeriesTable.Open(_directory.File("back"), FileAccess.Read);
        Assert.Equal(DataType.Byte, back.Text("condition").DataType);
        Assert.Equal(Rows, Enumerable.Range(0, Rows.Length).Select(row => back.Text("condition")[row]));
    }

    [Fact]
    public void ImportCsvRefusesAFieldThatIsNotUtf8NamingTheLineAndImportsNothing()
    {
        string csv = _directory.File("bad.csv");
        File.WriteAllBytes(csv, [.. "time,condition\n1704187800,@\n1704187801,"u8.ToArray(), 0xC3, 0x28, (byte)'\n']);

        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", Table, "--time", "time", "--column", "condition:text");

        Assert.NotEqual(0, import.ExitCode);
        Assert.Contains("line 3: column 'condition': its bytes are not UTF-8 text", import.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Table));
    }

    [Fact]
    public void ImportCsvIntoATableWhoseColumnIsNumbersRefusesTextNamingBoth()
    {
        string csv = _directory.File("rows.csv");
        File.WriteAllText(csv, "time,condition\n1704187800,@\n");
        Assert.Equal(0, ToolRunner.Run("import", "csv", csv, "--out", Table, "--time", "time", "--column", "condition:text").ExitCode);
        File.WriteAllText(csv, "time,condition\n1704187801,5\n");

        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", Table, "--time", "time", "--column", "condition:int");

        Assert.NotEqual(0, import.ExitCode);
        Assert.Contains("its column 'condition' holds Text (UInt16 codes), and the import gives 'condition' as Int32", import.Error, StringComparison.Ordinal);
    }
}
