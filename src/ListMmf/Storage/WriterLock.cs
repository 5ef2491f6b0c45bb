using System;
using System.Runtime.InteropServices;

namespace ListMmf.Storage;

/// <summary>
/// The one-writer-per-file rule: an exclusive lock on a sidecar file beside the file's real location (symbolic
/// links resolved), held for the writer's lifetime. The system releases it when the process dies, so a crashed
/// writer never leaves a stale lock. The sidecar is never deleted: deleting it while another process opens it
/// would let two writers hold two different files. Two hard links of one file are two names the lock cannot tell
/// apart; the README says so.
/// </summary>
internal sealed class WriterLock : IDisposable
{
    private readonly SafeHandle _handle;

    private WriterLock(SafeHandle handle) => _handle = handle;

    /// <summary>The sidecar that guards the file at <paramref name="path"/>, reached by whatever name.</summary>
    public static string PathFor(string path) => SidecarOf(StoragePlatform.Current.CanonicalPath(System.IO.Path.GetFullPath(path)));

    /// <summary>Takes the lock at once or fails; it never waits.</summary>
    /// <exception cref="ListMmfLockedException">Another writer holds the file.</exception>
    /// <exception cref="ListMmfException">The lock could not be taken for another reason.</exception>
    public static WriterLock Acquire(string path)
    {
        string lockPath = PathFor(path);
        return new WriterLock(StoragePlatform.Current.LockWriter(lockPath, path));
    }

    /// <summary>The ending of the lock's sidecar file, beside the file it locks.</summary>
    public const string SidecarSuffix = ".writer-lock";

    private static string SidecarOf(string canonicalPath) => canonicalPath + SidecarSuffix;

    public void Dispose() => _handle.Dispose();
}
