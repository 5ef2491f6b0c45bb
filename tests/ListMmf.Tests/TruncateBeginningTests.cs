using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Storage;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests;

public sealed class TruncateBeginningTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("list.bt");

    [Fact]
    public void TheWriterAndItsReadersSeeTheItemsAfterTheDroppedOnes()
    {
        using var writer = new ListMmf<int>(FilePath);
        writer.AddRange(Enumerable.Range(0, 10_000).ToArray());
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        ReadOnlySpan<int> before = reader.AsSpan(0, 3);

        writer.TruncateBeginning(4_000);
        writer.Add(10_000);

        Assert.Equal(6_001, writer.Count);
        Assert.Equal(6_001, reader.Count);
        Assert.Equal(4_000, reader[0]);
        Assert.Equal(10_000, reader[6_000]);
        Assert.Equal([0, 1, 2], before.ToArray());
        Assert.Empty(Directory.GetFiles(_directory.Path, "*.tmp"));
    }

    [Fact]
    public void AGatherThatMovesToTheNewFileReadsTheRestOfItsRowsFromIt()
    {
        using var writer = new ListMmf<int>(FilePath);
        writer.AddRange(Enumerable.Range(0, 100).ToArray());
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        ReplacementCheck.t_recheckMilliseconds = 30_000;
        try
        {
            // The writer has marked its file and not renamed yet: the reader finds its own file there, and waits.
            writer.Storage.MarkReplaced();
            Assert.Equal(100, reader.Count);
            writer.TruncateBeginning(50);
            writer.AddRange(Enumerable.Range(100, 100).ToArray());
            Assert.Equal(100, reader.Count);

            // Row 120 is past the count the gather began with: reading it moves the reader, and row 5 is the new file's.
            var gathered = new int[2];
            reader.Gather([120, 5], gathered);

            Assert.Equal([170, 55], gathered);
        }
        finally
        {
            ReplacementCheck.t_recheckMilliseconds = 0;
        }
    }

    [Fact]
    public void EnumeratorsStartedBeforeTheReplacementGoOnShowingTheOldFile()
    {
        using var writer = new ListMmf<int>(FilePath);
        writer.AddRange(Enumerable.Range(0, 100_000).ToArray());
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        ListMmf<int>.Enumerator writing = writer.GetEnumerator();
        ListMmf<int>.Enumerator reading = reader.GetEnumerator();
        Assert.True(writing.MoveNext() && reading.MoveNext());

        writer.TruncateBeginning(99_000);
        Assert.Equal(1_000, reader.Count);

        var seenByWriter = new List<int> { writing.Current };
        var seenByReader = new List<int> { reading.Current };
        while (writing.MoveNext())
        {
            seenByWriter.Add(writing.Current);
        }

        while (reading.MoveNext())
        {
            seenByReader.Add(reading.Current);
        }

        Assert.Equal(Enumerable.Range(0, 100_000), seenByWriter);
        Assert.Equal(Enumerable.Range(0, 100_000), seenByReader);
    }

    /// <summary>A reader's options apply to the file it moves to as to the one it opened: PopulateOnOpen maps the new items in.</summary>
    [LinuxFact]
    public void AReaderThatPopulatesOnOpenPopulatesTheReplacementToo()
    {
        const int Items = 2_000_000;
        using (var filler = new ListMmf<long>(FilePath))
        {
            filler.AddRange(Enumerable.Range(0, Items).Select(i => (long)i).ToArray());
        }

        using var populating = new ListMmf<long>(FilePath, FileAccess.Read, new ListMmfOptions { PopulateOnOpen = true });
        using (var writer = new ListMmf<long>(FilePath))
        {
            writer.TruncateBeginning(Items / 2);
        }

        Assert.Equal(Items / 2, populating.Count);
        long resident = ProcessMappings.Bytes(populating.Path, "Rss");
        Assert.True(resident >= Items / 2 * sizeof(long) * 9 / 10, $"{resident:N0} bytes of the new file resident, of {Items / 2 * sizeof(long):N0}");
    }

    /// <summary>
    /// A reader that opens a file already marked replaced opens the path again, for the newer file there; a file
    /// left marked with nothing newer behind it (damage, or a hand edit) is refused after a bounded number of looks.
    /// </summary>
    [Fact]
    public void AReaderOfAFileLeftMarkedReplacedReadsItWhole()
    {
        WriteMarkedFile([1, 2, 3]);

        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);

        Assert.Equal([1, 2, 3], reader.ToArray());
    }

    [Fact]
    public void TheNextWriterClearsTheMarkOfAReplacementKilledBeforeItsRename()
    {
        WriteMarkedFile([1, 2, 3]);

        using (var writer = new ListMmf<int>(FilePath))
        {
            Assert.Equal(3, writer.Count);
        }

        Assert.Equal(0, MarkOnDisk());
    }

    [Fact]
    public void AReaderOnAMarkedFileStaysOnItWithoutReopeningItForEveryRead()
    {
        WriteMarkedFile([1, 2, 3]);
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);

        for (int i = 0; i < 1000; i++)
        {
            Assert.Equal(3, reader.Count);
        }

        // One move per look at the path would have counted generations; staying on the file counts none.
        Assert.Equal(0, reader.Generation);
    }

    [FileIdentityFact]
    public void AReaderLeftOnAnOldFileMovesToANewerFileAtThePathThatIsMarkedToo()
    {
        using var writer = new ListMmf<int>(FilePath);
        writer.AddRange(Enumerable.Range(0, 1_000).ToArray());
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        Assert.Equal(1_000, reader.Count);
        writer.TruncateBeginning(100);
        writer.Add(1_000);

        // The next replacement's writer marks the new file and dies before its rename; the reader never looked between.
        writer.Storage.MarkReplaced();

        Assert.Equal(901, reader.Count);
        Assert.Equal(100, reader[0]);
    }

    [Fact]
    public void AReaderOnAMarkedFileMovesOnOnceTheNextWriterClearsTheMark()
    {
        WriteMarkedFile([1, 2, 3]);
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        using var writer = new ListMmf<int>(FilePath);
        writer.Add(4);

        Assert.Equal(4, reader.Count);
        Assert.Equal(4, reader[3]);
    }

    private void WriteMarkedFile(int[] items)
    {
        using (var list = new ListMmf<int>(FilePath))
        {
            list.AddRange(items);
        }

        // A version 2 file keeps the mark in its state field, at byte 16.
        using var file = new FileStream(FilePath, FileMode.Open, FileAccess.Write);
        file.Position = MarkOffset;
        file.Write(BitConverter.GetBytes(-1));
    }

    private const int MarkOffset = 16;

    private int MarkOnDisk() => BitConverter.ToInt32(File.ReadAllBytes(FilePath), MarkOffset);

    [Fact]
    public void TheNextWriterRemovesWhatAnInterruptedTruncateBeginningLeft()
    {
        using (var list = new ListMmf<int>(FilePath))
        {
            list.AddRange([1, 2, 3]);
        }

        string leftover = ListMmf.Storage.DurableFile.TemporaryFor(FilePath);
        File.WriteAllBytes(leftover, new byte[100]);

        using var writer = new ListMmf<int>(FilePath);

        Assert.False(File.Exists(leftover), "the interrupted replacement's temporary file is still there");
        Assert.Equal(3, writer.Count);
    }

    [Fact]
    public void ASeriesSearchedThroughItsPageIndexAnswersForTheNewItems()
    {
        using var writer = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending);
        writer.AddRange(Enumerable.Range(0, 200_000).Select(i => Start.AddSeconds(i)).ToArray());
        using var reader = ListMmfTimeSeriesDateTimeSeconds.OpenRead(FilePath, TimeSeriesOrder.Ascending);
        reader.Keys.IndexMinimumPages = 1;
        writer.Keys.IndexMinimumPages = 1;
        Assert.Equal(150_000, reader.LowerBound(Start.AddSeconds(150_000)));
        Assert.NotNull(reader.Keys.Index);

        writer.TruncateBeginning(100_000);
        writer.AddRange(Enumerable.Range(200_000, 100_000).Select(i => Start.AddSeconds(i)).ToArray());

        Assert.Equal(50_000, reader.LowerBound(Start.AddSeconds(150_000)));
        Assert.Equal(150_000, reader.LowerBound(Start.AddSeconds(250_000)));
        Assert.Equal(0, reader.LowerBound(Start));
        Assert.Equal(50_000, writer.LowerBound(Start.AddSeconds(150_000)));
    }

    [Fact]
    public void TheWriterKeepsItsLockAcrossTheReplacement()
    {
        using var writer = new ListMmf<long>(FilePath);
        writer.AddRange([1, 2, 3]);

        writer.TruncateBeginning(1);

        Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(FilePath));
    }

    [Fact]
    public void TruncatingMoreThanTheCountIsRefused()
    {
        using var writer = new ListMmf<long>(FilePath);
        writer.AddRange([1, 2, 3]);

        Assert.Throws<ArgumentOutOfRangeException>(() => writer.TruncateBeginning(4));
        Assert.Throws<ArgumentOutOfRangeException>(() => writer.TruncateBeginning(-1));
        Assert.Equal(3, writer.Count);
    }

    [Fact]
    public void AReaderCannotTruncate()
    {
        using (var writer = new ListMmf<long>(FilePath))
        {
            writer.Add(1);
        }

        using var reader = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Throws<NotSupportedException>(() => reader.TruncateBeginning(1));
    }

    [TmpfsFact]
    public void TruncatingOnAFullDiskLeavesTheFileWholeAndSaysSo()
    {
        using var disk = new TmpfsMount("size=1m");
        string path = disk.File("list.bt");
        using var writer = new ListMmf<long>(path);
        writer.AddRange(Enumerable.Range(0, 100_000).Select(i => (long)i).ToArray());
        File.WriteAllBytes(disk.File("filler"), new byte[(1 << 20) - (int)new FileInfo(path).Length - (64 * 1024)]);

        var error = Assert.Throws<ListMmfException>(() => writer.TruncateBeginning(10));

        Assert.Contains("The file is unchanged", error.Message);
        Assert.Equal(100_000, writer.Count);
        Assert.Equal(0, writer[0]);
        Assert.Empty(Directory.GetFiles(disk.Path, "*.tmp"));
    }
}
