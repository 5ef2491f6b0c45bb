using System;
using System.IO;
using System.Linq;
using ListMmf.Tests.Tool;
using Xunit;
using Quote = ListMmf.Tests.Format.ListMmfDescriptionTests.Quote;

namespace ListMmf.Tests.Format;

/// <summary>
/// <c>ListMmfFileInfo.Upgrade</c>, <c>TimeSeriesTable.Upgrade</c> and <c>listmmf upgrade</c>: version 1 files become
/// version 2 by replacement, items and description kept, readers following.
/// </summary>
public sealed class FormatUpgradeTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("quotes.bin");

    private static ListMmfOptions Version1 => new() { FormatVersion = ListMmfFormatVersion.Version1 };

    [Fact]
    public void AVersion1StructFileBecomesVersion2WithItsItemsAndItsDescriptionInTheHeader()
    {
        using (var quotes = new ListMmf<Quote>(FilePath, FileAccess.ReadWrite, Version1))
        {
            quotes.AddRange(Enumerable.Range(0, 5_000).Select(i => new Quote { Time = i, Bid = i * 0.25 }).ToArray());
        }

        Assert.True(ListMmfFileInfo.Upgrade(FilePath));

        ListMmfFileInfo info = ListMmfFileInfo.Read(FilePath);
        Assert.Equal((2, 5_000L, 5_000L), (info.Version, info.Count, info.DurableCount));
        Assert.False(File.Exists(ListMmfDescription.PathFor(FilePath)), "the description beside the file is left behind");
        Assert.Equal(nameof(Quote), ListMmfDescription.Read(FilePath)!.ItemType);
        using var reader = new ListMmf<Quote>(FilePath, FileAccess.Read);
        Assert.Equal(Enumerable.Range(0, 5_000).Select(i => (long)i), reader.Select(quote => quote.Time));
        Assert.Throws<ListMmfDataTypeException>(() => new ListMmf<ListMmfDescriptionTests.ReorderedQuote>(FilePath, FileAccess.Read));
    }

    [Fact]
    public void AVersion2FileIsLeftAsItIs()
    {
        using (var list = new ListMmf<long>(FilePath))
        {
            list.Add(1);
        }

        byte[] before = File.ReadAllBytes(FilePath);

        Assert.False(ListMmfFileInfo.Upgrade(FilePath));
        Assert.Equal(before, File.ReadAllBytes(FilePath));
    }

    [Fact]
    public void ALiveReaderFollowsTheUpgradeToTheNewFile()
    {
        using (var writer = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Version1))
        {
            writer.AddRange([1, 2, 3]);
        }

        using var reader = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Equal(3, reader.Count);

        ListMmfFileInfo.Upgrade(FilePath);
        using (var writer = new ListMmf<long>(FilePath))
        {
            writer.Add(4);
        }

        Assert.Equal(4, reader.Count);
        Assert.Equal([1L, 2, 3, 4], reader.ToArray());
    }

    [Fact]
    public void AFileWithAWriterIsRefusedAndLeftAsItWas()
    {
        using var writer = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Version1);
        writer.Add(1);

        Assert.Throws<ListMmfLockedException>(() => ListMmfFileInfo.Upgrade(FilePath));
        Assert.Equal(1, ListMmfFileInfo.Read(FilePath).Version);
    }

    [Fact]
    public void EveryColumnOfATableIsUpgradedAndTheTableReadsTheSame()
    {
        string folder = _directory.File("ticks");
        var schema = new TimeSeriesTableSchema("time").Add<double>("price").Add<int>("size");
        using (var table = TimeSeriesTable.Create(folder, schema, Version1))
        {
            for (int i = 0; i < 1_000; i++)
            {
                table.Column<double>("price").Add(4500 + (i * 0.25));
                table.Column<int>("size").Add(i);
                table.AddRow(new DateTime(2024, 1, 2).AddSeconds(i));
            }
        }

        Assert.Equal(3, TimeSeriesTable.Upgrade(folder));

        Assert.All(Directory.GetFiles(folder, "*.mmf"), file => Assert.Equal(2, ListMmfFileInfo.Read(file).Version));
        using var reader = TimeSeriesTable.Open(folder, FileAccess.Read);
        Assert.Equal(1_000, reader.RowCount);
        Assert.Equal(700, reader.LowerBound(new DateTime(2024, 1, 2).AddSeconds(700)));
        Assert.Equal(0, TimeSeriesTable.Upgrade(folder));
    }

    [Fact]
    public void TheToolUpgradesAFileAndSaysSo()
    {
        using (var list = new ListMmf<int>(FilePath, FileAccess.ReadWrite, Version1))
        {
            list.Add(7);
        }

        ToolResult result = ToolRunner.Run("upgrade", FilePath);
        ToolResult again = ToolRunner.Run("upgrade", FilePath);

        Assert.True(result.ExitCode == 0, result.Error);
        Assert.Contains("converted to version 2", result.Output, StringComparison.Ordinal);
        Assert.Contains("version 2 already", again.Output, StringComparison.Ordinal);
        Assert.Contains("version 2,", ToolRunner.Run("info", FilePath).Output, StringComparison.Ordinal);
    }
}
