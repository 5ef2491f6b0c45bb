using System;
using System.IO;
using System.Linq;
using ListMmf.Tests.MultiProcess;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>One writer per file, by whatever name the file is reached, whatever the environment says.</summary>
public sealed class WriterLockTests : IDisposable
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(5);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("locked.bin");

    [UnixFact]
    public void SecondWriterThroughASymlinkToTheFileIsRefused()
    {
        using var first = new ListMmf<long>(FilePath);
        string link = _directory.File("link.bin");
        File.CreateSymbolicLink(link, FilePath);

        var exception = Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(link));

        Assert.Equal(link, exception.FilePath);
    }

    [UnixFact]
    public void SecondWriterThroughASymlinkedDirectoryIsRefused()
    {
        using var first = new ListMmf<long>(FilePath);
        string linkedDirectory = _directory.File("linked-dir");
        Directory.CreateSymbolicLink(linkedDirectory, _directory.Path);

        Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(Path.Combine(linkedDirectory, "locked.bin")));
    }

    [UnixFact]
    public void WriterThroughASymlinkHoldsTheLockOfTheRealFile()
    {
        using (new ListMmf<long>(FilePath))
        {
        }

        string link = _directory.File("link.bin");
        File.CreateSymbolicLink(link, FilePath);
        using var first = new ListMmf<long>(link);

        Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(FilePath));
    }

    [UnixFact]
    public void AWriterThroughADanglingSymlinkCreatesTheFileItNamesAndLocksThatFile()
    {
        Directory.CreateDirectory(_directory.File("days"));
        string day = _directory.File(Path.Combine("days", "day1.bin"));
        string link = _directory.File("current");
        File.CreateSymbolicLink(link, day);

        using (var writer = new ListMmf<long>(link))
        {
            writer.AddRange([1, 2, 3]);
            Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(day));
        }

        using (var reader = new ListMmf<long>(day, FileAccess.Read))
        {
            Assert.Equal([1L, 2L, 3L], reader.ToArray());
        }

        Assert.Equal(day, new FileInfo(link).LinkTarget);
        Assert.Equal([link], Directory.GetFileSystemEntries(_directory.Path).Where(entry => !Directory.Exists(entry)));
    }

    [UnixFact]
    public void AReplacementActsOnTheFileTheWriterHoldsAfterItsLinkIsPointedElsewhere()
    {
        string day1 = _directory.File("day1.bin");
        string day2 = _directory.File("day2.bin");
        string current = _directory.File("current");
        File.CreateSymbolicLink(current, day1);
        using var first = new ListMmf<long>(current);
        first.AddRange(Enumerable.Range(0, 100).Select(i => (long)i).ToArray());
        using var second = new ListMmf<long>(day2);
        second.AddRange(Enumerable.Range(1_000, 50).Select(i => (long)i).ToArray());
        File.Delete(current);
        File.CreateSymbolicLink(current, day2);

        first.TruncateBeginning(10);
        second.Add(2_000);

        Assert.Equal(Enumerable.Range(10, 90).Select(i => (long)i), first.ToArray());
        using var day1Reader = new ListMmf<long>(day1, FileAccess.Read);
        using var day2Reader = new ListMmf<long>(day2, FileAccess.Read);
        Assert.Equal(Enumerable.Range(10, 90).Select(i => (long)i), day1Reader.ToArray());
        Assert.Equal(Enumerable.Range(1_000, 50).Select(i => (long)i).Append(2_000), day2Reader.ToArray());
    }

    [PathIdentityFact]
    public void AReplacementOfAFileRenamedAwayIsRefusedAndChangesNothing()
    {
        string moved = _directory.File("moved.bin");
        using var writer = new ListMmf<long>(FilePath);
        writer.AddRange(Enumerable.Range(0, 100).Select(i => (long)i).ToArray());
        File.Move(FilePath, moved);
        using (var stranger = new ListMmf<long>(_directory.File("stranger.bin")))
        {
            stranger.Add(-1);
        }

        File.Move(_directory.File("stranger.bin"), FilePath);

        var refused = Assert.Throws<ListMmfException>(() => writer.TruncateBeginning(10));

        Assert.Contains("no longer at", refused.Message, StringComparison.Ordinal);
        Assert.Contains("The file is unchanged", refused.Message, StringComparison.Ordinal);
        Assert.Equal(100, writer.Count);
        using var strangerReader = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Equal([-1L], strangerReader.ToArray());
    }

    [UnixFact]
    public void OpeningTheSidecarOfAFileThisProcessWritesIsRefusedAndTheLockHolds()
    {
        using var writer = new ListMmf<long>(FilePath);
        string sidecar = FilePath + ".writer-lock";

        var info = Assert.Throws<ListMmfException>(() => ListMmfFileInfo.Read(sidecar));
        var list = Assert.Throws<ListMmfException>(() => new ListMmf<long>(sidecar, FileAccess.Read));
        var integers = Assert.Throws<ListMmfException>(() => IntegerListMmf.Open(sidecar, FileAccess.Read));
        var sealedMark = Assert.Throws<ListMmfException>(() => SealedListMmf.IsSealed(sidecar));
        var sealedList = Assert.Throws<ListMmfException>(() => new SealedListMmf<long>(sidecar));

        Assert.Contains("writer lock", info.Message, StringComparison.Ordinal);
        Assert.Contains("writer lock", list.Message, StringComparison.Ordinal);
        Assert.Contains("writer lock", integers.Message, StringComparison.Ordinal);
        Assert.Contains("writer lock", sealedMark.Message, StringComparison.Ordinal);
        Assert.Contains("writer lock", sealedList.Message, StringComparison.Ordinal);
        Assert.Equal(5, OtherProcessCreating(FilePath));
    }

    [PathIdentityFact]
    public void ASecondWriterThroughARenamedDirectoryIsRefusedAndItsRefusalKeepsTheLock()
    {
        string before = _directory.File("day1");
        string after = _directory.File("renamed");
        Directory.CreateDirectory(before);
        using var writer = new ListMmf<long>(Path.Combine(before, "x.bin"));
        Directory.Move(before, after);
        string alias = Path.Combine(after, "x.bin");

        Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(alias));
        Assert.Throws<ListMmfLockedException>(() => new ListMmf<int>(alias));
        Assert.Equal(5, OtherProcessCreating(alias));
    }

    /// <summary>The exit code of another process opening <paramref name="path"/> as its writer: 5 when it is refused as locked.</summary>
    private static int OtherProcessCreating(string path)
    {
        using var other = ChildProcess.Start("create", path);
        return other.WaitForExit(Deadline);
    }

    [Fact]
    public void SecondWriterThroughARelativePathIsRefused()
    {
        using var first = new ListMmf<long>(FilePath);
        string roundabout = Path.Combine(_directory.Path, "sub", "..", "locked.bin");
        Directory.CreateDirectory(Path.Combine(_directory.Path, "sub"));

        Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(roundabout));
    }

    [UnixFact]
    public void DisabledDotnetFileLockingDoesNotLetASecondWriterIn()
    {
        using var holder = ChildProcess.StartWithEnvironment("DOTNET_SYSTEM_IO_DISABLEFILELOCKING", "1", "hold", FilePath);
        Assert.Equal("holding", holder.ReadLine());

        using var second = ChildProcess.StartWithEnvironment("DOTNET_SYSTEM_IO_DISABLEFILELOCKING", "1", "create", FilePath);
        int exit = second.WaitForExit(Deadline);

        Assert.True(exit == 5, $"the second writer exited {exit}, not 5 (ListMmfLockedException): {second.ErrorText()}");
        holder.CloseInput();
        Assert.Equal(0, holder.WaitForExit(Deadline));
    }

    [UnixFact]
    public void LockFileThatCannotBeOpenedIsNotReportedAsAnotherWriter()
    {
        // The sidecar is a link into a directory that does not exist: it can be neither opened nor created.
        File.CreateSymbolicLink(FilePath + ".writer-lock", Path.Combine(_directory.Path, "missing", "lock"));

        var exception = Assert.Throws<ListMmfException>(() => new ListMmf<long>(FilePath));

        Assert.IsNotType<ListMmfLockedException>(exception);
        Assert.Contains("writer lock", exception.Message, StringComparison.Ordinal);
    }
}
