using System;
using System.IO;
using System.Linq;
using Apache.Arrow.Ipc;
using Apache.Arrow.Types;
using ListMmf.Arrow;
using ParquetSharp;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// A time zone is never dropped on the way in or out: zoned times make or require a table recorded as UTC, and such a
/// table leaves with its zone in CSV, Parquet and Arrow IPC.
/// </summary>
public sealed class TimeZoneTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Table => _directory.File("table");

    private ToolResult ImportCsv(string text, string? table = null)
    {
        string csv = _directory.File($"{Guid.NewGuid():N}.csv");
        File.WriteAllText(csv, text);
        return ToolRunner.Run("import", "csv", csv, "--out", table ?? Table, "--time", "time", "--column", "price:double");
    }

    private (bool Utc, DateTime[] Times) Read(string? table = null)
    {
        using TimeSeriesTable opened = TimeSeriesTable.Open(table ?? Table, FileAccess.Read);
        return (opened.Schema.TimesAreUtc, Enumerable.Range(0, (int)opened.RowCount).Select(row => opened.TimeAt(row)).ToArray());
    }

    [Fact]
    public void CsvTimesEndingInZMakeAUtcTable()
    {
        Assert.Equal(0, ImportCsv("time,price\n2024-01-02T09:30:00Z,1\n2024-01-02T09:30:01Z,2\n").ExitCode);

        (bool utc, DateTime[] times) = Read();

        Assert.True(utc);
        Assert.Equal(new DateTime(2024, 1, 2, 9, 30, 0), times[0]);
    }

    [Theory]
    [InlineData("2024-01-02T10:30:00+01:00")]
    [InlineData("2024-01-02T10:30:00+0100")]
    [InlineData("2024-01-02T10:30:00+01")]
    [InlineData("2024-01-02T04:30:00.0000000-05:00")]
    public void CsvTimesWithAnOffsetAreConvertedToUtc(string time)
    {
        ToolResult result = ImportCsv($"time,price\n{time},1\n");

        Assert.Equal(0, result.ExitCode);
        Assert.Equal((true, new DateTime(2024, 1, 2, 9, 30, 0)), (Read().Utc, Read().Times[0]));
    }

    [Theory]
    [InlineData("2024-01-02T09:30:00Z", "2024-01-02T09:30:01", "has no zone")]
    [InlineData("2024-01-02T09:30:00", "2024-01-02T09:30:01Z", "has a zone")]
    [InlineData("2024-01-02T09:30:00", "2024-01-02T09:30:01+01:00", "has a zone")]
    public void CsvTimesWithAndWithoutAZoneInOneFileAreRefusedNamingTheLine(string first, string second, string problem)
    {
        ToolResult result = ImportCsv($"time,price\n{first},1\n{second},2\n");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"line 3: time '{second}' {problem}", result.Error);
        Assert.False(Directory.Exists(Table), "a table was made of a refused file");
    }

    [Fact]
    public void ZonedTimesIntoATableNotRecordedAsUtcAreRefused()
    {
        Assert.Equal(0, ImportCsv("time,price\n2024-01-02T09:30:00,1\n").ExitCode);

        ToolResult result = ImportCsv("time,price\n2024-01-02T09:30:01Z,2\n");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("not recorded as UTC", result.Error);
        Assert.Single(Read().Times);
    }

    [Fact]
    public void TimesWithoutAZoneIntoAUtcTableAreRefused()
    {
        Assert.Equal(0, ImportCsv("time,price\n2024-01-02T09:30:00Z,1\n").ExitCode);

        ToolResult result = ImportCsv("time,price\n2024-01-02T09:30:01,2\n");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("recorded as UTC, and the source's times have no zone", result.Error);
        Assert.Single(Read().Times);
    }

    [Fact]
    public void AUtcTableExportsCsvTimesEndingInZAndComesBackUtc()
    {
        Assert.Equal(0, ImportCsv("time,price\n2024-01-02T09:30:00Z,1\n").ExitCode);
        string csv = _directory.File("back.csv");

        Assert.Equal(0, ToolRunner.Run("export", "csv", Table, "--out", csv).ExitCode);
        Assert.Equal(0, ToolRunner.Run("import", "csv", csv, "--out", _directory.File("back"), "--time", "time", "--column", "price:double").ExitCode);

        Assert.Contains("2024-01-02T09:30:00.0000000Z,1", File.ReadAllText(csv));
        Assert.True(Read(_directory.File("back")).Utc);
    }

    [Theory]
    [InlineData("2024-01-02T09:30:00Z", true)]
    [InlineData("2024-01-02T09:30:00", false)]
    public void ParquetTimestampsAreAdjustedToUtcExactlyWhenTheTableIsUtcAndComeBackSo(string time, bool utc)
    {
        Assert.Equal(0, ImportCsv($"time,price\n{time},1\n").ExitCode);
        string parquet = _directory.File("ticks.parquet");

        Assert.Equal(0, ToolRunner.Run("export", "parquet", Table, "--out", parquet).ExitCode);
        Assert.Equal(0, ToolRunner.Run("import", "parquet", parquet, "--out", _directory.File("back")).ExitCode);

        using (var reader = new ParquetFileReader(parquet))
        {
            using LogicalType logical = reader.FileMetaData.Schema.Column(0).LogicalType;
            Assert.Equal(utc, ((TimestampLogicalType)logical).IsAdjustedToUtc);
        }

        Assert.Equal(utc, Read(_directory.File("back")).Utc);
    }

    [Fact]
    public void ADuckDbTimestampWithTimeZoneImportsAsAUtcTableOfTheSameInstants()
    {
        string parquet = _directory.File("duck.parquet");
        using (var duck = new DuckDb())
        {
            duck.Execute("SET TimeZone='America/New_York'");
            duck.Execute($"COPY (SELECT TIMESTAMPTZ '2024-01-02 09:30:00-05:00' AS time, 1.5::DOUBLE AS price) TO {DuckDb.Quote(parquet)} (FORMAT parquet)");
        }

        ToolResult result = ToolRunner.Run("import", "parquet", parquet, "--out", Table);

        Assert.Equal(0, result.ExitCode);
        Assert.Equal((true, new DateTime(2024, 1, 2, 14, 30, 0)), (Read().Utc, Read().Times[0]));
    }

    [Fact]
    public void AnArrowFileOfAUtcTableHasItsTimesInUtc()
    {
        Assert.Equal(0, ImportCsv("time,price\n2024-01-02T09:30:00Z,1\n").ExitCode);
        string arrow = _directory.File("ticks.arrow");
        using (TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read))
        {
            table.WriteArrowFile(arrow);
        }

        using var reader = ArrowFileReader.FromFile(arrow);

        Assert.Equal("UTC", ((TimestampType)reader.Schema.GetFieldByName("time").DataType).Timezone);
    }

    [Theory]
    [InlineData("info")]
    [InlineData("head")]
    [InlineData("tail")]
    public void AUtcTablesTimesAreShownEndingInZ(string command)
    {
        Assert.Equal(0, ImportCsv("time,price\n2024-01-02T09:30:00Z,1\n2024-01-02T09:30:01Z,2\n").ExitCode);

        ToolResult result = ToolRunner.Run(command, Table);

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("2024-01-02 09:30:01.0000000Z", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void ADateTimeValueColumnOfAUtcTableIsShownEndingInZAsArrowZonesIt()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.Ascending) { TimesAreUtc = true }
            .Add("expiry", DataType.DateTime);
        using (TimeSeriesTable table = TimeSeriesTable.Create(Table, schema))
        {
            table.Column<DateTime>("expiry").Add(new DateTime(2024, 3, 15, 20, 0, 0, DateTimeKind.Utc));
            table.AddRow(new DateTime(2024, 1, 2, 9, 30, 0, DateTimeKind.Utc));
        }

        ToolResult result = ToolRunner.Run("head", Table);

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("2024-03-15 20:00:00.0000000Z", result.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("info")]
    [InlineData("head")]
    public void TimesOfNoRecordedZoneAreShownWithoutAZ(string command)
    {
        Assert.Equal(0, ImportCsv("time,price\n2024-01-02T09:30:00,1\n2024-01-02T09:30:01,2\n").ExitCode);

        ToolResult result = ToolRunner.Run(command, Table);

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("2024-01-02 09:30:01.0000000", result.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("0000000Z", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void ASearchOfAUtcTableTakesATimeWithoutAZoneAsUtc()
    {
        Assert.Equal(0, ImportCsv("time,price\n2024-01-02T09:30:00Z,1\n2024-01-02T09:30:01Z,2\n").ExitCode);

        ToolResult bare = ToolRunner.Run("search", Table, "2024-01-02T09:30:01");
        ToolResult zoned = ToolRunner.Run("search", Table, "2024-01-02T10:30:01+01:00");

        Assert.Equal((0, 0), (bare.ExitCode, zoned.ExitCode));
        Assert.Contains("2024-01-02 09:30:01Z", bare.Output, StringComparison.Ordinal);
        Assert.Equal(bare.Output.Replace(Table, "", StringComparison.Ordinal), zoned.Output.Replace(Table, "", StringComparison.Ordinal));
    }
}
