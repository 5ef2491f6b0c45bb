using System;
using System.IO;
using System.Runtime.Versioning;
using ListMmf.Storage;
using ListMmf.Tests.MultiProcess;
using Xunit;

namespace ListMmf.Tests.SharedFolder;

/// <summary>
/// A sidecar another user made so that the owner of the file cannot open it is refused with what it is and who made
/// it, and left as it is (removing it could race a writer that just replaced it); once it is gone, the owner writes.
/// </summary>
[UnsupportedOSPlatform("windows")]
public sealed class ForeignLockFileTests : IDisposable
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(2);
    private readonly SharedFolder _folder = new();

    public void Dispose() => _folder.Dispose();

    [OtherWriterFact]
    public void AWriterLockTheWriterCannotOpenIsRefusedNamingItsOwnerAndLeftAsItIs()
    {
        string path = _folder.File("ticks.bin");
        string lockPath = WriterLock.PathFor(path);
        Assert.Equal(0, Run("create", path).Exit);
        SharedFolder.Plant("sh", "-c", $"umask 077 && : > '{lockPath}'");

        (int exit, string error) = Run("flush", path);

        Assert.True(exit == 4, $"exit {exit}: {error}");
        Assert.Contains("cannot be opened for writing by this user (owner's user id", error, StringComparison.Ordinal);
        Assert.Contains("sticky bit", error, StringComparison.Ordinal);
        Assert.True(File.Exists(lockPath), "the refused writer removed the other user's file");
    }

    [OtherWriterFact]
    public void OnceTheForeignWriterLockIsGoneTheOwnerWrites()
    {
        string path = _folder.File("ticks.bin");
        string lockPath = WriterLock.PathFor(path);
        Assert.Equal(0, Run("create", path).Exit);
        SharedFolder.Plant("sh", "-c", $"umask 077 && : > '{lockPath}'");
        Assert.Equal(4, Run("flush", path).Exit);

        SharedFolder.Plant("rm", lockPath);
        (int exit, string error) = Run("flush", path);

        Assert.True(exit == 0, $"exit {exit}: {error}");
    }

    private static (int Exit, string Error) Run(params string[] args)
    {
        using ChildProcess child = ChildProcess.StartAs(SharedFolder.OtherWriter!, args);
        int exit = child.WaitForExit(Deadline);
        return (exit, child.ErrorText());
    }
}
