using System;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace ListMmf.Interop;

/// <summary>
/// The libc functions used on Linux and macOS. Every declaration has the function's exact fixed parameters and
/// never a variadic one: on macOS arm64 variadic arguments travel on the stack, so a fixed signature for one
/// (<c>open</c>'s mode, <c>fcntl</c>'s argument) would pass garbage. <c>open</c> and <c>fcntl</c> are declared with
/// their fixed parameters only, and only called where the variadic argument is unused. "libc" resolves to the C
/// library on both systems. The constants that differ between the systems are in <see cref="Linux"/> and
/// <see cref="MacOS"/>; callers get the ones for the running system from their platform class.
/// </summary>
[SupportedOSPlatform("linux")]
[SupportedOSPlatform("macos")]
internal static unsafe partial class Libc
{
    public const int ProtNone = 0x0;
    public const int ProtRead = 0x1;
    public const int ProtWrite = 0x2;
    public const int MapShared = 0x1;
    public const int MapPrivate = 0x2;
    public const int OpenReadOnly = 0x0;
    public const int OpenReadWrite = 0x2;

    /// <summary>lockf's F_TLOCK: take the record lock at once or fail (same value on both systems).</summary>
    public const int TryLock = 2;

    private const string LibraryName = "libc";

    [LibraryImport(LibraryName, EntryPoint = "mmap", SetLastError = true)]
    private static partial nint MapNative(nint address, nuint length, int protection, int flags, int fd, long offset);

