using System;
using System.Buffers.Binary;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Format;

/// <summary>
/// Version 2's promises, on files in the states a power loss and a copy leave: the header on a block of its own, the
/// durable count that readers and the next writer of a later boot trust, the checksum, and the format kept across
/// replacements. A later boot is simulated the way the disk shows it: the header's session is another boot's.
/// </summary>
public sealed class Version2FormatTests : IDisposable
{
    private const int SessionOffset = 32;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("ticks.bin");

    private static ListMmfOptions Version1 => new() { FormatVersion = ListMmfFormatVersion.Version1 };

    [Fact]
    public void ANewFileIsVersion2WithItsItemsOnABlockAfterTheHeader()
    {
        using (var list = new ListMmf<long>(FilePath))
        {
            list.Add(42);
        }

        byte[] bytes = File.ReadAllBytes(FilePath);
        ListMmfFileInfo info = ListMmfFileInfo.Read(FilePath);
        Assert.Equal(2, BinaryPrimitives.ReadInt32LittleEndian(bytes));
        Assert.Equal(2, info.Version);
        Assert.Equal(4096, info.ItemsOffset);
        Assert.Equal(42, BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(4096)));
        Assert.All(bytes.Skip(ListMmfHeaderBytes(bytes)).Take(4096 - ListMmfHeaderBytes(bytes)), b => Assert.Equal(0, b));
    }

    [Fact]
    public void AReaderOfALaterBootSeesTheLastFlushNotTheItemsAfterIt()
    {
        byte[] image = PowerLossImage(flushed: 1_000, appended: 500);
        File.WriteAllBytes(FilePath, image);

        using var reader = new ListMmf<long>(FilePath, FileAccess.Read);

        Assert.Equal(1_000, reader.Count);
        Assert.Equal(Enumerable.Range(0, 1_000).Select(i => (long)i), reader.AsSpan(0, 1_000).ToArray());
    }

    /// <summary>
    /// The page cache lost without a reboot (a disk detached and attached again): a reader of the same boot trusts the
    /// live count and reads zeros past the last flush, until the user says what happened; then it reads the last
    /// flush, and the next writer goes on after it.
    /// </summary>
    [Fact]
    public void AFileWhosePageCacheWasLostIsReadUpToItsLastFlushOnceReverted()
    {
        byte[] image = PowerLossImage(flushed: 1_000, appended: 500);
        BinaryPrimitives.WriteUInt64LittleEndian(image.AsSpan(SessionOffset), BinaryPrimitives.ReadUInt64LittleEndian(image.AsSpan(SessionOffset)) ^ 0x5A5A);
        File.WriteAllBytes(FilePath, image);
        using (var before = new ListMmf<long>(FilePath, FileAccess.Read))
        {
            Assert.Equal(1_500, before.Count);
            Assert.Equal(0, before[1_499]);
        }

        Assert.Equal(1_000, ListMmfFileInfo.RevertToLastFlush(FilePath));

        using (var reader = new ListMmf<long>(FilePath, FileAccess.Read))
        {
            Assert.Equal(1_000, reader.Count);
            Assert.Equal(Enumerable.Range(0, 1_000).Select(i => (long)i), reader.AsSpan(0, 1_000).ToArray());
        }

        using var writer = new ListMmf<long>(FilePath);
        writer.Add(-1);
        Assert.Equal(1_001, writer.Count);
    }

    /// <summary>The tool's revert-to-flush sets a table's columns back to their last flush and says how many rows remain.</summary>
    [Fact]
    public void TheToolRevertsATableToItsLastFlush()
    {
        string folder = _directory.File("ticks");
        using (TimeSeriesTable table = ListMmf.TestHost.TickTable.CreateWithRows(folder, 10))
        {
            table.Flush();
        }

        ListMmf.Tests.Tool.ToolResult revert = ListMmf.Tests.Tool.ToolRunner.Run("revert-to-flush", folder);

        Assert.True(revert.ExitCode == 0, revert.Error);
        Assert.Contains("10 rows, as last flushed", revert.Output, StringComparison.Ordinal);
        using TimeSeriesTable reader = TimeSeriesTable.Open(folder, FileAccess.Read);
        Assert.Equal(10, reader.RowCount);
    }

    [Fact]
    public void RevertingAVersion1FileIsRefusedForItHasNoLastFlush()
    {
        using (var list = new ListMmf<long>(FilePath, FileAccess.ReadWrite, ListMmfOptions.Default with { FormatVersion = ListMmfFormatVersion.Version1 }))
        {
            list.Add(1);
        }

        var error = Assert.Throws<ListMmfException>(() => ListMmfFileInfo.RevertToLastFlush(FilePath));

        Assert.Contains("records no durable count", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AWriterOfALaterBootGoesOnFromTheLastFlush()
    {
        File.WriteAllBytes(FilePath, PowerLossImage(flushed: 1_000, appended: 500));

        using (var writer = new ListMmf<long>(FilePath))
        {
            Assert.Equal(1_000, writer.Count);
            writer.Add(-1);
        }

        using var reader = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Equal(1_001, reader.Count);
        Assert.Equal(-1, reader[1_000]);
        Assert.Equal(999, reader[999]);
    }

    [Fact]
    public void ALiveCountOfAnotherBootPastTheEndOfTheFileIsNotDamage()
    {
        // The count reached the disk, the growth that held its items did not (the power-loss harness drew this image).
        byte[] image = PowerLossImage(flushed: 1_000, appended: 500);
        BinaryPrimitives.WriteInt64LittleEndian(image.AsSpan(8), 1_000_000);
        File.WriteAllBytes(FilePath, image);

        using (var reader = new ListMmf<long>(FilePath, FileAccess.Read))
        {
            Assert.Equal(1_000, reader.Count);
        }

        using var writer = new ListMmf<long>(FilePath);
        Assert.Equal(1_000, writer.Count);
    }

    [Fact]
    public void TheFileReadersAndTheFileInfoCountAsTheMappedReaderDoes()
    {
        File.WriteAllBytes(FilePath, PowerLossImage(flushed: 1_000, appended: 500));

        using var reader = new RandomAccessSortedReader<long>(FilePath);

        Assert.Equal(1_000, reader.Count);
        Assert.Equal(1_000, ListMmfFileInfo.Read(FilePath).Count);
        Assert.Equal(1_000, ListMmfFileInfo.Read(FilePath).DurableCount);
        Assert.Equal(999, reader.LowerBound(999));
    }

    [Fact]
    public void AReaderOfTheSameBootSeesEveryPublishedItemWithoutAFlush()
    {
        using var writer = new ListMmf<long>(FilePath);
        writer.AddRange(Enumerable.Range(0, 700).Select(i => (long)i).ToArray());

        using var reader = new ListMmf<long>(FilePath, FileAccess.Read);

        Assert.Equal(700, reader.Count);
        Assert.Equal(0, ListMmfFileInfo.Read(FilePath).DurableCount);
    }

    [Fact]
    public void AWritersCloseMakesItsItemsTheDurableCount()
    {
        using (var writer = new ListMmf<long>(FilePath))
        {
            writer.AddRange(new long[300]);
        }

        Assert.Equal(300, ListMmfFileInfo.Read(FilePath).DurableCount);
    }

    [Fact]
    public void FlushRaisesTheDurableCountToTheItems()
    {
        using var writer = new ListMmf<long>(FilePath);
        writer.AddRange(new long[300]);

        writer.Flush();

        Assert.Equal(300, ListMmfFileInfo.Read(FilePath).DurableCount);
    }

    [Fact]
    public void TruncateLowersTheDurableCountBeforeItemsAreWrittenAgain()
    {
        using var writer = new ListMmf<long>(FilePath);
        writer.AddRange(new long[300]);
        writer.Flush();

        writer.Truncate(100);

        Assert.Equal(100, ListMmfFileInfo.Read(FilePath).DurableCount);
    }

    [Fact]
    public void ADamagedHeaderIsRefusedByItsChecksumAndLeftAsItWas()
    {
        using (var writer = new SortedListMmf<long>(FilePath, TimeSeriesOrder.Ascending))
        {
            writer.Add(1);
        }

        byte[] bytes = File.ReadAllBytes(FilePath);
        bytes[80] ^= 0x20;
        File.WriteAllBytes(FilePath, bytes);

        var refused = Assert.Throws<ListMmfFormatException>(() => new ListMmf<long>(FilePath));

        Assert.Contains("checksum", refused.Message, StringComparison.Ordinal);
        Assert.Equal(FilePath, refused.FilePath);
        Assert.Equal(bytes, File.ReadAllBytes(FilePath));
    }

    [Theory]
    [InlineData(ListMmfFormatVersion.Version1, 1)]
    [InlineData(ListMmfFormatVersion.Version2, 2)]
    public void AFileKeepsItsFormatAcrossTruncateBeginning(ListMmfFormatVersion format, int version)
    {
        using var writer = new ListMmf<long>(FilePath, FileAccess.ReadWrite, new ListMmfOptions { FormatVersion = format });
        writer.AddRange(Enumerable.Range(0, 1_000).Select(i => (long)i).ToArray());

        writer.TruncateBeginning(400);

        Assert.Equal(version, ListMmfFileInfo.Read(FilePath).Version);
        Assert.Equal(400, writer[0]);
    }

    [Fact]
    public void AWideningKeepsAVersion1FileVersion1()
    {
        using var list = IntegerListMmf.OpenSmallest(FilePath, Version1);
        list.Add(1);

        list.Add(100_000);

        Assert.Equal(1, ListMmfFileInfo.Read(FilePath).Version);
        Assert.Equal(100_000, list[1]);
    }

    [Fact]
    public void AnExistingVersion1FileStaysVersion1WhateverTheOptionsSay()
    {
        using (var writer = new ListMmf<int>(FilePath, FileAccess.ReadWrite, Version1))
        {
            writer.Add(1);
        }

        using (var writer = new ListMmf<int>(FilePath))
        {
            writer.Add(2);
            writer.Flush();
        }

        byte[] bytes = File.ReadAllBytes(FilePath);
        Assert.Equal(0, BinaryPrimitives.ReadInt32LittleEndian(bytes));
        Assert.Equal(2, BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(8)));
        Assert.Equal(2, BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(20)));
    }

    /// <summary>
    /// The disk after a power loss: <paramref name="flushed"/> items flushed, <paramref name="appended"/> more
    /// published, and the header (live count, another boot's session) written back before those items, which read as
    /// zeros.
    /// </summary>
    private byte[] PowerLossImage(long flushed, int appended)
    {
        string source = _directory.File("source.bin");
        using var writer = new ListMmf<long>(source);
        writer.AddRange(Enumerable.Range(0, (int)flushed).Select(i => (long)i).ToArray());
        writer.Flush();
        writer.AddRange(Enumerable.Range((int)flushed, appended).Select(i => (long)i).ToArray());

        using var file = new FileStream(source, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        byte[] image = new byte[file.Length];
        file.ReadExactly(image);
        Assert.Equal(flushed + appended, ListMmfHeader.LiveCountOf(BinaryPrimitives.ReadInt64LittleEndian(image.AsSpan(8))));
        image.AsSpan(4096 + (int)(flushed * sizeof(long)), appended * sizeof(long)).Clear();
        BinaryPrimitives.WriteUInt64LittleEndian(image.AsSpan(SessionOffset), BinaryPrimitives.ReadUInt64LittleEndian(image.AsSpan(SessionOffset)) ^ 0x5A5A);
        return image;
    }

    /// <summary>The bytes the header uses: 64 and its description.</summary>
    private static int ListMmfHeaderBytes(byte[] bytes) => 64 + BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(48));
}
