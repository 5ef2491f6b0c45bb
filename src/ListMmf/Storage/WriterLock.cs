using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace ListMmf.Storage;

/// <summary>
/// The one-writer-per-file rule: an exclusive lock on a sidecar file beside the file's real location (symbolic
/// links resolved), held for the writer's lifetime. The system releases it when the process dies, so a crashed
/// writer never leaves a stale lock. The sidecar is never deleted: deleting it while another process opens it
/// would let two writers hold two different files. Two hard links of one file are two names the lock cannot tell
/// apart; the README says so.
/// </summary>
/// <remarks>
/// The system's lock keeps out other processes; a registry of the sidecars this process holds keeps out a second
/// writer in this process, which a POSIX record lock would let in. Taking, releasing and the registry change under
/// one monitor, so this process never has two descriptors of a locked sidecar (closing either would drop the lock).
/// A writer that is collected without being disposed gives the lock back from its finalizer.
/// </remarks>
internal sealed class WriterLock : IDisposable
{
    private static readonly object s_gate = new();
    /// <summary>
    /// The sidecars this process holds; made at the first lock, under the gate, so that an unsupported platform
    /// fails there as it does elsewhere.
    /// </summary>
    private static HashSet<string>? s_held;

    private readonly string _lockPath;
    private SafeHandle? _handle;

    private WriterLock(string lockPath, SafeHandle handle)
    {
        _lockPath = lockPath;
        _handle = handle;
    }

    ~WriterLock() => Release();

    /// <summary>The sidecar that guards the file at <paramref name="path"/>, reached by whatever name.</summary>
    public static string PathFor(string path) => SidecarOf(StoragePlatform.Current.CanonicalPath(System.IO.Path.GetFullPath(path)));

    /// <summary>Takes the lock at once or fails; it never waits.</summary>
    /// <exception cref="ListMmfLockedException">Another writer, in this process or another, holds the file.</exception>
    /// <exception cref="ListMmfException">The lock could not be taken for another reason.</exception>
    public static WriterLock Acquire(string path)
    {
        string lockPath = PathFor(path);
        lock (s_gate)
        {
            s_held ??= new HashSet<string>(StringComparer.FromComparison(StoragePlatform.Current.PathComparison));
            if (s_held.Contains(lockPath))
            {
                throw new ListMmfLockedException(path, "another writer in this process has the file open for writing; " +
                    "a file has one writer at a time.");
            }

            var writerLock = new WriterLock(lockPath, StoragePlatform.Current.LockWriter(lockPath, path));
            s_held.Add(lockPath);
            return writerLock;
        }
    }

    /// <summary>The ending of the lock's sidecar file, beside the file it locks.</summary>
    public const string SidecarSuffix = ".writer-lock";

    private static string SidecarOf(string canonicalPath) => canonicalPath + SidecarSuffix;

    public void Dispose()
    {
        Release();
        GC.SuppressFinalize(this);
    }

    private void Release()
    {
        lock (s_gate)
        {
            if (_handle is null)
            {
                return;
            }

            _handle.Dispose();
            _handle = null;
            s_held!.Remove(_lockPath);
        }
    }
}
