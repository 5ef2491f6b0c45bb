using System;
using System.Globalization;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Text;
using ListMmf.Tests.MultiProcess;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>import csv and export csv: round trips, every time format, and every bad input the issue names.</summary>
public sealed class CsvCommandTests : IDisposable
{
    private const string Header = "time,price,size\n";
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Table => _directory.File("table");

    private string Csv(string text, string name = "ticks.csv")
    {
        string path = _directory.File(name);
        File.WriteAllText(path, text, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        return path;
    }

    /// <summary>Rows as the benchmark console writes them: Unix seconds, prices and sizes in .NET's shortest round-trip form.</summary>
    private static string Rows(int count, int perSecond = 1)
    {
        var text = new StringBuilder(Header);
        for (int i = 0; i < count; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{1704187800 + (i / perSecond)},{4500 + ((i % 1000) * 0.25)},{(i % 97) + 1}\n");
        }

        return text.ToString();
    }

    private ToolResult Import(string csv, params string[] extra) =>
        ToolRunner.Run(["import", "csv", csv, "--out", Table, "--time", "time", "--column", "price:double", "--column", "size:int", .. extra]);

    [Fact]
    public void ImportThenExportGivesBackTheSameBytes()
    {
        string text = Rows(200_000, perSecond: 3);
        string csv = Csv(text);
        string back = _directory.File("back.csv");

        ToolResult import = Import(csv, "--order", "ascending-or-equal");
        ToolResult export = ToolRunner.Run("export", "csv", Table, "--time-format", "unix", "--out", back);

        Assert.Equal(0, import.ExitCode);
        Assert.Contains("imported 200,000 rows", import.Output);
        Assert.Equal(0, export.ExitCode);
        Assert.Equal(text, File.ReadAllText(back));
    }

    [Fact]
    public void AnImportedTablesFilesTakeWhatTheirValuesTakeRoundedUpTo64KiB()
    {
        Assert.Equal(0, Import(Csv(Rows(300_000, perSecond: 3)), "--order", "ascending-or-equal").ExitCode);

        Assert.Equal(LengthFor(300_000, sizeof(int)), new FileInfo(Path.Combine(Table, "time.mmf")).Length);
        Assert.Equal(LengthFor(300_000, sizeof(double)), new FileInfo(Path.Combine(Table, "price.mmf")).Length);
        Assert.Equal(LengthFor(300_000, sizeof(int)), new FileInfo(Path.Combine(Table, "size.mmf")).Length);
    }

    [Fact]
    public void CompactGivesBackATablesUnusedSpaceAndKeepsItsRows()
    {
        var schema = new TimeSeriesTableSchema("time").Add<double>("price");
        using (TimeSeriesTable table = TimeSeriesTable.Create(Table, schema))
        {
            for (int i = 0; i < 100_000; i++)
            {
                table.Column<double>("price").Add(i);
                table.AddRow(new DateTime(2024, 1, 2).AddSeconds(i));
            }
        }

        long before = new FileInfo(Path.Combine(Table, "price.mmf")).Length;
        ToolResult compact = ToolRunner.Run("compact", Table);

        Assert.Equal(0, compact.ExitCode);
        Assert.True(before > LengthFor(100_000, sizeof(double)), $"price.mmf was {before:N0} bytes: nothing to give back");
        Assert.Equal(LengthFor(100_000, sizeof(double)), new FileInfo(Path.Combine(Table, "price.mmf")).Length);
        Assert.Contains(" -> ", compact.Output);
        Assert.Equal(0, ToolRunner.Run("verify", Table).ExitCode);
        using TimeSeriesTable reopened = TimeSeriesTable.Open(Table, FileAccess.Read);
        Assert.Equal(99_999, reopened.Column<double>("price")[99_999]);
    }

    [Fact]
    public void CompactOfAFileOfBitsIsRefusedByName()
    {
        string bits = _directory.File("flags.bt");
        using (var list = new ListMmfBitArray(bits))
        {
            list.Add(true);
        }

        ToolResult compact = ToolRunner.Run("compact", bits);

        Assert.Equal(1, compact.ExitCode);
        Assert.True(compact.IsOneErrorLine, compact.Error);
        Assert.Contains("holds bits", compact.Error);
    }

    private static long LengthFor(long count, int itemSize) => (16 + (count * itemSize) + 65535) / 65536 * 65536;

    [Fact]
    public void ImportedRowsAreTheTablesRows()
    {
        Import(Csv(Rows(10)));

        using TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read);
        Assert.Equal(10, table.RowCount);
        Assert.Equal(DataType.UnixSeconds, table.Schema.Time.DataType);
        Assert.Equal(4501.25, table.Column<double>("price")[5]);
        Assert.Equal(new DateTime(2024, 1, 2, 9, 30, 9), table.TimeAt(9));
    }

