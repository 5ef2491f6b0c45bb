using System;
using System.IO;
using System.Linq;
using ListMmf.Tests.MultiProcess;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// The open of a replacement's new file fails in a real process (strace makes the open of the list's path fail
/// with EMFILE once the new file is in place): the list must refuse the appends that follow, which would otherwise
/// go to the old file, which no name reaches any more, and be lost.
/// </summary>
public sealed class ReplacementStraceTests : IDisposable
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(5);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("list.bin");

    [StraceFact]
    public void AppendsAfterATruncateBeginningWhoseNewFileCouldNotBeOpenedAreRefused()
    {
        using (var list = new ListMmf<long>(FilePath))
        {
            list.AddRange(Enumerable.Range(0, 1_000).Select(i => (long)i).ToArray());
        }

        // The first open of the path is the writer's; the second is the new file's, after the rename.
        string output = RunFailingTheOpen(2, "truncate-then-append");

        Assert.StartsWith("refused", output, StringComparison.Ordinal);
        using var reader = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Equal(Enumerable.Range(100, 900).Select(i => (long)i), reader.ToArray());
    }

    [StraceFact]
    public void AppendsAfterAWideningWhoseNewFileCouldNotBeOpenedAreRefused()
    {
        // The first open of the path is the writer's; the second reads the widened file's width.
        string output = RunFailingTheOpen(2, "widen-then-append");

        Assert.StartsWith("refused", output, StringComparison.Ordinal);
        Assert.Equal(0, ListMmfFileInfo.Read(FilePath).Count);
        Assert.Equal(DataType.Int64, ListMmfFileInfo.Read(FilePath).DataType);
    }

    [StraceFact]
    public void ARenameRefusedAcrossFileSystemsLeavesTheLiveFileAsItWasInsteadOfCopyingOverIt()
    {
        using (var list = new ListMmf<long>(FilePath))
        {
            list.AddRange(Enumerable.Range(0, 1_000).Select(i => (long)i).ToArray());
        }

        // File.Move answers EXDEV by copying the new file over the target in place (O_TRUNC on a file that is open and
        // mapped); with .NET's own file locking off nothing stops that copy.
        using var child = ChildProcess.StartUnderStrace(
            ["-E", "DOTNET_SYSTEM_IO_DISABLEFILELOCKING=1", "-e", "trace=rename,renameat,renameat2", "-e", "inject=rename,renameat,renameat2:error=EXDEV"],
            "truncate-then-append",
            FilePath);
        int exit = child.WaitForExit(Deadline);
        string output = child.ReadLine() ?? "";
        string error = child.ErrorText();

        Assert.True(exit == 0, $"exit {exit}: {error}");
        Assert.Contains("errno 18", error, StringComparison.Ordinal);
        Assert.Contains("The file is unchanged", error, StringComparison.Ordinal);
        Assert.StartsWith("appended", output, StringComparison.Ordinal);
        using var reader = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Equal(Enumerable.Range(0, 1_000).Concat(Enumerable.Range(0, 50)).Select(i => (long)i), reader.ToArray());
    }

    private string RunFailingTheOpen(int when, string command)
    {
        using var child = ChildProcess.StartUnderStrace(["-P", FilePath, "-e", "trace=openat,openat2", "-e", $"inject=openat,openat2:error=EMFILE:when={when}"], command, FilePath);
        int exit = child.WaitForExit(Deadline);
        Assert.True(exit == 0, $"exit {exit}: {child.ErrorText()}");
        return child.ReadLine() ?? "";
    }
}
