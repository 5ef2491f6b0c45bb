using System;
using System.IO;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests.Hostile;

/// <summary>Each row of the README's error table, produced for real: the exception type it names, and the file as it was.</summary>
public sealed class ErrorTableTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [TmpfsFact]
    public void CreatingOnAFullDiskThrowsListMmfExceptionAndLeavesNoFile()
    {
        using var disk = new TmpfsMount("size=32k");
        string path = disk.File("full.bin");

        var exception = Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));

        Assert.Equal(path, exception.FilePath);
        Assert.False(File.Exists(path), "a failed create left a file behind");
        Assert.Empty(Directory.GetFiles(disk.Path, "*.tmp"));
    }

    [TmpfsFact]
    public void CreatingOnACompletelyFullDiskThrowsListMmfException()
    {
        using var disk = new TmpfsMount("size=64k");
        File.WriteAllBytes(disk.File("filler"), new byte[64 * 1024]);
        string path = disk.File("full.bin");

        var exception = Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));

        Assert.Equal(path, exception.FilePath);
        Assert.False(File.Exists(path));
        Assert.Empty(Directory.GetFiles(disk.Path, "*.tmp"));
    }

    [TmpfsFact]
    public void CreatingWithNoFreeInodesThrowsListMmfException()
    {
        // The root directory and the writer lock take the only two inodes; the new file finds none.
        using var disk = new TmpfsMount("size=1m,nr_inodes=2");
        string path = disk.File("inodes.bin");

        var exception = Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));

        Assert.Equal(path, exception.FilePath);
        Assert.Contains("could not create the file", exception.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(path));
    }

    [TmpfsFact]
    public void WriterOnAReadOnlyFileSystemThrowsListMmfException()
    {
        using TmpfsMount disk = ReadOnlyDiskWithAList(out string path);

        var exception = Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));
        Assert.Equal(path, exception.FilePath);
        Assert.IsNotType<ListMmfLockedException>(exception);
    }

    [TmpfsFact]
    public void ReaderOnAReadOnlyFileSystemReadsTheItems()
    {
        using TmpfsMount disk = ReadOnlyDiskWithAList(out string path);

        using var reader = new ListMmf<long>(path, FileAccess.Read);
        Assert.Equal(3, reader.Count);
        Assert.Equal(3, reader[2]);
    }

    /// <summary>A tmpfs holding a list of three items at <paramref name="path"/>, then remounted read-only.</summary>
    private static TmpfsMount ReadOnlyDiskWithAList(out string path)
    {
        var disk = new TmpfsMount("size=1m");
        path = disk.File("readonly.bin");
        using (var list = new ListMmf<long>(path))
        {
            list.AddRange([1, 2, 3]);
        }

        disk.RemountReadOnly();
        return disk;
    }

    [Fact]
    public void ReaderInAMissingDirectoryThrowsFileNotFound()
    {
        string path = _directory.File(Path.Combine("missing", "list.bin"));

        var exception = Assert.Throws<FileNotFoundException>(() => new ListMmf<long>(path, FileAccess.Read));

        Assert.Equal(path, exception.FileName);
    }

    [Fact]
    public void FileReaderInAMissingDirectoryThrowsFileNotFound()
    {
        string path = _directory.File(Path.Combine("missing", "list.bin"));

        Assert.Throws<FileNotFoundException>(() => new RandomAccessSortedReader<long>(path));
    }

    [Fact]
    public void WriterOnADirectoryPathThrowsListMmfExceptionAndLeavesNoLockFile()
    {
        string path = _directory.File("a-directory");
        Directory.CreateDirectory(path);

        var exception = Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));

        Assert.Contains("directory", exception.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(path + ".writer-lock"), "a lock file was left beside the directory");
    }

    [Fact]
    public void ReaderOnADirectoryPathThrowsListMmfException()
    {
        string path = _directory.File("a-directory");
        Directory.CreateDirectory(path);

        Assert.Throws<ListMmfException>(() => new ListMmf<long>(path, FileAccess.Read));
    }

    [Fact]
    public void TemporaryFileOfAnInterruptedCreateIsRemovedByTheNextWriter()
    {
        string path = _directory.File("list.bin");
        string leftover = ListMmf.Storage.DurableFile.TemporaryFor(path);
        string unrelated = path + ".mine.tmp";
        File.WriteAllBytes(leftover, new byte[16]);
        File.WriteAllBytes(unrelated, new byte[16]);

        using var list = new ListMmf<long>(path);

        Assert.False(File.Exists(leftover), "the interrupted create's temporary file is still there");
        Assert.True(File.Exists(unrelated), "a file that is not this library's temporary file was removed");
    }

    [UnixFact]
    public void TemporaryFilesOfOtherNamesSurviveAWriterWhoseNameHasWildcards()
    {
        string path = _directory.File("a?.bin");
        string othersLeftover = $"{_directory.File("ab.bin")}.{Guid.NewGuid():N}.tmp";
        string otherCasing = $"{_directory.File("A?.bin")}.{Guid.NewGuid():N}.tmp";
        File.WriteAllBytes(othersLeftover, new byte[16]);
        File.WriteAllBytes(otherCasing, new byte[16]);

        using var list = new ListMmf<long>(path);

        Assert.True(File.Exists(othersLeftover), "another file's temporary file was removed");
        Assert.True(File.Exists(otherCasing), "a temporary file of a name differing in case was removed");
    }
}
