using System;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>seal and unseal of files and table folders, and what info, head, verify, search and export do with them sealed.</summary>
public sealed class SealCommandTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Seconds(int count)
    {
        string path = _directory.File("seconds.bt");
        using var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.AscendingOrEqual);
        for (int i = 0; i < count; i++)
        {
            series.Add(Start.AddSeconds(i / 3));
        }

        return path;
    }

    [Fact]
    public void SealShrinksTheFileAndInfoShowsItSealedWithItsFirstAndLastTimes()
    {
        string path = Seconds(30_000);

        ToolResult seal = ToolRunner.Run("seal", path);
        ToolResult info = ToolRunner.Run("info", path);

        Assert.True(seal.ExitCode == 0, seal.Error);
        Assert.Contains($"{path}: sealed, ", seal.Output);
        Assert.True(info.ExitCode == 0, info.Error);
        Assert.Contains("version 3, data type UnixSeconds", info.Output);
        Assert.Contains("sealed (read-only, compressed in blocks of 1,024 items): count 30,000, file ", info.Output);
        Assert.Contains("first 2024-01-02 09:30:00, last 2024-01-02 12:16:39", info.Output);
    }

    [Fact]
    public void VerifyPrintsTheSameFingerprintBeforeTheSealAndAfter()
    {
        string path = Seconds(5_000);
        string before = Fingerprint(ToolRunner.Run("verify", path));

        ToolRunner.Run("seal", path);
        ToolResult after = ToolRunner.Run("verify", path);

        Assert.True(after.ExitCode == 0, after.Output + after.Error);
        Assert.Contains("sealed, every block's checksum", after.Output);
        Assert.Equal(before, Fingerprint(after));
    }

    [Fact]
    public void HeadAndTailShowASealedFilesItems()
    {
        string path = Seconds(3_000);
        ToolRunner.Run("seal", path);

        ToolResult tail = ToolRunner.Run("tail", path, "-n", "2");

        Assert.True(tail.ExitCode == 0, tail.Error);
        Assert.Contains("2024-01-02 09:46:39", tail.Output);
    }

    public static TheoryData<string> StructAndOddWidthFiles => new(["struct", "int24", "uint40"]);

    [Theory]
    [MemberData(nameof(StructAndOddWidthFiles))]
    public void EveryReadingCommandPrintsTheSameForAStructOrOddWidthFileAfterItsSeal(string kind)
    {
        string path = kind switch
        {
            "struct" => Quotes(3_000),
            "int24" => Integers(3_000, i => (i * 5_003L % 16_000_000) - 8_000_000),
            _ => Integers(3_000, i => (1L << 39) + (i * 7L)),
        };
        ToolResult[] before = ReadingCommands(path, "before");

        ToolResult seal = ToolRunner.Run("seal", path);
        ToolResult[] after = ReadingCommands(path, "after");

        Assert.True(seal.ExitCode == 0, seal.Output + seal.Error);
        Assert.All(after, result => Assert.True(result.ExitCode == 0, result.Output + result.Error));
        Assert.Contains("sealed, every block's checksum", after[0].Output);
        Assert.Equal(Fingerprint(before[0]), Fingerprint(after[0]));
        Assert.Equal(before[1].Output, after[1].Output);
        Assert.Equal(before[2].Output, after[2].Output);
        Assert.Equal(File.ReadAllText(_directory.File("before.csv")), File.ReadAllText(_directory.File("after.csv")));
    }

    [Fact]
    public void VerifyPassesATableWhoseDateTimeValuesAreNotInOrderBeforeTheSealAndAfter()
    {
        string folder = _directory.File("settlements");
        using (var table = TimeSeriesTable.Create(folder, new TimeSeriesTableSchema("time").Add<DateTime>("settles")))
        {
            for (int i = 0; i < 3_000; i++)
            {
                table.Column<DateTime>("settles").Add(Start.AddDays(i % 5 == 0 ? 30 : 2));
                table.AddRow(Start.AddSeconds(i));
            }
        }

        ToolResult before = ToolRunner.Run("verify", folder);
        ToolRunner.Run("seal", folder);
        ToolResult after = ToolRunner.Run("verify", folder);

        Assert.True(before.ExitCode == 0, before.Output + before.Error);
        Assert.True(after.ExitCode == 0, after.Output + after.Error);
        Assert.Contains("sealed, every block's checksum", after.Output);
    }

    [Fact]
    public void VerifyRefusesATimeFileOutOfOrderBeforeTheSealAndAfter()
    {
        string path = _directory.File("times.bt");
        using (var ticks = new ListMmf<long>(path, FileAccess.ReadWrite, null, DataType.DateTime, requireDataType: true, description: null))
        {
            ticks.AddRange(Enumerable.Range(0, 3_000).Select(i => Start.AddSeconds(i == 2_500 ? 0 : i).Ticks).ToArray());
        }

        ToolResult before = ToolRunner.Run("verify", path);
        ToolRunner.Run("seal", path);
        ToolResult after = ToolRunner.Run("verify", path);

        Assert.NotEqual(0, before.ExitCode);
        Assert.NotEqual(0, after.ExitCode);
        Assert.Contains("at index 2,500", before.Output);
        Assert.Contains("at index 2,500", after.Output);
    }

    [Fact]
    public void UnsealGivesBackAFileThatAppends()
    {
        string path = Seconds(2_000);
        ToolRunner.Run("seal", path);

        ToolResult unseal = ToolRunner.Run("unseal", path);

        Assert.True(unseal.ExitCode == 0, unseal.Error);
        Assert.Contains($"{path}: unsealed", unseal.Output);
        using var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.AscendingOrEqual);
        series.Add(Start.AddHours(1));
        Assert.Equal(2_001, series.Count);
    }

    [Fact]
    public void SearchPrintsTheSameBoundsAndRowsForASealedFileAsBeforeTheSeal()
    {
        string path = Seconds(5_000);
        ToolResult before = ToolRunner.Run("search", path, "2024-01-02 09:40:00");
        ToolRunner.Run("seal", path);

        ToolResult after = ToolRunner.Run("search", path, "2024-01-02 09:40:00");

        Assert.True(after.ExitCode == 0, after.Error);
        Assert.Contains("LowerBound 1,800  UpperBound 1,803", after.Output);
        Assert.Equal(before.Output, after.Output);
    }

    [Fact]
    public void CsvExportWritesTheSameRowsForASealedFileAsBeforeTheSeal()
    {
        string path = Seconds(5_000);
        string[] range = ["--from", "2024-01-02 09:35:00", "--to", "2024-01-02 09:50:00"];
        ToolRunner.Run(["export", "csv", path, "--out", _directory.File("before.csv"), .. range]);
        ToolRunner.Run("seal", path);

        ToolResult after = ToolRunner.Run(["export", "csv", path, "--out", _directory.File("after.csv"), .. range]);

        Assert.True(after.ExitCode == 0, after.Error);
        string[] rows = File.ReadAllLines(_directory.File("after.csv"));
        Assert.Equal(2_701, rows.Length);
        Assert.Equal(File.ReadAllLines(_directory.File("before.csv")), rows);
    }

    [Fact]
    public void ParquetExportOfATableWritesTheSameFileAfterItsSeal()
    {
        string folder = Table(4_000);
        ToolRunner.Run("export", "parquet", folder, "--out", _directory.File("before.parquet"));

        ToolResult seal = ToolRunner.Run("seal", folder);
        ToolResult after = ToolRunner.Run("export", "parquet", folder, "--out", _directory.File("after.parquet"));

        Assert.True(seal.ExitCode == 0, seal.Error);
        Assert.Contains($"{folder}: 3 column files sealed, ", seal.Output);
        Assert.True(after.ExitCode == 0, after.Error);
        Assert.Equal(File.ReadAllBytes(_directory.File("before.parquet")), File.ReadAllBytes(_directory.File("after.parquet")));
    }

    [Fact]
    public void CsvExportOfATableWritesTheSameRowsAfterItsSeal()
    {
        string folder = Table(4_000);
        string[] range = ["--from", "2024-01-02 09:35:00", "--to", "2024-01-02 09:50:00"];
        ToolRunner.Run(["export", "csv", folder, "--out", _directory.File("before.csv"), .. range]);
        ToolRunner.Run("seal", folder);

        ToolResult after = ToolRunner.Run(["export", "csv", folder, "--out", _directory.File("after.csv"), .. range]);

        Assert.True(after.ExitCode == 0, after.Error);
        string[] rows = File.ReadAllLines(_directory.File("after.csv"));
        Assert.Equal(2_701, rows.Length);
        Assert.Equal(File.ReadAllLines(_directory.File("before.csv")), rows);
    }

    [Fact]
    public void VerifyAndInfoOfASealedTableCheckEveryColumnAndSayWhichAreSealed()
    {
        string folder = Table(4_000);
        string before = string.Join(' ', Regex.Matches(ToolRunner.Run("verify", folder).Output, "XXH3 [0-9a-f]{16}").Select(match => match.Value));
        ToolRunner.Run("seal", folder);

        ToolResult verify = ToolRunner.Run("verify", folder);
        ToolResult info = ToolRunner.Run("info", folder);

        Assert.True(verify.ExitCode == 0, verify.Output + verify.Error);
        Assert.Equal(3, Regex.Count(verify.Output, "sealed, every block's checksum"));
        Assert.Equal(before, string.Join(' ', Regex.Matches(verify.Output, "XXH3 [0-9a-f]{16}").Select(match => match.Value)));
        Assert.True(info.ExitCode == 0, info.Error);
        Assert.Contains("column price: Double, price.mmf, sealed (", info.Output);
    }

    [Theory]
    [InlineData("  1  2024-01-02 09:30:00  4500.25  2", "head", "--rows", "25")]
    [InlineData("3,979  2024-01-02 09:52:06  4500.25  2", "tail", "--rows", "25")]
    [InlineData("L = 1,800  2024-01-02 09:40:00  4503.75  1", "search", "2024-01-02 09:40:00")]
    public void ReadingCommandsPrintTheSameForATableAfterItsSeal(string row, string command, params string[] options)
    {
        string folder = Table(4_000);
        string[] arguments = [command, folder, .. options];
        ToolResult before = ToolRunner.Run(arguments);
        ToolRunner.Run("seal", folder);

        ToolResult after = ToolRunner.Run(arguments);

        Assert.True(after.ExitCode == 0, after.Error);
        Assert.Contains(row, after.Output);
        Assert.Equal(before.Output, after.Output);
    }

    [Fact]
    public void UnsealOfATableFolderGivesBackATableThatAppends()
    {
        string folder = Table(2_000);
        ToolRunner.Run("seal", folder);

        ToolResult unseal = ToolRunner.Run("unseal", folder);

        Assert.True(unseal.ExitCode == 0, unseal.Error);
        Assert.Contains($"{folder}: 3 column files unsealed", unseal.Output);
        using var table = TimeSeriesTable.Open(folder);
        table.Column<double>("price").Add(1);
        table.Column<int>("size").Add(1);
        table.AddRow(Start.AddDays(1));
        Assert.Equal(2_001, table.RowCount);
    }

    /// <summary>A table of <paramref name="rows"/> rows, three to a second, of a quarter-point price and a size.</summary>
    private string Table(int rows)
    {
        string folder = _directory.File("table");
        using var table = TimeSeriesTable.Create(folder, new TimeSeriesTableSchema("time").Add<double>("price").Add<int>("size"));
        for (int i = 0; i < rows; i++)
        {
            table.Column<double>("price").Add(4_500 + (i % 17 * 0.25));
            table.Column<int>("size").Add(1 + (i % 9));
            table.AddRow(Start.AddSeconds(i / 3));
        }

        return folder;
    }

    private string Quotes(int count)
    {
        string path = _directory.File("quotes.bt");
        using var quotes = new ListMmf<Format.ListMmfDescriptionTests.Quote>(path);
        for (int i = 0; i < count; i++)
        {
            quotes.Add(new Format.ListMmfDescriptionTests.Quote { Time = i, Bid = 4_000 + (i * 0.25), Ask = 4_000.25 + (i * 0.25), Size = i % 7 });
        }

        return path;
    }

    private string Integers(int count, Func<int, long> value)
    {
        string path = _directory.File("integers.bt");
        using var integers = IntegerListMmf.OpenSmallest(path);
        for (int i = 0; i < count; i++)
        {
            integers.Add(value(i));
        }

        return path;
    }

    /// <summary>verify, head, tail and a CSV export (to <paramref name="label"/>.csv) of <paramref name="path"/>.</summary>
    private ToolResult[] ReadingCommands(string path, string label) =>
    [
        ToolRunner.Run("verify", path),
        ToolRunner.Run("head", path, "-n", "5"),
        ToolRunner.Run("tail", path, "-n", "5"),
        ToolRunner.Run("export", "csv", path, "--out", _directory.File(label + ".csv")),
    ];

    private static string Fingerprint(ToolResult verify) => Regex.Match(verify.Output, "XXH3 [0-9a-f]{16}").Value;
}
