using System;
using System.IO;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>info, verify, head, tail, slice and search: what they show and how they fail.</summary>
public sealed class InspectCommandTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Seconds(int count, Func<int, int>? secondOf = null)
    {
        string path = _directory.File("seconds.bt");
        using var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.AscendingOrEqual);
        for (int i = 0; i < count; i++)
        {
            series.Add(Start.AddSeconds(secondOf?.Invoke(i) ?? i));
        }

        return path;
    }

    [Fact]
    public void InfoShowsTheHeaderAndTheFirstAndLastTimes()
    {
        string path = Seconds(100);

        ToolResult result = ToolRunner.Run("info", path);

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("data type UnixSeconds (code 13), 4 bytes per item", result.Output);
        Assert.Contains("count 100, capacity 15,360, file 65,536 bytes", result.Output);
        Assert.Contains("first 2024-01-02 09:30:00, last 2024-01-02 09:31:39", result.Output);
        Assert.Contains("items per day", result.Output);
    }

    [Theory]
    [InlineData(ListMmfFormatVersion.Version1, "version 1 (ListMmf 1.x's format), data type Int64")]
    [InlineData(ListMmfFormatVersion.Version2, "version 2, data type Int64")]
    public void InfoNumbersTheFormatAsTheLibraryDoes(ListMmfFormatVersion format, string line)
    {
        string path = _directory.File("numbers.bt");
        using (var list = new ListMmf<long>(path, FileAccess.ReadWrite, new ListMmfOptions { FormatVersion = format }))
        {
            list.Add(1);
        }

        ToolResult result = ToolRunner.Run("info", path);

        Assert.Equal((int)format, ListMmfFileInfo.Read(path).Version);
        Assert.Contains(line, result.Output);
    }

    [Theory]
    [InlineData(70_000L, "UInt24")]
    [InlineData(-(1L << 35), "Int40")]
    public void OddWidthIntegerFilesVerifyAndShowTheirValues(long last, string code)
    {
        string path = _directory.File("widened.bt");
        using (IntegerListMmf list = IntegerListMmf.OpenSmallest(path))
        {
            list.AddRange([1, 2, last]);
            Assert.Equal(code, list.DataType.ToString());
        }

        ToolResult verify = ToolRunner.Run("verify", path);
        ToolResult tail = ToolRunner.Run("tail", path, "-n", "2");

        Assert.True(verify.ExitCode == 0, verify.Output + verify.Error);
        Assert.Contains($"OK     {path}: 3 {code} items, XXH3 ", verify.Output);
        Assert.True(tail.ExitCode == 0, tail.Output + tail.Error);
        Assert.Contains(last.ToString(System.Globalization.CultureInfo.InvariantCulture), tail.Output);
    }

    [Fact]
    public void BitFilesVerifyAndShowTheirBits()
    {
        string path = _directory.File("flags.bt");
        using (var bits = new ListMmfBitArray(path))
        {
            bits.AddRange([true, false, true, true]);
        }

        ToolResult verify = ToolRunner.Run("verify", path);
        ToolResult head = ToolRunner.Run("head", path);
        ToolResult info = ToolRunner.Run("info", path);

        Assert.True(verify.ExitCode == 0, verify.Output + verify.Error);
        Assert.Contains($"OK     {path}: 4 Bit items, 3 bits set", verify.Output);
        Assert.True(head.ExitCode == 0, head.Output + head.Error);
        Assert.Contains("(4 rows of 4)", head.Output);
        Assert.Equal(["0  1", "1  0", "2  1", "3  1"], head.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)[^5..^1]);
        Assert.Contains("first 1, last 1", info.Output);
    }

    [Fact]
    public void InfoShowsTheFirstAndLastNumbers()
    {
        string path = _directory.File("prices.bt");
        using (var prices = new ListMmf<double>(path))
        {
            prices.AddRange([4500.25, 4501, 4499.5]);
        }

        ToolResult result = ToolRunner.Run("info", path);

        Assert.Contains("data type Double (code 11), 8 bytes per item", result.Output);
        Assert.Contains("first 4500.25, last 4499.5", result.Output);
    }

    [Theory]
    [InlineData("not a header at all, just text", "not a ListMmf file")]
    [InlineData("", "shorter than the 16-byte ListMmf header")]
    public void InfoOfAFileThatIsNotListMmfIsBadDataInOneLine(string contents, string problem)
    {
        string path = _directory.File("other.txt");
        File.WriteAllText(path, contents);

        ToolResult result = ToolRunner.Run("info", path);

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains(problem, result.Error);
    }

    [Fact]
    public void InfoOfAFolderThatIsNotATableIsBadData()
    {
        ToolResult result = ToolRunner.Run("info", _directory.Path);

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains("is not a table", result.Error);
    }

    [Fact]
    public void InfoOfAMissingFileIsBadData()
    {
        ToolResult result = ToolRunner.Run("info", _directory.File("missing.bt"));

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
    }

    [Fact]
    public void VerifyPassesAHealthyFileWithItsHash()
    {
        string path = Seconds(10);

        ToolResult result = ToolRunner.Run("verify", path);

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("OK", result.Output);
        Assert.Matches("XXH3 [0-9a-f]{16}", result.Output);
    }

    [Fact]
    public void VerifyReportsTheFirstTimeOutOfOrderAsTimesWithItsIndex()
    {
        string path = Seconds(5);
        using (var raw = new ListMmf<int>(path))
        {
            raw.Add(raw[0] - 60);
        }

        ToolResult result = ToolRunner.Run("verify", path);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("index 5", result.Output);
        Assert.Contains("2024-01-02 09:29:00", result.Output);
        Assert.Contains("2024-01-02 09:30:04", result.Output);
    }

    [Fact]
    public void VerifyOfATableChecksItsTimesInTheTablesOwnOrder()
    {
        string folder = _directory.File("ticks");
        using (TimeSeriesTable table = TimeSeriesTable.Create(folder, new TimeSeriesTableSchema("time", order: TimeSeriesOrder.Ascending).Add<double>("price")))
        {
            table.Column<double>("price").AddRange([1.0, 2.0]);
            table.AddRows([Start, Start.AddSeconds(1)]);
        }

        // A time equal to the one before: fine for a lone file, a violation for an Ascending table.
        using (var raw = new ListMmf<int>(Path.Combine(folder, "time.mmf")))
        {
            raw.Add(raw[1]);
        }

        using (var price = new ListMmf<double>(Path.Combine(folder, "price.mmf")))
        {
            price.Add(3.0);
        }

        ToolResult result = ToolRunner.Run("verify", folder);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("index 2", result.Output);
    }

    [Fact]
    public void VerifyOfAFileThatIsNotListMmfFails()
    {
        string path = _directory.File("other.txt");
        File.WriteAllText(path, "0123456789abcdefghij");

        ToolResult result = ToolRunner.Run("verify", path);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("FAILED", result.Output);
    }

    [Fact]
    public void HeadAndTailShowRows()
    {
        string path = Seconds(50);

        ToolResult head = ToolRunner.Run("head", path, "-n", "2");
        ToolResult tail = ToolRunner.Run("tail", path, "-n", "2");

        Assert.Contains("0  2024-01-02 09:30:00", head.Output);
        Assert.Contains("1  2024-01-02 09:30:01", head.Output);
        Assert.DoesNotContain("09:30:02", head.Output);
        Assert.Contains("49  2024-01-02 09:30:49", tail.Output);
        Assert.Contains("(2 rows of 50)", tail.Output);
    }

    [Fact]
    public void SliceShowsTheRowsOfATimeRange()
    {
        string path = Seconds(50);

        ToolResult result = ToolRunner.Run("slice", path, "--from", "2024-01-02T09:30:10", "--to", "2024-01-02T09:30:13");

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("(3 rows of 50)", result.Output);
        Assert.Contains("09:30:12", result.Output);
        Assert.DoesNotContain("09:30:13", result.Output);
    }

    [Fact]
    public void SearchShowsTheBoundsAndTheRowsAroundThem()
    {
        string path = Seconds(30, i => i / 3);

        ToolResult result = ToolRunner.Run("search", path, "2024-01-02T09:30:05");

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("LowerBound 15  UpperBound 18  EqualRange [15, 18): 3 equal", result.Output);
        Assert.Contains("L =  15", result.Output);
        Assert.Contains(" U   18", result.Output);
    }

    [Fact]
    public void SearchOfANumberFileIsBadData()
    {
        string path = _directory.File("prices.bt");
        using (var prices = new ListMmf<double>(path))
        {
            prices.Add(1);
        }

        ToolResult result = ToolRunner.Run("search", path, "2024-01-02");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("not times", result.Error);
    }

    [Theory]
    [InlineData("search", "FILE", "yesterday")]
    [InlineData("head", "FILE", "-n", "-3")]
    [InlineData("slice", "FILE", "--from", "2024-01-02")]
    [InlineData("info")]
    [InlineData("nonsense")]
    public void BadUsageIsExitCodeTwoInOneLine(params string[] args)
    {
        string path = Seconds(3);
        string[] withPath = Array.ConvertAll(args, arg => arg == "FILE" ? path : arg);

        ToolResult result = ToolRunner.Run(withPath);

        Assert.Equal(2, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
    }

    [Fact]
    public void HelpIsShownWithExitCodeZero()
    {
        ToolResult result = ToolRunner.Run("import", "csv", "--help");

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("--time", result.Output);
    }

    [Fact]
    public void HeadOfAFolderThatIsNotATableIsBadData()
    {
        ToolResult result = ToolRunner.Run("head", _directory.Path);

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
    }

    [Fact]
    public void ExportOfAMissingSourceIsBadData()
    {
        ToolResult result = ToolRunner.Run("export", "csv", _directory.File("missing"), "--out", _directory.File("out.csv"));

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.False(File.Exists(_directory.File("out.csv")));
    }
}
