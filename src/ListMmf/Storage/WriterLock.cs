using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// The one-writer-per-file rule: an exclusive lock on a sidecar file beside the file's real location (symbolic
/// links resolved), held for the writer's lifetime. The system releases it when the process dies, so a crashed
/// writer never leaves a stale lock. The sidecar exists while a writer holds it: its holder removes it on release
/// (Windows deletes it on close, even a killed process's), and a writer that locked a sidecar removed under it
/// tries again (<see cref="StoragePlatform.LockWriter"/>), so that two writers never hold two different files. Two
/// hard links of one file are two names the lock cannot tell apart: do not open one file as a writer through two.
/// </summary>
/// <remarks>
/// The system's lock keeps out other processes (and, on Linux, whose lock belongs to the open file description,
/// a second copy of this library in the process too); a registry of the sidecars this process holds keeps out a
/// second writer in this process with a clear message, and on macOS at all, since a POSIX record lock would let it
/// in. The registry knows each sidecar by its path and, where the system says (Linux, by statx without an open), by
/// its device and inode, so that a second name for it (a renamed directory, a bind mount) is refused before anything
/// opens the sidecar: on macOS closing any descriptor of a locked sidecar would drop the lock, the refused writer's
/// as much as a reader's. For the same reason the library refuses
/// to open a sidecar this process holds as a file (<see cref="ThrowIfHeld"/>). Taking, releasing and the registry
/// change under one monitor. A writer that is collected without being disposed gives the lock back from its
/// finalizer.
/// </remarks>
internal sealed class WriterLock : IDisposable
{
    private static readonly object s_gate = new();
    /// <summary>
    /// The sidecars this process holds; made at the first lock, under the gate, so that an unsupported platform
    /// fails there as it does elsewhere.
    /// </summary>
    private static List<HeldSidecar>? s_held;

    /// <summary>
    /// This lock's entry in the registry, which holds entries rather than locks, so that a lock never disposed can
    /// still be collected and give the lock back.
    /// </summary>
    private readonly HeldSidecar _held;
    private SafeHandle? _handle;

    private WriterLock(string lockPath, SafeHandle handle)
    {
        _handle = handle;
        _held = new HeldSidecar(lockPath, handle is SafeFileHandle file ? StoragePlatform.Current.IdentityOf(file) : null);
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
            s_held ??= [];
            if (HeldAs(lockPath, StoragePlatform.Current.IdentityOf(lockPath)) is not null)
            {
                throw new ListMmfLockedException(path, "another writer in this process has the file open for writing; " +
                    "a file has one writer at a time.");
            }

            var writerLock = new WriterLock(lockPath, StoragePlatform.Current.LockWriter(lockPath, path));
            s_held.Add(writerLock._held);
            return writerLock;
        }
    }

    /// <summary>
    /// Refuses an open of <paramref name="path"/> when it is, by whatever name, a sidecar a writer in this process
    /// holds: the open would be closed again, and that close would release the lock for every process.
    /// </summary>
    /// <exception cref="ListMmfException">The path is a held sidecar.</exception>
    public static void ThrowIfHeld(string path)
    {
        if (Volatile.Read(ref s_held) is not { } held || held.Count == 0)
        {
            return;
        }

        string fullPath = System.IO.Path.GetFullPath(path);

        // The identity is read under the gate: read before it, it may be that of a file removed since (a list's
        // file replaced), whose inode number a sidecar registered meanwhile has taken.
        lock (s_gate)
        {
            (ulong, ulong)? identity = StoragePlatform.Current.IdentityOf(fullPath);
            if (identity is null && !fullPath.EndsWith(SidecarSuffix, StringComparison.OrdinalIgnoreCase))
            {
                // Without an identity only a sidecar's own name can match; resolving every other path would cost its
                // open a few system calls, and race a replacement's renames on Windows.
                return;
            }

            string canonical = identity is null ? StoragePlatform.Current.CanonicalPath(fullPath) : fullPath;
            if (HeldAs(canonical, identity) is { } sidecar)
            {
                throw new ListMmfException(path, $"this is the writer lock of '{sidecar.LockPath[..^SidecarSuffix.Length]}', " +
                    $"which a writer in this process holds, not a ListMmf file: where the lock is a POSIX record lock " +
                        $"(macOS), any close of the file releases it, so the library never opens one.");
            }
        }
    }

    /// <summary>The held lock whose sidecar is at <paramref name="lockPath"/> or has <paramref name="identity"/>; under the gate.</summary>
    private static HeldSidecar? HeldAs(string lockPath, (ulong, ulong)? identity)
    {
        StringComparison comparison = StoragePlatform.Current.PathComparison;
        return s_held?.Find(held => string.Equals(held.LockPath, lockPath, comparison)
            || (identity is not null && held.Identity == identity));
    }

    /// <summary>
    /// Refuses a writer whose file, opened after the lock was taken, is not the file the lock guards: a symbolic link
    /// in the path that changed between the two (another user's doing, in a shared folder) would otherwise give this
    /// writer a file another writer holds. The path must still resolve to the locked name, and the file there must
    /// be the one opened (where the system says by path; elsewhere the names alone are compared).
    /// </summary>
    /// <exception cref="ListMmfException">The opened file is not the one the lock guards; nothing was written.</exception>
    public void ThrowUnlessGuards(SafeFileHandle file, string path)
    {
        string guarded = _held.LockPath[..^SidecarSuffix.Length];
        StoragePlatform platform = StoragePlatform.Current;
        string now = platform.CanonicalPath(System.IO.Path.GetFullPath(path));
        (ulong, ulong)? there = platform.IdentityOf(guarded);
        if (string.Equals(now, guarded, platform.PathComparison) && (there is null || there == platform.IdentityOf(file)))
        {
            return;
        }

        throw new ListMmfException(path, $"the path named another file while it was opened for writing (a symbolic " +
            $"link in it changed): the writer lock taken guards '{guarded}', and the file opened is not that one. " +
                $"Nothing was written; open it again.");
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

            StoragePlatform.Current.UnlockWriter(_handle, _held.LockPath);
            _handle = null;
            s_held!.Remove(_held);
        }
    }

    /// <summary>A sidecar this process holds: its path and, where the system says, its device and inode.</summary>
    private sealed record HeldSidecar(string LockPath, (ulong Device, ulong File)? Identity);
}
