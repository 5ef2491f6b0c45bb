using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>Linux: posix_fallocate for growth, MADV_POPULATE_WRITE for prefaulting, Linux's constants.</summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class LinuxStoragePlatform : UnixStoragePlatform
{
    /// <summary>Case-sensitive, as ext4, XFS and Btrfs are.</summary>
    public override StringComparison PathComparison => StringComparison.Ordinal;

    protected override int MsSync => Libc.Linux.MsSync;

    protected override int OpenCloseOnExec => Libc.Linux.OpenCloseOnExec;

    protected override int WouldBlock => Libc.Linux.WouldBlock;

    protected override int MapAnonymous => Libc.Linux.MapAnonymous;

    protected override int OpenNoFollow => Libc.Linux.OpenNoFollow;

    protected override int TooManyLinks => Libc.Linux.TooManyLinks;

    protected override int OpenNonBlocking => Libc.Linux.OpenNonBlocking;

    protected override int OpenDirectory => Libc.Linux.OpenDirectory;

    /// <summary>
    /// An open file description lock (F_OFD_SETLK, Linux 3.15 and later): it belongs to the descriptor this writer
    /// opened, so no other descriptor of the sidecar in the process (a second copy of the library in another
    /// AssemblyLoadContext, user code opening the sidecar) can take it too or drop it by closing, and it conflicts
    /// with the POSIX record locks of earlier versions of the library. A child started by vfork shares the
    /// description until its exec closes it (close-on-exec), which is why <see cref="Unlock"/> lets go explicitly
    /// rather than by the close.
    /// </summary>
    protected override bool TryLock(int fd, out int errno)
    {
        Libc.FileLock whole = default;
        whole.Type = Libc.Linux.WriteLock;
        errno = Libc.FControlLock(fd, Libc.Linux.OfdSetLock, &whole) == 0 ? 0 : Marshal.GetLastPInvokeError();
        return errno == 0;
    }

    protected override void Unlock(int fd)
    {
        Libc.FileLock whole = default;
        whole.Type = Libc.Linux.Unlock;
        _ = Libc.FControlLock(fd, Libc.Linux.OfdSetLock, &whole);
    }

    /// <summary>
    /// A sidecar is a regular file of one name: a second name (a hard link to another file) would be locked and
    /// removed as a sidecar.
    /// </summary>
    protected override string? LockFileProblem(int fd) => Libc.LinuxStatus(fd) switch
    {
        { IsRegularFile: false } => "is not a regular file",
        { Links: > 1 } status => $"is one of {status.Links} names of one file (a hard link to another file)",
        _ => null,
    };

    protected override string Described(string path) => Libc.LinuxStatus(path) is { } status
        ? $"owner's user id {status.Owner}, {base.Described(path)}"
        : base.Described(path);

    /// <summary>
    /// msync(MS_SYNC) is vfs_fsync_range over the range with datasync: its pages, the metadata needed to read them
    /// (the length a growth set) and the device's cache flush, as fdatasync does for the whole file (the power-loss
    /// recorder sees an fsync of the range).
    /// </summary>
    public override bool ViewFlushIsDurable => true;

    /// <summary>The kernel's boot_id, a random UUID drawn at each boot.</summary>
    public override ulong ReadBootSession()
    {
        try
        {
            return SessionFromUuid(File.ReadAllText("/proc/sys/kernel/random/boot_id"));
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return 0;
        }
    }

    /// <summary>
    /// MADV_HUGEPAGE, with 4 KiB pages only (<see cref="LargePageBytes"/>): where the file system keeps the file in
    /// 2 MiB folios (ext4 and XFS on recent kernels), a fault in the range reads in a whole folio and maps it whole
    /// (benchmarks/README.md, "Append then durable"). Best effort, as <see cref="PrefaultWritable"/>.
    /// </summary>
    public override void AdviseLargePages(byte* address, long length)
    {
        if (LargePageBytes != 0)
        {
            Advise(address, length, Libc.Linux.MadvHugePage);
        }
    }

    /// <summary>
    /// The PMD size with 4 KiB pages (x64, and arm64's default). With 16 or 64 KiB pages a PMD maps 32 or 512 MiB,
    /// and under MADV_HUGEPAGE each fault would read a folio that large: there no range is advised large pages.
    /// </summary>
    public override long LargePageBytes => Environment.SystemPageSize == 4096 ? 2L << 20 : 0;

    /// <summary>
    /// MADV_POPULATE_WRITE, with the range advised MADV_RANDOM for the call. The pages past a writer's items are
    /// unwritten extents that a fault fills with zeros, and each new page is memory the system must find: read-around
    /// would fill up to <c>read_ahead_kb</c> around each fault, or two 2 MiB folios under
    /// MADV_HUGEPAGE. With it off, a fault in a writer's range (advised large pages, and prefaulted a whole
    /// <see cref="LargePageBytes"/> at a time) fills one 2 MiB folio, which the fault maps whole: the appends into
    /// it take no fault, and readers of the file map its items in 2 MiB pages too, which makes a lookup's random
    /// read cheaper (benchmarks/README.md, "Append then durable" and "Single lookup"). Best effort: kernels before
    /// 5.14 do not know the populate advice, and the caller loses only the head start.
    /// </summary>
    public override void PrefaultWritable(byte* address, long length)
    {
        Advise(address, length, Libc.Linux.MadvRandom);
        Advise(address, length, Libc.Linux.MadvPopulateWrite);
        Advise(address, length, Libc.Linux.MadvNormal);
    }

    /// <summary>sync_file_range(SYNC_FILE_RANGE_WRITE): the pages a mapping dirtied are dirty in the page cache, so it starts them too.</summary>
    public override void StartWriteback(SafeFileHandle file, long offset, long length)
    {
        using var lease = new DescriptorLease(file);
        _ = Libc.SyncFileRange(lease.Descriptor, offset, length, Libc.Linux.SyncFileRangeWrite);
    }

    public override bool StartsWriteback => true;

    public override void AdviseRandomReads(SafeFileHandle file)
    {
        using var lease = new DescriptorLease(file);
        _ = Libc.PosixFileAdvise(lease.Descriptor, 0, 0, Libc.Linux.FileAdviseRandom);
    }

    public override void StartReading(SafeFileHandle file, long offset, long length)
    {
        using var lease = new DescriptorLease(file);
        _ = Libc.PosixFileAdvise(lease.Descriptor, offset, length, Libc.Linux.FileAdviseWillNeed);
    }

    public override bool StartsReading => true;

    /// <summary>One byte read with RWF_NOWAIT, which fails with EAGAIN rather than wait for the disk.</summary>
    public override unsafe bool? IsCached(SafeFileHandle file, long offset)
    {
        using var lease = new DescriptorLease(file);
        byte one;
        var vector = new Libc.IoVector { Base = &one, Length = 1 };
        nint read;
        try
        {
            read = Libc.PReadV2(lease.Descriptor, &vector, 1, offset, Libc.Linux.ReadNoWait);
        }
        catch (EntryPointNotFoundException)
        {
            return null;
        }

        return read >= 0 ? true : Marshal.GetLastPInvokeError() == Libc.Linux.WouldBlock ? false : null;
    }

    /// <summary>
    /// POSIX_FADV_DONTNEED over the whole file: a file written with write() sits in the page cache in the small folios
    /// its writes made, which a reader maps in 4 KiB pages; read back by a fault under MADV_HUGEPAGE, it comes in 2 MiB
    /// folios that every reader maps whole (benchmarks/README.md, "Sealed files"). Best effort, as <see cref="PrefaultWritable"/>.
    /// </summary>
    public override void ReleaseCachedPages(SafeFileHandle file)
    {
        using var lease = new DescriptorLease(file);
        _ = Libc.PosixFileAdvise(lease.Descriptor, 0, 0, Libc.Linux.FileAdviseDontNeed);
    }

    /// <summary>Best effort, as <see cref="PrefaultWritable"/>.</summary>
    public override void PrefaultReadable(byte* address, long length) => Advise(address, length, Libc.Linux.MadvPopulateRead);

    private static void Advise(byte* address, long length, int advice)
    {
        (nint start, long alignedLength) = PageAligned(address, length);
        _ = Libc.Advise(start, (nuint)alignedLength, advice);
    }

    public override ColdReader OpenColdReader(SafeFileHandle file, string path) => new LinuxColdReader(file, path);

    public override (ulong Device, ulong File)? IdentityOf(SafeFileHandle file)
    {
        using var lease = new DescriptorLease(file);
        return Libc.LinuxIdentity(lease.Descriptor);
    }

    public override (ulong Device, ulong File)? IdentityOf(string path) => Libc.LinuxIdentity(path);

    public override (ulong Device, ulong File)? IdentityOfName(string path) => Libc.LinuxIdentityOfName(path);

    protected override bool FindsFilesByPath => true;

    public override (bool IsLink, uint Owner)? NameOwner(string path) =>
        Libc.LinuxStatus(path) is { } status ? (status.IsSymbolicLink, status.Owner) : null;

    public override uint? FolderOwner(string path) => Libc.LinuxStatusFollowed(path)?.Owner;

    protected override string? NotRegular(int fd) => Libc.LinuxStatus(fd) is { IsRegularFile: false } status ? status.Kind : null;

    /// <summary>
    /// A probe first, open(O_RDONLY | O_NONBLOCK | O_CLOEXEC), which returns at once on a FIFO and must be a regular
    /// file; a reader keeps that descriptor (<see cref="KeptForReading"/>), and any other open is .NET's of that very
    /// file through <c>/proc/self/fd</c>, so that nothing renamed over the path in between is opened instead. A path
    /// with no symbolic link in it (the usual case) is probed in one call that proves it (openat2 with
    /// RESOLVE_NO_SYMLINKS). Any other is walked by <see cref="LinkRule"/> before the probe,
    /// and again after it, when the path must still name the file probed.
    /// </summary>
    public override SafeFileHandle OpenExistingFile(string path, FileAccess access, FileOptions options, bool nameMustBeFile)
    {
        int flags = Libc.OpenReadOnly | Libc.Linux.OpenNonBlocking | Libc.Linux.OpenCloseOnExec;
        int fd = TryOpenWithoutLinks(path, flags, out int errno);
        if (fd >= 0)
        {
            return Reopened(fd, path, access, options, nameMustBeFile);
        }

        if (errno is not (Libc.Linux.TooManyLinks or NoSystemCall or Libc.Errors.AccessDenied or Libc.Errors.NoSuchFile
            or Libc.Errors.NotDirectory) && errno != PermissionDenied)
        {
            throw Libc.Failure("open", path, errno);
        }

        for (int attempt = 1; ; attempt++)
        {
            LinkRule.ThrowIfForeign(path);
            fd = Libc.Open(path, flags | (nameMustBeFile ? Libc.Linux.OpenNoFollow : 0));
            if (fd < 0)
            {
                errno = Marshal.GetLastPInvokeError();
                if (errno == Libc.Linux.TooManyLinks && nameMustBeFile)
                {
                    throw NotData(path, "is a symbolic link, and a table's column files must be regular files in its folder");
                }

                // No read permission (a write-only file), or nothing there: .NET's own open reports it as it always has.
                if (errno is Libc.Errors.AccessDenied or Libc.Errors.NoSuchFile or Libc.Errors.NotDirectory)
                {
                    return base.OpenExistingFile(path, access, options, nameMustBeFile);
                }

                throw Libc.Failure("open", path, errno);
            }

            // A replacement renamed over the path since the probe (a writer's TruncateBeginning, a seal) is opened
            // again; a path that keeps naming another file than the one just opened is refused.
            LinkRule.ThrowIfForeign(path);
            if (Libc.LinuxIdentity(fd) is { } identity && IdentityOf(path) != identity)
            {
                _ = Libc.Close(fd);
                if (attempt < ChangedPathAttempts)
                {
                    continue;
                }

                throw new ListMmfException(path, $"another file was put at the path while it was opened, {ChangedPathAttempts} " +
                    $"times in a row (a rename or a symbolic link in it keeps changing); nothing was read or written.");
            }

            return Reopened(fd, path, access, options, nameMustBeFile);
        }
    }

    /// <summary>EPERM, which a sandbox (seccomp) answers for a system call it does not allow.</summary>
    private const int PermissionDenied = 1;

    protected override int TryOpenWithoutLinks(string path, int flags, out int errno) => Libc.OpenWithoutLinks(path, flags, out errno);

    /// <summary>
    /// The file the probe <paramref name="fd"/> holds, checked to be a regular file. A reader with no options keeps
    /// the probe itself (<see cref="KeptForReading"/>); any other open is .NET's through <c>/proc/self/fd</c>, with
    /// the access asked for, and the probe is closed.
    /// </summary>
    private SafeFileHandle Reopened(int fd, string path, FileAccess access, FileOptions options, bool nameMustBeFile)
    {
        var probe = new SafeFileHandle(fd, ownsHandle: true);
        try
        {
            if (NotRegular(fd) is { } kind)
            {
                throw NotData(path, $"is {kind}");
            }

            if (access == FileAccess.Read && options == FileOptions.None)
            {
                return KeptForReading(probe, path);
            }
        }
        catch
        {
            probe.Dispose();
            throw;
        }

        using (probe)
        {
            string reopen = $"/proc/self/fd/{fd}";
            try
            {
                return File.OpenHandle(reopen, FileMode.Open, access, FileShare.ReadWrite | FileShare.Delete, options);
            }
            catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException)
            {
                // No /proc mounted: the path itself, checked by the rule.
                return base.OpenExistingFile(path, access, options, nameMustBeFile);
            }
            catch (UnauthorizedAccessException exception)
            {
                throw new UnauthorizedAccessException($"Access to the path '{path}' is denied.", exception);
            }
            catch (IOException exception)
            {
                throw new IOException(exception.Message.Replace(reopen, path, StringComparison.Ordinal), exception);
            }
        }
    }

    /// <summary>
    /// The probe, read-only already, as a reader's handle: its O_NONBLOCK cleared (.NET takes a descriptor with it
    /// set for an asynchronous one) and the shared lock taken that .NET's own open takes for
    /// <see cref="FileShare.ReadWrite"/>, so that a .NET process opening the file with <see cref="FileShare.None"/>
    /// is refused while it is read, as before. Three system calls and a walk of <c>/proc</c> fewer than a reopen,
    /// on every reader's open of every column file. Its owner gives the lock back before the close
    /// (<see cref="UnlockShared"/>), as .NET does for its own.
    /// </summary>
    private static SafeFileHandle KeptForReading(SafeFileHandle probe, string path)
    {
        int fd = (int)probe.DangerousGetHandle();
        if (Libc.FControlSetFlags(fd, Libc.Linux.SetStatusFlags, 0) != 0)
        {
            throw Libc.Failure("fcntl", path, Marshal.GetLastPInvokeError());
        }

        if (!s_fileLockingDisabled && Libc.FLock(fd, Libc.Linux.FLockSharedNow) != 0 &&
            Marshal.GetLastPInvokeError() == Libc.Linux.WouldBlock)
        {
            throw new IOException($"The process cannot access the file '{path}' because it is being used by another process.");
        }

        return probe;
    }

    public override void UnlockShared(SafeFileHandle file)
    {
        if (file.IsClosed)
        {
            return;
        }

        using var lease = new DescriptorLease(file);
        _ = Libc.FLock(lease.Descriptor, Libc.Linux.FLockUnlock);
    }

    /// <summary>.NET's switch that turns its <see cref="FileShare"/> locks off, read as .NET reads it.</summary>
    private static readonly bool s_fileLockingDisabled =
        AppContext.TryGetSwitch("System.IO.DisableFileLocking", out bool disabled) ? disabled :
            Environment.GetEnvironmentVariable("DOTNET_SYSTEM_IO_DISABLEFILELOCKING") is { } value &&
                (value == "1" || value.Equals("true", StringComparison.OrdinalIgnoreCase));

    /// <summary>How often an open starts again because the path named another file than the one it had just opened.</summary>
    private const int ChangedPathAttempts = 64;

    /// <summary>
    /// An open file description lock over the whole data file (F_OFD_SETLK), as the sidecar's (<see cref="TryLock"/>):
    /// it goes with the file's inode, whatever name reaches it, and no other descriptor's close drops it.
    /// </summary>
    public override bool LockData(SafeFileHandle file)
    {
        using var lease = new DescriptorLease(file);
        return TryLock(lease.Descriptor, out int errno) || !(errno == Libc.Linux.WouldBlock || errno == Libc.Errors.AccessDenied);
    }

    public override void UnlockData(SafeFileHandle file)
    {
        if (file.IsClosed)
        {
            return;
        }

        using var lease = new DescriptorLease(file);
        Unlock(lease.Descriptor);
    }

    protected override void Allocate(FileStream file, long oldLength, long newLength, string path)
    {
        using var lease = new DescriptorLease(file.SafeFileHandle);
        Libc.Fallocate(lease.Descriptor, oldLength, newLength - oldLength, path);
    }
}
