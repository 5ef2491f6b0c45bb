using System;
using System.IO;
using System.Runtime.CompilerServices;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// The tool on files that describe themselves: struct files shown and verified field by field, the recorded order
/// verified, and times given on the command line as dates, Unix seconds, or with a zone only where times are UTC.
/// </summary>
public sealed class DescribedFileCommandTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Quotes(ListMmfFormatVersion format = ListMmfFormatVersion.Version2)
    {
        string path = _directory.File("quotes.bin");
        using var quotes = new ListMmf<Quote>(path, FileAccess.ReadWrite, new ListMmfOptions { FormatVersion = format });
        for (int i = 0; i < 5; i++)
        {
            quotes.Add(new Quote { Sequence = i, Bid = 4000 + (i * 0.25), Live = i % 2 == 0, Side = 'B' });
        }

        return path;
    }

    [Fact]
    public void HeadOfAStructFileShowsEachFieldAsAColumn()
    {
        ToolResult result = ToolRunner.Run("head", Quotes(), "-n", "2");

        Assert.True(result.ExitCode == 0, result.Output + result.Error);
        string[] lines = result.Output.ReplaceLineEndings("\n").Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Matches(@"^row\s+Sequence\s+Bid\s+Live\s+Side$", lines[0]);
        Assert.Matches(@"^\s*1\s+1\s+4000\.25\s+false\s+B$", lines[2]);
    }

    [Fact]
    public void HeadOfAStructFileWhoseDescriptionRecordsNoFieldsShowsEachItemInHex()
    {
        // A version 1 file, whose description beside it is rewritten as a writer that could not see the fields writes it.
        string path = Quotes(ListMmfFormatVersion.Version1);
        string description = ListMmfDescription.PathFor(path);
        var node = System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(description))!.AsObject();
        node.Remove("fields");
        File.WriteAllText(description, node.ToJsonString());
        byte[] second = File.ReadAllBytes(path).AsSpan(16 + Unsafe.SizeOf<Quote>(), Unsafe.SizeOf<Quote>()).ToArray();

        ToolResult result = ToolRunner.Run("head", path, "-n", "2");

        Assert.True(result.ExitCode == 0, result.Output + result.Error);
        Assert.Contains(Convert.ToHexString(second), result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void VerifyOfAHealthyStructFilePassesWithTheHashOfItsItems()
    {
        string path = Quotes();
        ulong hash;
        using (var quotes = new ListMmf<Quote>(path, FileAccess.Read))
        {
            hash = quotes.ComputeXxHash3();
        }

        ToolResult result = ToolRunner.Run("verify", path);

        Assert.True(result.ExitCode == 0, result.Output + result.Error);
        Assert.Contains($"XXH3 {hash:x16}", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void VerifyOfAStructFileWithoutADescriptionChecksItsHeaderAndSaysSo()
    {
        string path = Quotes(ListMmfFormatVersion.Version1);
        File.Delete(ListMmfDescription.PathFor(path));

        ToolResult result = ToolRunner.Run("verify", path);

        Assert.True(result.ExitCode == 0, result.Output + result.Error);
        Assert.Contains("the items were not read", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void InfoOfAStructFileListsItsFields()
    {
        ToolResult result = ToolRunner.Run("info", Quotes());

        Assert.True(result.ExitCode == 0, result.Output + result.Error);
        Assert.Contains("described as Quote, 24 bytes per item", result.Output, StringComparison.Ordinal);
        Assert.Contains("field Bid: Double, 8 bytes at offset 8", result.Output, StringComparison.Ordinal);
        Assert.Contains("first Sequence=0 Bid=4000 Live=true Side=B", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void VerifyChecksTheOrderTheFileRecords()
    {
        string path = _directory.File("seconds.bt");
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending))
        {
            series.AddRange([Start, Start.AddSeconds(1)]);
        }

        using (var raw = new ListMmf<int>(path))
        {
            raw.Add(raw[1]);
        }

        ToolResult result = ToolRunner.Run("verify", path);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("in Ascending order", result.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("16:00")]
    [InlineData("2024-01-02T09:30:00-05:00")]
    [InlineData("2024-01-02T09:30:00Z")]
    public void SearchRefusesATimeWithoutADateOrWithAZoneTheFileDoesNotRecord(string time)
    {
        string path = _directory.File("seconds.bt");
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending))
        {
            series.Add(Start);
        }

        ToolResult result = ToolRunner.Run("search", path, time);

        Assert.Equal(2, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
    }

    [Fact]
    public void SearchTakesUnixSeconds()
    {
        string path = _directory.File("seconds.bt");
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending))
        {
            series.AddRange([Start, Start.AddSeconds(1), Start.AddSeconds(2)]);
        }

        ToolResult result = ToolRunner.Run("search", path, "1704187801");

        Assert.True(result.ExitCode == 0, result.Output + result.Error);
        Assert.Contains("LowerBound 1  UpperBound 2", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void SearchOfAUtcSeriesConvertsATimeWithAnOffset()
    {
        string path = _directory.File("seconds.bt");
        DateTime start = DateTime.SpecifyKind(Start, DateTimeKind.Utc);
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending, options: new ListMmfOptions { TimesAreUtc = true }))
        {
            series.AddRange([start, start.AddSeconds(1), start.AddSeconds(2)]);
        }

        ToolResult result = ToolRunner.Run("search", path, "2024-01-02T04:30:01-05:00");

        Assert.True(result.ExitCode == 0, result.Output + result.Error);
        Assert.Contains("LowerBound 1  UpperBound 2", result.Output, StringComparison.Ordinal);
    }

    public struct Quote
    {
        public long Sequence;
        public double Bid;
        public bool Live;
        public char Side;
    }
}
