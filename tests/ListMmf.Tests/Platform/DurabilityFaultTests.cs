using System;
using System.IO;
using ListMmf.Tests.MultiProcess;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// A flush that the device fails must not return normally. strace makes the system calls fail in a child process,
/// as a dying disk or a full thin-provisioned volume would, and the child reports the exception it got.
/// </summary>
public sealed class DurabilityFaultTests : IDisposable
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(5);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("durable.bin");

    [StraceFact]
    public void FlushThrowsWhenTheHeadersBarrierFails()
    {
        using (new ListMmf<long>(FilePath))
        {
        }

        // A version 2 flush is two barriers on Linux, each an msync(MS_SYNC): the items', then the header's.
        (int exit, string error) = RunUnderStrace(["-e", "trace=msync", "-e", "inject=msync:error=EIO:when=2"], "flush", FilePath);

        Assert.True(exit == 4, $"exit {exit}: {error}");
        Assert.Contains("msync failed", error, StringComparison.Ordinal);
        Assert.Contains(Path.GetFullPath(FilePath), error, StringComparison.Ordinal);
    }

    [StraceFact]
    public void ATableFlushWhoseFilesFailRaisesNoDurableRowCount()
    {
        string folder = _directory.File("table");
        TimeSeriesTable.Create(folder, new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("price").Add<double>("size")).Dispose();

        // Every msync fails, on every thread the table's files are flushed on, and at the close after: a count raised in
        // the mapping after a failed barrier would still reach the file through the kernel's writeback.
        (int exit, string error) = RunUnderStrace(["-e", "trace=msync", "-e", "inject=msync:error=EIO:when=1+"], "table-flush", folder);

        Assert.True(exit == 4, $"exit {exit}: {error}");
        Assert.Contains("msync failed", error, StringComparison.Ordinal);
        Assert.Equal(0, ListMmfFileInfo.Read(Path.Combine(folder, "time.mmf")).DurableCount);
    }

    [StraceFact]
    public void FlushThrowsWhenMsyncFails()
    {
        using (new ListMmf<long>(FilePath))
        {
        }

        (int exit, string error) = RunUnderStrace(["-e", "trace=msync", "-e", "inject=msync:error=EIO"], "flush", FilePath);

        Assert.True(exit == 4, $"exit {exit}: {error}");
        Assert.Contains("msync failed", error, StringComparison.Ordinal);
    }

    [StraceFact]
    public void CreatingAFileThrowsWhenFsyncFails()
    {
        (int exit, string error) = RunUnderStrace(["-e", "trace=fsync", "-e", "inject=fsync:error=EIO"], "create", FilePath);

        Assert.True(exit == 4, $"exit {exit}: {error}");
        Assert.Contains("fsync failed", error, StringComparison.Ordinal);
        Assert.False(File.Exists(FilePath), "a file whose creation was not durable was published");
    }

    [StraceFact]
    public void CreatingAFileThrowsWhenTheDirectoryFsyncFails()
    {
        // The first fsync (the new file) succeeds; the second (its directory, after the rename) fails.
        (int exit, string error) = RunUnderStrace(["-e", "trace=fsync", "-e", "inject=fsync:error=EIO:when=2"], "create", FilePath);

        Assert.True(exit == 4, $"exit {exit}: {error}");
        Assert.Contains("fsync of the directory failed", error, StringComparison.Ordinal);
    }

    [StraceFact]
    public void WriterIsRefusedWhenLockingIsUnavailable()
    {
        // lockf is fcntl(F_SETLK) underneath; -P keeps the runtime's own fcntl calls on other files working.
        string lockPath = ListMmf.Storage.WriterLock.PathFor(FilePath);
        (int exit, string error) = RunUnderStrace(["-P", lockPath, "-e", "trace=fcntl", "-e", "inject=fcntl:error=ENOLCK"], "create", FilePath);

        // 4 is ListMmfException: "locking unavailable", not 5 (another writer), and never 0 (a silent pass).
        Assert.True(exit == 4, $"exit {exit}: {error}");
        Assert.Contains("File locking is unavailable here", error, StringComparison.Ordinal);
        Assert.False(File.Exists(FilePath), "a writer that could not lock went on to create the file");
    }

    [StraceFact]
    public void VerifyReportsItemsThatCannotBeRead()
    {
        using (var list = new ListMmf<long>(FilePath))
        {
            list.AddRange(new long[100_000]);
        }

        // Only this file's reads count (-P; the runtime reads its assemblies with pread too): opening reads the
        // header twice and Verify twice more, so the fifth read is the first of the items.
        (int exit, string error) = RunUnderStrace(["-P", Path.GetFullPath(FilePath), "-e", "trace=pread64", "-e", "inject=pread64:error=EIO:when=5+"], "check", FilePath);

        Assert.True(exit == 4, $"exit {exit}: {error}");
        Assert.Contains("could not be read at byte offset 4,096:", error, StringComparison.Ordinal);
    }

    private static (int ExitCode, string Error) RunUnderStrace(string[] straceOptions, params string[] args)
    {
        using var child = ChildProcess.StartUnderStrace(straceOptions, args);
        int exit = child.WaitForExit(Deadline);
        return (exit, child.ErrorText());
    }
}