    [Fact]
    public void ImportAppendsToAnExistingTableAndKeepsItsOrder()
    {
        string all = Rows(20);
        string[] lines = all.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Import(Csv(string.Join("\n", lines[..11]) + "\n", "first.csv"));

        ToolResult second = Import(Csv(Header + string.Join("\n", lines[11..]) + "\n", "second.csv"));
        ToolResult again = Import(Csv(Header + string.Join("\n", lines[11..]) + "\n", "again.csv"));

        Assert.Equal(0, second.ExitCode);
        Assert.Equal(1, again.ExitCode);
        Assert.Contains("line 2", again.Error);
        using TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read);
        Assert.Equal(20, table.RowCount);
    }

    [Fact]
    public void GzipInputIsRecognisedByItsBytes()
    {
        string path = _directory.File("ticks.csv.gz");
        using (var gzip = new GZipStream(File.Create(path), CompressionLevel.Fastest))
        {
            gzip.Write(Encoding.UTF8.GetBytes(Rows(1000)));
        }

        ToolResult result = Import(path);

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("imported 1,000 rows", result.Output);
    }

    [Fact]
    public void ATruncatedGzipIsBadDataAndImportsNothing()
    {
        string path = _directory.File("ticks.csv.gz");
        var compressed = new MemoryStream();
        using (var gzip = new GZipStream(compressed, CompressionLevel.Fastest, leaveOpen: true))
        {
            gzip.Write(Encoding.UTF8.GetBytes(Rows(200_000)));
        }

        File.WriteAllBytes(path, compressed.ToArray()[..(int)(compressed.Length / 2)]);

        ToolResult result = Import(path);

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains("gzip", result.Error);
        Assert.False(Directory.Exists(Table), "the folder the failed import created is still there");
    }

    [Fact]
    public void ABomMixedLineEndingsQuotesAndBlankLinesReadAsPlainRows()
    {
        string csv = Csv("\uFEFFtime,price,size\r\n1704187800,\"4500.5\",1\r1704187801,4501,\"2\"\n\n1704187802,4502,3");

        ToolResult result = Import(csv);

        Assert.Equal(0, result.ExitCode);
        using TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read);
        Assert.Equal(3, table.RowCount);
        Assert.Equal([4500.5, 4501, 4502], table.Column<double>("price").AsSpan(0, 3).ToArray());
    }

    [Fact]
    public void AHeaderOnlyImportsNoRows()
    {
        ToolResult result = Import(Csv(Header));

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("imported 0 rows", result.Output);
    }

    [Fact]
    public void AnEmptyFileIsBadData()
    {
        ToolResult result = Import(Csv(""));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("is empty", result.Error);
    }

    [Fact]
    public void AColumnMissingFromTheHeaderIsNamed()
    {
        ToolResult result = Import(Csv("time,bid\n1704187800,1\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains("no column 'price'; its columns are time, bid", result.Error);
    }

    [Fact]
    public void ARowWithTooFewFieldsIsNamedByLine()
    {
        ToolResult result = Import(Csv(Header + "1704187800,1,2\n1704187801,1\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("line 3: has 2 fields", result.Error);
    }

    [Fact]
    public void ARowWithMoreFieldsThanTheHeaderIsRefusedNamingTheLine()
    {
        ToolResult result = Import(Csv(Header + "2024-01-02T09:30:00,4500,25\n2024-01-02T09:30:01,4500,25,3\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains("line 3: has 4 fields; the header has 3", result.Error);
        Assert.False(Directory.Exists(Table), "a table was made of a refused file");
    }

    [Fact]
    public void AQuotedRowWithMoreFieldsThanTheHeaderIsRefusedNamingTheLine()
    {
        ToolResult result = Import(Csv(Header + "\"2024-01-02T09:30:00\",4500,25\n\"2024-01-02T09:30:01\",4500,25,3\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("line 3: has 4 fields; the header has 3", result.Error);
    }

    [Fact]
    public void ARowWithMoreFieldsDeepInALargeFileIsRefusedNamingTheLine()
    {
        string rows = Rows(601_000);
        int end = 0;
        for (int line = 0; line < 600_002; line++)
        {
            end = rows.IndexOf('\n', end) + 1;
        }

        string text = rows[..(end - 1)] + ",3" + rows[(end - 1)..];

        ToolResult result = Import(Csv(text));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("line 600,002: has 4 fields; the header has 3", result.Error);
    }

    [Fact]
    public void AWholeNumberBeyondTheColumnTypeIsCalledOutOfRange()
    {
        ToolResult result = Import(Csv(Header + "1704187800,4500.25,3000000000\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("column 'size': '3000000000' is out of the range of an int (-2147483648 to 2147483647)", result.Error);
    }

    [Fact]
    public void MillisecondTimesReadAsSecondsSuggestTheirFormat()
    {
        ToolResult result = Import(Csv(Header + "1704187800000000,4500.25,3\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("--time COLUMN:unixms or COLUMN:unixns", result.Error);
    }

    [Fact]
    public void AnExportIntoAMissingFolderNamesTheFolderNotATemporaryFile()
    {
        Assert.Equal(0, Import(Csv(Rows(10))).ExitCode);
        string missing = _directory.File(Path.Combine("missing", "back.csv"));

        ToolResult result = ToolRunner.Run("export", "csv", Table, "--out", missing);

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains($"the folder '{Path.GetDirectoryName(missing)}' does not exist", result.Error);
        Assert.DoesNotContain(".tmp", result.Error);
    }

    [Fact]
    public void AnUnparsableNumberIsNamedByLineAndColumnAndNothingIsImported()
    {
        string text = Rows(100_000) + "1805000000,abc,5\n";

        ToolResult result = Import(Csv(text));

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains("line 100,002: column 'price': 'abc' is not a double", result.Error);
        Assert.False(Directory.Exists(Table), "the folder the failed import created is still there");
    }

    [Fact]
    public void AFailedImportIntoAFolderThatExistedLeavesTheFolderAndItsOtherFiles()
    {
        Directory.CreateDirectory(Table);
        File.WriteAllText(Path.Combine(Table, "notes.txt"), "mine");

        ToolResult result = Import(Csv(Rows(10) + "1805000000,abc,5\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.Equal([Path.Combine(Table, "notes.txt")], Directory.GetFiles(Table));
    }

    [Theory]
    [InlineData("time,price,price\n", "price")]
    [InlineData("time,price,size,Size\n", "size")]
    public void AHeaderNamingAColumnTwiceIsRefusedAndNothingIsWritten(string header, string repeated)
    {
        ToolResult result = Import(Csv(header + "1704187800,1,2,3\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains($"the header names the column '{repeated}' more than once", result.Error);
        Assert.False(Directory.Exists(Table));
    }

    [Fact]
    public void AFailedAppendLeavesTheTableAsItWas()
    {
        Import(Csv(Rows(10), "first.csv"));
        string more = Header + string.Join("", Enumerable.Range(100, 70_000).Select(i => $"{1704187800 + i},1,1\n")) + "1704300000,1,x\n";

        ToolResult result = Import(Csv(more, "second.csv"));

        Assert.Equal(1, result.ExitCode);
        using TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read);
        Assert.Equal(10, table.RowCount);
    }

    [Fact]
    public void AnUnparsableTimeIsNamedByLine()
    {
        ToolResult result = Import(Csv(Header + "2024-01-02T09:30:00,1,1\nnot a time,1,1\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("line 3: time 'not a time'", result.Error);
    }

    [Fact]
    public void RowsOutOfOrderAreRefusedWithTheirLine()
    {
        ToolResult result = Import(Csv(Header + "1704187801,1,1\n1704187800,1,1\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("line 3", result.Error);
        Assert.Contains("is before the previous row's (2024-01-02 09:30:01", result.Error);
    }

    [Fact]
    public void EqualTimesNeedAscendingOrEqual()
    {
        string csv = Csv(Header + "1704187800,1,1\n1704187800,2,2\n");

        ToolResult strict = Import(csv);
        ToolResult relaxed = Import(csv, "--order", "ascending-or-equal");

        Assert.Equal(1, strict.ExitCode);
        Assert.Contains("--order ascending-or-equal", strict.Error);
        Assert.Equal(0, relaxed.ExitCode);
    }

    [Fact]
    public void SubSecondIsoTimesGoToATicksTimeColumn()
    {
        ToolResult result = Import(Csv(Header + "2024-01-02T09:30:00.1234567,1,1\n2024-01-02 09:30:00.5,1,1\n"));

        Assert.Equal(0, result.ExitCode);
        using TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read);
        Assert.Equal(DataType.DateTime, table.Schema.Time.DataType);
        Assert.Equal(new DateTime(2024, 1, 2, 9, 30, 0).AddTicks(1_234_567), table.TimeAt(0));
        Assert.Equal(new DateTime(2024, 1, 2, 9, 30, 0, 500), table.TimeAt(1));
    }

    [Fact]
    public void SubSecondTimesIntoASecondsColumnAreRefusedNotTruncated()
    {
        ToolResult result = Import(Csv(Header + "2024-01-02T09:30:00,1,1\n2024-01-02T09:30:00.5,1,1\n"), "--time-type", "seconds");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("line 3", result.Error);
        Assert.Contains("fraction of a second", result.Error);
    }

    [Theory]
    [InlineData("unixms", "1704187800123", 1_230_000)]
    [InlineData("unixns", "1704187800123456700", 1_234_567)]
    [InlineData("yyyyMMdd HHmmss.fff", "20240102 093000.123", 1_230_000)]
    public void TimeFormatsReadToTheTick(string format, string text, long ticksPastTheSecond)
    {
        ToolResult result = ToolRunner.Run("import", "csv", Csv("t,p\n" + text + ",1\n"), "--out", Table, "--time", "t:" + format, "--column", "p:float");

        Assert.Equal(0, result.ExitCode);
        using TimeSeriesTable table = TimeSeriesTable.Open(Table, FileAccess.Read);
        Assert.Equal(new DateTime(2024, 1, 2, 9, 30, 0).AddTicks(ticksPastTheSecond), table.TimeAt(0));
    }

    [Fact]
    public void NanosecondsFinerThanATickAreRefused()
    {
        ToolResult result = ToolRunner.Run("import", "csv", Csv("t,p\n1704187800123456789,1\n"), "--out", Table, "--time", "t:unixns", "--column", "p:double");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("finer than 100 ns", result.Error);
    }

    [Fact]
    public void AnOutputTableOfOtherColumnsIsRefused()
    {
        Import(Csv(Rows(3), "first.csv"));

        ToolResult result = ToolRunner.Run("import", "csv", Csv(Rows(3), "second.csv"), "--out", Table, "--time", "time", "--column", "price:float", "--column", "size:int");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("does not match", result.Error);
    }

    [Fact]
    public void AnOutputColumnFileOfAnotherTypeIsRefused()
    {
        Directory.CreateDirectory(Table);
        using (var wrong = new ListMmf<long>(Path.Combine(Table, "price.mmf")))
        {
            wrong.Add(1);
        }

        ToolResult result = Import(Csv(Rows(3)));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("column 'price'", result.Error);
    }

    [Fact]
    public void ATableHeldByAnotherWriterIsRefused()
    {
        Import(Csv(Rows(3), "first.csv"));
        using var holder = TimeSeriesTable.Open(Table);

        ToolResult result = Import(Csv(Rows(3), "second.csv"));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("another writer", result.Error);
    }

    [Theory]
    [InlineData("--column", "price")]
    [InlineData("--column", "price:decimal")]
    [InlineData("--order", "descending")]
    [InlineData("--time-type", "minutes")]
    public void BadImportOptionsAreUsageErrors(string option, string value)
    {
        ToolResult result = ToolRunner.Run("import", "csv", Csv(Rows(3)), "--out", Table, "--time", "time", option, value);

        Assert.Equal(2, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
    }

    [Fact]
    public void ExportOfATimeRangeWritesOnlyItsRows()
    {
        Import(Csv(Rows(100)));
        string back = _directory.File("back.csv");

        ToolResult result = ToolRunner.Run("export", "csv", Table, "--from", "2024-01-02T09:30:10", "--to", "2024-01-02T09:30:12", "--out", back);

        Assert.Equal(0, result.ExitCode);
        Assert.Equal("time,price,size\n2024-01-02T09:30:10,4502.5,11\n2024-01-02T09:30:11,4502.75,12\n", File.ReadAllText(back));
    }

    [Fact]
    public void ExportOfSubSecondTimesAsUnixSecondsIsRefusedAndLeavesNoFile()
    {
        ToolRunner.Run("import", "csv", Csv("t,p\n1704187800123,1\n"), "--out", Table, "--time", "t:unixms", "--column", "p:double");
        string back = _directory.File("back.csv");

        ToolResult result = ToolRunner.Run("export", "csv", Table, "--time-format", "unix", "--out", back);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("finer than unix", result.Error);
        Assert.False(File.Exists(back));
        Assert.Empty(Directory.GetFiles(_directory.Path, "back.csv*"));
    }

    [Fact]
    public void ExportOfASingleFileWritesItsItems()
    {
        string path = _directory.File("sizes.bt");
        using (var sizes = new ListMmf<int>(path))
        {
            sizes.AddRange([3, 1, 2]);
        }

        string back = _directory.File("back.csv");
        ToolRunner.Run("export", "csv", path, "--out", back);

        Assert.Equal("sizes.bt\n3\n1\n2\n", File.ReadAllText(back));
    }

    [Theory]
    [InlineData("\"4501,25\"")]
    [InlineData("1e400")]
    public void NumbersAreNeitherGroupedNorOverflowedIntoInfinity(string price)
    {
        ToolResult result = Import(Csv(Header + "1704187800," + price + ",1\n"));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("is not a double", result.Error);
    }

    [Theory]
    [InlineData("09:30:00", "is not an ISO 8601 time")]
    [InlineData("2024-01-02T09:30:00.123456789+00:00", "has a part finer than 100 ns")]
    public void IsoTimesAreNeitherGuessedNorRounded(string time, string problem)
    {
        ToolResult result = ToolRunner.Run("import", "csv", Csv("t,p\n" + time + ",1\n"), "--out", Table, "--time", "t:iso", "--column", "p:double");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains(problem, result.Error);
    }

    [Fact]
    public void DateTimeMinValueInASecondsColumnIsStoredAsTheExistingLibraryStoresIt()
    {
        ToolResult result = ToolRunner.Run("import", "csv", Csv("t,p\n0001-01-01T00:00:00,1\n2024-01-02T09:30:00,2\n"), "--out", Table, "--time", "t:iso", "--time-type", "seconds", "--column", "p:double");

        Assert.Equal(0, result.ExitCode);
        using var seconds = new ListMmf<int>(Path.Combine(Table, "t.mmf"), FileAccess.Read);
        Assert.Equal(int.MinValue, seconds[0]);
    }

    [Theory]
    [InlineData("t:unixs")]
    [InlineData("t:")]
    public void AnUnknownTimeFormatIsAUsageError(string time)
    {
        ToolResult result = ToolRunner.Run("import", "csv", Csv("t,p\n1,1\n"), "--out", Table, "--time", time, "--column", "p:double");

        Assert.Equal(2, result.ExitCode);
    }

    [Theory]
    [InlineData("a/b:double")]
    [InlineData("time:double")]
    public void AColumnNameThatCannotBeAFileOrRepeatsIsAUsageError(string column)
    {
        ToolResult result = ToolRunner.Run("import", "csv", Csv(Rows(1)), "--out", Table, "--time", "time", "--column", column);

        Assert.Equal(2, result.ExitCode);
        Assert.False(Directory.Exists(Table));
    }

    [Fact]
    public void ExportOfTimesBeyondInt64NanosecondsIsRefused()
    {
        ToolRunner.Run("import", "csv", Csv("t,p\n9999-01-01T00:00:00,1\n"), "--out", Table, "--time", "t:iso", "--column", "p:double");

        ToolResult result = ToolRunner.Run("export", "csv", Table, "--time-format", "unixns", "--out", _directory.File("back.csv"));

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("outside what Int64 Unix nanoseconds hold", result.Error);
    }

    [Fact]
    public void ExportOfManyColumnsFillsTheBufferFieldByField()
    {
        var schema = new TimeSeriesTableSchema("time");
        for (int c = 0; c < 200; c++)
        {
            schema.Add<double>($"c{c}");
        }

        using (TimeSeriesTable table = TimeSeriesTable.Create(Table, schema))
        {
            for (int row = 0; row < 50; row++)
            {
                for (int c = 0; c < 200; c++)
                {
                    table.Column<double>($"c{c}").Add(Math.PI * (row + c));
                }

                table.AddRow(new DateTime(2024, 1, 2).AddSeconds(row));
            }
        }

        string back = _directory.File("back.csv");
        ToolResult result = ToolRunner.Run("export", "csv", Table, "--out", back);

        Assert.Equal(0, result.ExitCode);
        string[] lines = File.ReadAllLines(back);
        Assert.Equal(51, lines.Length);
        Assert.Equal(201, lines[50].Split(',').Length);
        Assert.Equal((Math.PI * (49 + 199)).ToString("R", CultureInfo.InvariantCulture), lines[50].Split(',')[200]);
    }
}
