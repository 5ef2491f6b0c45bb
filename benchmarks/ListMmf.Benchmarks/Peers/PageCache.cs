using System;
using System.IO;
using System.Runtime.InteropServices;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// The page cache around what peers times: <see cref="Drop"/> takes a closed store's files out of it, so that its next
/// reads come from the disk: each file is synced (dirty pages cannot be dropped), then
/// <c>posix_fadvise(POSIX_FADV_DONTNEED)</c> is called on all of it. Linux only; pages still mapped by a process stay,
/// which is why a store is closed first. <see cref="Read"/> puts a file in it.
/// </summary>
internal static partial class PageCache
{
    private const int DontNeed = 4;

    public static bool CanDrop => OperatingSystem.IsLinux();

    /// <summary>Drops every file under <paramref name="folder"/>; returns how many bytes of files it dropped.</summary>
    public static long Drop(string folder)
    {
        long bytes = 0;
        foreach (string path in Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories))
        {
            bytes += DropFile(path);
        }

        return bytes;
    }

    /// <summary>Drops one file; returns its length.</summary>
    public static long DropFile(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete);
        file.Flush(flushToDisk: true);
        int error = PosixFadvise((int)file.SafeFileHandle.DangerousGetHandle(), 0, 0, DontNeed);
        if (error != 0)
        {
            throw new IOException($"posix_fadvise(DONTNEED) of '{path}' failed with errno {error}.");
        }

        return file.Length;
    }

    /// <summary>
    /// Reads <paramref name="path"/> through once, so that it is in the page cache when what follows is timed: every
    /// store loads the CSV from memory, not the first one from the disk (this VM also pages out files left idle for
    /// about a minute).
    /// </summary>
    public static void Read(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan);
        byte[] buffer = new byte[1 << 20];
        while (file.Read(buffer) > 0)
        {
        }
    }

    // posix_fadvise returns the error number rather than setting errno.
    [LibraryImport("libc", EntryPoint = "posix_fadvise")]
    private static partial int PosixFadvise(int fd, long offset, long length, int advice);
}