    [LibraryImport(LibraryName, EntryPoint = "sysctlbyname", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int SystemControlByName(string name, byte* value, nuint* length, byte* newValue, nuint newLength);

    /// <summary>A string value of sysctl (macOS), or null where the system has none by that name.</summary>
    [SupportedOSPlatform("macos")]
    public static string? SystemString(string name)
    {
        byte* value = stackalloc byte[128];
        nuint length = 128;
        if (SystemControlByName(name, value, &length, null, 0) != 0 || length == 0)
        {
            return null;
        }

        return System.Text.Encoding.UTF8.GetString(value, (int)length).TrimEnd('\0');
    }

    [LibraryImport(LibraryName, EntryPoint = "munmap", SetLastError = true)]
    public static partial int Unmap(nint address, nuint length);

    [LibraryImport(LibraryName, EntryPoint = "msync", SetLastError = true)]
    private static partial int SyncNative(nint address, nuint length, int flags);

    [LibraryImport(LibraryName, EntryPoint = "madvise", SetLastError = true)]
    public static partial int Advise(nint address, nuint length, int advice);

    [LibraryImport(LibraryName, EntryPoint = "fsync", SetLastError = true)]
    public static partial int FSync(int fd);

    /// <summary><c>fcntl(fd, cmd)</c>, for commands that take no third argument (F_FULLFSYNC).</summary>
    [LibraryImport(LibraryName, EntryPoint = "fcntl", SetLastError = true)]
    public static partial int FControl(int fd, int command);

    /// <summary>
    /// <c>lockf(fd, cmd, len)</c>: a POSIX record lock (the fcntl kind, without fcntl's variadic argument). It
    /// belongs to the process, so a child started by vfork or fork never holds it, unlike a flock.
    /// </summary>
    [LibraryImport(LibraryName, EntryPoint = "lockf", SetLastError = true)]
    public static partial int LockFile(int fd, int command, long length);

    /// <summary><c>pread(fd, buffer, count, offset)</c>: bytes read, 0 at the end of the file, -1 on error.</summary>
    [LibraryImport(LibraryName, EntryPoint = "pread", SetLastError = true)]
    public static partial nint PRead(int fd, byte* buffer, nuint count, long offset);

    /// <summary>
    /// <c>preadv2(fd, iov, 1, offset, flags)</c> of one buffer (Linux 4.6, glibc 2.26 and later); with RWF_NOWAIT it
    /// reads only what the page cache holds, and fails with EAGAIN rather than wait for the disk.
    /// </summary>
    [LibraryImport(LibraryName, EntryPoint = "preadv2", SetLastError = true)]
    public static partial nint PReadV2(int fd, IoVector* vector, int count, long offset, int flags);

    /// <summary>
    /// <c>mincore(address, length, vector)</c>: one byte per page of the range, whose lowest bit says whether the
    /// page is in memory (for a file mapping, in the page cache, whether or not this process has touched it).
    /// </summary>
    [LibraryImport(LibraryName, EntryPoint = "mincore", SetLastError = true)]
    public static partial int MInCore(nint address, nuint length, byte* vector);

    /// <summary>
    /// <c>posix_fadvise(fd, offset, length, advice)</c> (Linux); returns the error number rather than setting errno.
    /// </summary>
    [SupportedOSPlatform("linux")]
    [LibraryImport(LibraryName, EntryPoint = "posix_fadvise")]
    public static partial int PosixFileAdvise(int fd, long offset, long length, int advice);

    /// <summary>struct iovec.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct IoVector
    {
        public byte* Base;
        public nuint Length;
    }

    /// <summary><c>open(path, flags)</c> without O_CREAT, which alone needs the variadic mode.</summary>
    [LibraryImport(LibraryName, EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Open(string path, int flags);

    /// <summary>
    /// <c>statx(dirfd, path, flags, mask, buffer)</c> (Linux, glibc 2.28 and later): a layout that is the same on
    /// every architecture.
    /// </summary>
    [LibraryImport(LibraryName, EntryPoint = "statx", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int StatxNative(int directory, string path, int flags, uint mask, byte* buffer);

    /// <summary>
    /// The device and inode of the open descriptor (Linux), or null where statx is missing or fails: the caller
    /// then cannot tell two files apart and keeps what it has.
    /// </summary>
    public static (ulong Device, ulong File)? LinuxIdentity(int fd) => LinuxIdentity(fd, "", flags: 0x1000);

    /// <summary>
    /// The device and inode of the file at <paramref name="path"/>, symbolic links followed, without opening it
    /// (Linux); null where statx is missing or fails (the file does not exist, for one).
    /// </summary>
    public static (ulong Device, ulong File)? LinuxIdentity(string path) => LinuxIdentity(CurrentDirectory, path, flags: 0);

    /// <summary>The device and inode of the name <paramref name="path"/> itself, a symbolic link not followed (Linux).</summary>
    public static (ulong Device, ulong File)? LinuxIdentityOfName(string path) => LinuxIdentity(CurrentDirectory, path, flags: 0x100);

    /// <summary>statx's AT_FDCWD: a relative path is resolved from the current directory.</summary>
    private const int CurrentDirectory = -100;

    private static (ulong Device, ulong File)? LinuxIdentity(int directory, string path, int flags)
    {
        const uint InodeMask = 0x100;
        byte* buffer = stackalloc byte[256];
        try
        {
            if (StatxNative(directory, path, flags, InodeMask, buffer) != 0)
            {
                return null;
            }
        }
        catch (EntryPointNotFoundException)
        {
            return null;
        }

        ulong device = ((ulong)*(uint*)(buffer + 136) << 32) | *(uint*)(buffer + 140);
        return (device, *(ulong*)(buffer + 32));
    }

    /// <summary>
    /// What statx says of the open descriptor (Linux) that matters to a lock file: its type and permission bits,
    /// how many names it has and its owner; null where statx is missing or fails.
    /// </summary>
    public static FileStatus? LinuxStatus(int fd) => LinuxStatus(fd, "", flags: 0x1000);

    /// <summary>What statx says of the name <paramref name="path"/> itself, a symbolic link not followed (Linux).</summary>
    public static FileStatus? LinuxStatus(string path) => LinuxStatus(CurrentDirectory, path, flags: 0x100);

    /// <summary>What statx says of the file at <paramref name="path"/>, symbolic links followed (Linux).</summary>
    public static FileStatus? LinuxStatusFollowed(string path) => LinuxStatus(CurrentDirectory, path, flags: 0);

    private static FileStatus? LinuxStatus(int directory, string path, int flags)
    {
        const uint TypeModeLinksOwnerMask = 0x1 | 0x2 | 0x4 | 0x8;
        byte* buffer = stackalloc byte[256];
        try
        {
            if (StatxNative(directory, path, flags, TypeModeLinksOwnerMask, buffer) != 0)
            {
                return null;
            }
        }
        catch (EntryPointNotFoundException)
        {
            return null;
        }

        return new FileStatus(*(ushort*)(buffer + 28), *(uint*)(buffer + 16), *(uint*)(buffer + 20));
    }

    /// <summary>A file's mode (type and permission bits), its count of names and its owner's user id.</summary>
    public readonly record struct FileStatus(uint Mode, uint Links, uint Owner)
    {
        private const uint TypeMask = 0xF000;
        private const uint RegularFile = 0x8000;

        private const uint SymbolicLink = 0xA000;
        private const uint Fifo = 0x1000;
        private const uint CharacterDevice = 0x2000;
        private const uint Directory = 0x4000;
        private const uint BlockDevice = 0x6000;
        private const uint Socket = 0xC000;

        public bool IsRegularFile => (Mode & TypeMask) == RegularFile;

        public bool IsSymbolicLink => (Mode & TypeMask) == SymbolicLink;

        /// <summary>What the file is, in words, for a message: "a FIFO", "a character device (such as /dev/zero)"...</summary>
        public string Kind => (Mode & TypeMask) switch
        {
            RegularFile => "a regular file",
            SymbolicLink => "a symbolic link",
            Fifo => "a FIFO (a named pipe)",
            CharacterDevice => "a character device (such as /dev/zero)",
            Directory => "a folder",
            BlockDevice => "a block device",
            Socket => "a socket",
            _ => $"a file of type {Mode & TypeMask:x}",
        };
    }

    /// <summary>
    /// struct flock on 64-bit Linux (x64 and arm64): l_type, l_whence, then l_start, l_len and l_pid, each aligned;
    /// 32 bytes. l_pid must be 0 for an open file description lock.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FileLock
    {
        public short Type;
        public short Whence;
        public long Start;
        public long Length;
        public int Process;
    }

    /// <summary>
    /// <c>fcntl(fd, cmd, &amp;flock)</c>, Linux only: Linux passes a variadic argument as it passes a fixed one on
    /// x64 and arm64 alike, so the fixed pointer parameter is the call's ABI there (not on macOS arm64).
    /// </summary>
    [SupportedOSPlatform("linux")]
    [LibraryImport(LibraryName, EntryPoint = "fcntl", SetLastError = true)]
    public static partial int FControlLock(int fd, int command, FileLock* fileLock);

    /// <summary>
    /// <c>fcntl(fd, F_SETFL, flags)</c>, Linux only, as <see cref="FControlLock"/>: the file status flags, of which
    /// F_SETFL changes O_APPEND, O_ASYNC, O_DIRECT, O_NOATIME and O_NONBLOCK.
    /// </summary>
    [SupportedOSPlatform("linux")]
    [LibraryImport(LibraryName, EntryPoint = "fcntl", SetLastError = true)]
    public static partial int FControlSetFlags(int fd, int command, int flags);

    /// <summary><c>flock(fd, operation)</c>: the advisory whole-file lock .NET's <see cref="System.IO.FileShare"/> emulation takes.</summary>
    [LibraryImport(LibraryName, EntryPoint = "flock", SetLastError = true)]
    public static partial int FLock(int fd, int operation);

    /// <summary><c>fchmod(fd, mode)</c>: the mode exactly, whatever the umask.</summary>
    [LibraryImport(LibraryName, EntryPoint = "fchmod", SetLastError = true)]
    public static partial int ChangeMode(int fd, uint mode);

    /// <summary>
    /// <c>rename(from, to)</c>: one system call, atomic or refused. Not File.Move, which answers EXDEV by copying
    /// over the target in place.
    /// </summary>
    [LibraryImport(LibraryName, EntryPoint = "rename", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Rename(string from, string to);

    /// <summary><c>link(from, to)</c>: a second name for a file, refused (EEXIST) where <paramref name="to"/> is taken, atomically.</summary>
    [LibraryImport(LibraryName, EntryPoint = "link", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Link(string from, string to);

    /// <summary><c>unlink(path)</c>: the name goes; the file lives on while a descriptor holds it.</summary>
    [LibraryImport(LibraryName, EntryPoint = "unlink", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Unlink(string path);

    /// <summary>
    /// <c>openat(dirfd, path, flags)</c> without O_CREAT, which alone needs the variadic mode: a name opened in the
    /// folder the descriptor holds, whatever was renamed over the folder's own name since.
    /// </summary>
    [LibraryImport(LibraryName, EntryPoint = "openat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int OpenAt(int directory, string path, int flags);

    /// <summary>struct open_how of openat2(2): the open's flags, its mode, and how the path may be resolved.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct OpenHow
    {
        public ulong Flags;
        public ulong Mode;
        public ulong Resolve;
    }

    /// <summary>
    /// <c>syscall(SYS_openat2, dirfd, path, how, size)</c>, Linux only (5.6 and later; glibc has no wrapper): Linux passes
    /// a variadic argument as it passes a fixed one on x64 and arm64 alike, as for <see cref="FControlLock"/>.
    /// </summary>
    [SupportedOSPlatform("linux")]
    [LibraryImport(LibraryName, EntryPoint = "syscall", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial nint SystemCallOpenAt2(nint number, int directory, string path, OpenHow* how, nuint size);

    /// <summary>
    /// Opens <paramref name="path"/> with <paramref name="flags"/> (no O_CREAT) only if no name in it is a symbolic
    /// link (openat2's RESOLVE_NO_SYMLINKS): the descriptor, or -1 with <paramref name="errno"/> (ELOOP: a link is in
    /// the path; ENOSYS or EPERM: no openat2 here, or a sandbox refuses it).
    /// </summary>
    [SupportedOSPlatform("linux")]
    public static int OpenWithoutLinks(string path, int flags, out int errno)
    {
        var how = new OpenHow { Flags = (ulong)(uint)flags, Resolve = Linux.ResolveNoSymbolicLinks };
        nint fd = SystemCallOpenAt2(Linux.SystemCallOpenAt2, CurrentDirectory, path, &how, (nuint)sizeof(OpenHow));
        errno = fd < 0 ? Marshal.GetLastPInvokeError() : 0;
        return (int)fd;
    }

    /// <summary><c>unlinkat(dirfd, name, flags)</c>: the name goes from the folder the descriptor holds; a link there goes as a name.</summary>
    [LibraryImport(LibraryName, EntryPoint = "unlinkat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int UnlinkAt(int directory, string name, int flags);

    /// <summary><c>rmdir(path)</c>: removes an empty folder, and only an empty one.</summary>
    [LibraryImport(LibraryName, EntryPoint = "rmdir", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int RemoveDirectory(string path);

    /// <summary><c>geteuid()</c>: the user whose permissions this process's opens use.</summary>
    [LibraryImport(LibraryName, EntryPoint = "geteuid")]
    public static partial uint EffectiveUserId();

    [LibraryImport(LibraryName, EntryPoint = "close", SetLastError = true)]
    public static partial int Close(int fd);

    /// <summary><c>realpath(path, NULL)</c>: a malloc'd canonical path with every symbolic link resolved.</summary>
    [LibraryImport(LibraryName, EntryPoint = "realpath", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial byte* RealPathNative(string path, byte* resolved);

    /// <summary>Linux only: starts writing the dirty pages of the range back, without waiting.</summary>
    [LibraryImport(LibraryName, EntryPoint = "sync_file_range", SetLastError = true)]
    internal static partial int SyncFileRange(int fd, long offset, long length, uint flags);

    /// <summary>Linux only. Returns the error number itself instead of setting errno.</summary>
    [LibraryImport(LibraryName, EntryPoint = "posix_fallocate")]
    private static partial int FallocateNative(int fd, long offset, long length);

    /// <summary>
    /// Maps <paramref name="length"/> bytes of the file from offset 0, shared with every other mapping of it, at
    /// <paramref name="hint"/> where that range is free, and elsewhere where the system chooses.
    /// </summary>
    public static nint Map(int fd, long length, bool writable, string path, nint hint = 0)
    {
        int protection = writable ? ProtRead | ProtWrite : ProtRead;
        nint address = MapNative(hint, (nuint)length, protection, MapShared, fd, 0);
        if (address == -1)
        {
            throw Failure("mmap", path, Marshal.GetLastPInvokeError());
        }

        return address;
    }

    /// <summary>
    /// Reserves <paramref name="length"/> bytes of address space that nothing can touch (PROT_NONE, private,
    /// anonymous with this system's <paramref name="mapAnonymous"/>), or returns 0 where the system refuses: a way to
    /// find a free range.
    /// </summary>
    public static nint ReserveAddressSpace(long length, int mapAnonymous)
    {
        nint address = MapNative(0, (nuint)length, ProtNone, MapPrivate | mapAnonymous, -1, 0);
        return address == -1 ? 0 : address;
    }

    /// <summary>Writes the dirty pages in the page-aligned range to the file and waits until they are written.</summary>
    public static void Sync(byte* pageAlignedAddress, long length, int msSync, string path)
    {
        if (SyncNative((nint)pageAlignedAddress, (nuint)length, msSync) != 0)
        {
            throw Failure("msync", path, Marshal.GetLastPInvokeError());
        }
    }

    /// <summary>Allocates disk blocks for the range, extending the file if needed (Linux only).</summary>
    public static void Fallocate(int fd, long offset, long length, string path)
    {
        int error = FallocateNative(fd, offset, length);
        if (error != 0)
        {
            throw Failure("posix_fallocate", path, error);
        }
    }

    /// <summary>The canonical path of an existing <paramref name="path"/>, or null with the errno when it cannot be resolved.</summary>
    public static string? RealPath(string path, out int errno)
    {
        byte* resolved = RealPathNative(path, null);
        if (resolved == null)
        {
            errno = Marshal.GetLastPInvokeError();
            return null;
        }

        try
        {
            errno = 0;
            return Marshal.PtrToStringUTF8((nint)resolved);
        }
        finally
        {
            NativeMemory.Free(resolved);
        }
    }

    /// <summary>An exception naming the file, the function and the OS error.</summary>
    public static ListMmfException Failure(string function, string path, int errno) =>
        new(path, $"{function} failed: {Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");

    /// <summary>Linux's values of the constants that differ between systems (x64 and arm64 agree on these).</summary>
    public static class Linux
    {
        public const int MsSync = 0x4;
        public const int MapAnonymous = 0x20;
        public const int MadvNormal = 0;
        public const int MadvRandom = 1;
        public const int MadvHugePage = 14;
        public const int MadvPopulateRead = 22;
        public const int MadvPopulateWrite = 23;
        public const uint SyncFileRangeWrite = 2;
        public const int OpenCloseOnExec = 0x80000;
        public const int WouldBlock = 11;
        public const int TooManyLinks = 40;

        /// <summary>SYS_openat2, the same number on x64 and arm64.</summary>
        public const nint SystemCallOpenAt2 = 437;

        /// <summary>openat2's RESOLVE_NO_SYMLINKS: the open fails with ELOOP if any name in the path is a symbolic link.</summary>
        public const ulong ResolveNoSymbolicLinks = 0x04;

        /// <summary>O_NONBLOCK: an open of a FIFO returns at once instead of waiting for its writer.</summary>
        public const int OpenNonBlocking = 0x800;

        /// <summary>fcntl's F_SETFL: set the file status flags.</summary>
        public const int SetStatusFlags = 4;

        /// <summary>flock's LOCK_SH | LOCK_NB: a shared lock, refused at once (EWOULDBLOCK) rather than waited for.</summary>
        public const int FLockSharedNow = 1 | 4;

        /// <summary>flock's LOCK_UN: the lock given back.</summary>
        public const int FLockUnlock = 8;

        /// <summary>O_DIRECTORY: the open fails unless the name is a folder; arm64 moved it, as it moved O_NOFOLLOW.</summary>
        public static int OpenDirectory => RuntimeInformation.ProcessArchitecture is Architecture.Arm64 or Architecture.Arm ? 0x4000 : 0x10000;

        /// <summary>O_NOFOLLOW, the one flag here that differs between Linux's architectures (arm64 took x64's O_DIRECT bit).</summary>
        public static int OpenNoFollow => RuntimeInformation.ProcessArchitecture is Architecture.Arm64 or Architecture.Arm ? 0x8000 : 0x20000;

        /// <summary>O_DIRECT: reads that go to the disk and leave nothing in the page cache; arm64's value is x64's O_NOFOLLOW.</summary>
        public static int OpenDirect => RuntimeInformation.ProcessArchitecture is Architecture.Arm64 or Architecture.Arm ? 0x10000 : 0x4000;

        /// <summary>posix_fadvise's POSIX_FADV_RANDOM: read only what each read asks for, no read-ahead.</summary>
        public const int FileAdviseRandom = 1;

        /// <summary>posix_fadvise's POSIX_FADV_WILLNEED: start reading the range in.</summary>
        public const int FileAdviseWillNeed = 3;

        /// <summary>posix_fadvise's POSIX_FADV_DONTNEED: drop the range's clean pages from the page cache.</summary>
        public const int FileAdviseDontNeed = 4;

        /// <summary>preadv2's RWF_NOWAIT.</summary>
        public const int ReadNoWait = 0x8;

        /// <summary>fcntl's F_OFD_GETLK and F_OFD_SETLK: locks of the open file description, not of the process.</summary>
        public const int OfdGetLock = 36;
        public const int OfdSetLock = 37;

        /// <summary>struct flock's l_type values F_WRLCK and F_UNLCK.</summary>
        public const short WriteLock = 1;
        public const short Unlock = 2;
    }

    /// <summary>macOS's values of the constants that differ between systems.</summary>
    public static class MacOS
    {
        public const int MsSync = 0x10;
        public const int MapAnonymous = 0x1000;
        public const int OpenCloseOnExec = 0x1000000;
        public const int WouldBlock = 35;
        public const int FullFSync = 51;
        public const int OpenNoFollow = 0x100;
        public const int TooManyLinks = 62;
        public const int OpenNonBlocking = 0x4;
        public const int OpenDirectory = 0x100000;
    }

    /// <summary>The errno values that mean "this file system or object does not support the call" (same on both systems).</summary>
    public static class Errors
    {
        public const int NotPermitted = 1;
        public const int NoSuchFile = 2;
        public const int Interrupted = 4;
        public const int AccessDenied = 13;
        public const int Exists = 17;
        public const int NotDirectory = 20;
        public const int IsDirectory = 21;
        public const int InvalidArgument = 22;
        public const int NotTty = 25;
        public const int NotSupportedLinux = 95;
        public const int NotSupportedMacOS = 45;
    }
}
