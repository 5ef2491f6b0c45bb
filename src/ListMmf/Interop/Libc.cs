using System;
using System.IO;
using System.Runtime.InteropServices;

namespace ListMmf.Interop;

/// <summary>
/// The libc functions used on Linux and macOS, and the constants whose values differ between the two.
/// Every function here has a fixed (non-variadic) signature; "libc" resolves to the C library on both systems.
/// </summary>
internal static unsafe partial class Libc
{
    public const int ProtRead = 0x1;
    public const int ProtWrite = 0x2;
    public const int MapShared = 0x1;

    /// <summary>madvise: fault the range in writable now (Linux 5.14 and later).</summary>
    private const int MadvPopulateWrite = 23;

    /// <summary>msync: wait until the pages are written (Linux 4, macOS 0x10).</summary>
    public static readonly int MsSync = OperatingSystem.IsMacOS() || OperatingSystem.IsIOS() ? 0x10 : 0x4;

    private const string LibraryName = "libc";

    [LibraryImport(LibraryName, EntryPoint = "mmap", SetLastError = true)]
    private static partial nint MapNative(nint address, nuint length, int protection, int flags, int fd, long offset);

    [LibraryImport(LibraryName, EntryPoint = "munmap", SetLastError = true)]
    private static partial int UnmapNative(nint address, nuint length);

    [LibraryImport(LibraryName, EntryPoint = "msync", SetLastError = true)]
    private static partial int SyncNative(nint address, nuint length, int flags);

    [LibraryImport(LibraryName, EntryPoint = "madvise", SetLastError = true)]
    private static partial int AdviseNative(nint address, nuint length, int advice);

    /// <summary>Linux only. Returns the error number itself instead of setting errno.</summary>
    [LibraryImport(LibraryName, EntryPoint = "posix_fallocate")]
    private static partial int FallocateNative(int fd, long offset, long length);

    /// <summary>Maps <paramref name="length"/> bytes of the file from offset 0, shared with every other mapping of it.</summary>
    public static byte* Map(int fd, long length, bool writable, string path)
    {
        int protection = writable ? ProtRead | ProtWrite : ProtRead;
        nint address = MapNative(0, (nuint)length, protection, MapShared, fd, 0);
        if (address == -1)
        {
            throw Failure("mmap", path, Marshal.GetLastPInvokeError());
        }

        return (byte*)address;
    }

    public static void Unmap(byte* address, long length, string path)
    {
        if (UnmapNative((nint)address, (nuint)length) != 0)
        {
            throw Failure("munmap", path, Marshal.GetLastPInvokeError());
        }
    }

    /// <summary>Writes the dirty pages in the range to the file and waits until they are written.</summary>
    public static void Sync(byte* pageAlignedAddress, long length, string path)
    {
        if (SyncNative((nint)pageAlignedAddress, (nuint)length, MsSync) != 0)
        {
            throw Failure("msync", path, Marshal.GetLastPInvokeError());
        }
    }

    /// <summary>
    /// Faults the page-aligned range in, writable, so that later writes to it take no page fault (Linux only).
    /// Best effort: older kernels do not know the advice, and the caller loses nothing but the head start.
    /// </summary>
    public static void PopulateWrite(byte* pageAlignedAddress, long length) =>
        _ = AdviseNative((nint)pageAlignedAddress, (nuint)length, MadvPopulateWrite);

    /// <summary>Allocates disk blocks for the range, extending the file if needed (Linux only).</summary>
    public static void Fallocate(int fd, long offset, long length, string path)
    {
        int error = FallocateNative(fd, offset, length);
        if (error != 0)
        {
            throw Failure("posix_fallocate", path, error);
        }
    }

    private static ListMmfException Failure(string function, string path, int errno) =>
        new ListMmfException(path, $"{function} failed: {Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");
}
