using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>What Linux and macOS share: msync, fsync of directories, the sidecar opened and locked, realpath.</summary>
[SupportedOSPlatform("linux")]
[SupportedOSPlatform("macos")]
internal abstract unsafe class UnixStoragePlatform : StoragePlatform
{
    private const int NoSuchFile = 2;

    /// <summary>rw-rw-rw-: the read and write bits of a mode, and a new file's mode before the umask.</summary>
    private const UnixFileMode ReadWriteForAll = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead
        | UnixFileMode.GroupWrite | UnixFileMode.OtherRead | UnixFileMode.OtherWrite;

    /// <summary>This system's value of MS_SYNC.</summary>
    protected abstract int MsSync { get; }

    /// <summary>This system's value of O_CLOEXEC: the lock's descriptor must not live on in child processes.</summary>
    protected abstract int OpenCloseOnExec { get; }

    /// <summary>This system's value of EWOULDBLOCK, which with EACCES means "another writer" for lockf.</summary>
    protected abstract int WouldBlock { get; }

    /// <summary>This system's value of O_NOFOLLOW: a symbolic link at the last name fails the open with ELOOP.</summary>
    protected abstract int OpenNoFollow { get; }

    /// <summary>This system's value of ELOOP.</summary>
    protected abstract int TooManyLinks { get; }

    /// <summary>This system's value of MAP_ANONYMOUS (MAP_ANON).</summary>
    protected abstract int MapAnonymous { get; }

    /// <summary>This system's value of O_NONBLOCK: the open of a FIFO returns at once.</summary>
    protected abstract int OpenNonBlocking { get; }

    /// <summary>This system's value of O_DIRECTORY: the open fails unless the name is a folder.</summary>
    protected abstract int OpenDirectory { get; }

    public override uint? CurrentUser => Libc.EffectiveUserId();

    /// <summary>The user's name from /etc/passwd where it is there, with the id; the id alone otherwise.</summary>
    public override string DescribeUser(uint? id)
    {
        if (id is not { } uid)
        {
            return base.DescribeUser(id);
        }

        try
        {
            foreach (string line in File.ReadLines("/etc/passwd"))
            {
                string[] fields = line.Split(':');
                if (fields.Length > 2 && uint.TryParse(fields[2], out uint entry) && entry == uid)
                {
                    return $"'{fields[0]}' (uid {uid})";
                }
            }
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            // The id alone says it.
        }

        return base.DescribeUser(id);
    }

    /// <summary>
    /// open(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC): a link at the name fails with ELOOP, and a FIFO opens at
    /// once (a blocking open would wait for a writer forever); what it opened is then checked to be a regular file
    /// where the system says (<see cref="NotRegular"/>). A path with no link in it at all is opened in one call where
    /// the system proves that (<see cref="TryOpenWithoutLinks"/>); any other has its folders walked by
    /// <see cref="LinkRule"/> first.
    /// </summary>
    public override SafeFileHandle? OpenSideFile(string path)
    {
        int flags = Libc.OpenReadOnly | OpenNoFollow | OpenNonBlocking | OpenCloseOnExec;
        int fd = TryOpenWithoutLinks(path, flags, out int errno);
        if (fd < 0 && errno is not (NoSuchFile or Libc.Errors.NotDirectory or Libc.Errors.AccessDenied))
        {
            LinkRule.ThrowIfForeign(System.IO.Path.GetDirectoryName(path) ?? path);
            fd = Libc.Open(path, flags);
            errno = fd < 0 ? Marshal.GetLastPInvokeError() : 0;
        }

        if (fd < 0)
        {
            if (errno is NoSuchFile or Libc.Errors.NotDirectory)
            {
                return null;
            }

            throw errno == TooManyLinks ? NotData(path, "is a symbolic link")
                : errno == Libc.Errors.AccessDenied ? new UnauthorizedAccessException($"Access to the path '{path}' is denied.")
                : Libc.Failure("open", path, errno);
        }

        var handle = new SafeFileHandle(fd, ownsHandle: true);
        if (NotRegular(fd) is { } kind)
        {
            handle.Dispose();
            throw NotData(path, $"is {kind}");
        }

        return handle;
    }

    /// <summary>
    /// Opens <paramref name="path"/> (no O_CREAT) only if no name in it is a symbolic link: the descriptor, or -1 with
    /// the errno (ELOOP where a link is in the path); ENOSYS where the system cannot tell in one call (macOS).
    /// </summary>
    protected virtual int TryOpenWithoutLinks(string path, int flags, out int errno)
    {
        errno = NoSystemCall;
        return -1;
    }

    /// <summary>ENOSYS: what <see cref="TryOpenWithoutLinks"/> answers where it cannot.</summary>
    protected const int NoSystemCall = 38;

    /// <summary>What the open descriptor is when it is not a regular file ("a FIFO"), or null; null where the system does not say.</summary>
    protected virtual string? NotRegular(int fd) => null;

    /// <summary>open(O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) of the folder just created: a link at its name is not held.</summary>
    public override SafeHandle? HoldFolder(string path)
    {
        int fd = Libc.Open(path, Libc.OpenReadOnly | OpenDirectory | OpenNoFollow | OpenCloseOnExec);
        return fd < 0 ? null : new SafeFileHandle(fd, ownsHandle: true);
    }

    /// <summary>unlinkat(folder, name, 0): the name in the folder held, whatever is at the folder's path now.</summary>
    public override void RemoveName(SafeHandle? folder, string folderPath, string name)
    {
        if (folder is null)
        {
            // Never by path in a folder that could not be held: its name may lead elsewhere by now.
            return;
        }

        using var lease = new DescriptorLease(folder);
        _ = Libc.UnlinkAt(lease.Descriptor, name, 0);
    }

    /// <summary>
    /// rmdir of the path, only while the path names the folder held (by identity, links not followed): rmdir removes
    /// only an empty folder, so a folder swapped in at the last moment loses nothing.
    /// </summary>
    public override void RemoveFolderIfEmpty(SafeHandle? folder, string folderPath)
    {
        if (folder is not SafeFileHandle held || IdentityOf(held) is not { } identity || IdentityOfName(folderPath) != identity)
        {
            return;
        }

        _ = Libc.RemoveDirectory(folderPath);
    }

    public override bool SupportsPosixMapping => true;

    /// <summary>How many pages <see cref="IsMostlyResident"/> asks mincore about.</summary>
    private const int ResidencySamples = 64;

    /// <summary>mincore of up to 64 pages spread evenly over the range; more than three quarters of them in memory.</summary>
    public override bool IsMostlyResident(byte* address, long length)
    {
        long page = Environment.SystemPageSize;
        long first = (long)address / page * page;
        long pages = (((long)address + length - first) + page - 1) / page;
        int samples = (int)Math.Min(pages, ResidencySamples);
        int resident = 0;
        for (int i = 0; i < samples; i++)
        {
            byte state = 0;
            long at = first + (pages * i / samples * page);
            if (Libc.MInCore((nint)at, (nuint)page, &state) != 0)
            {
                // A range the system cannot describe: reading through the mapping is what searches did before.
                return true;
            }

            resident += state & 1;
        }

        return resident * 4 > samples * 3;
    }

    public override bool HasListMmf1xLockFiles => true;

    /// <summary>EEXIST, which .NET puts in the exception's HResult on Unix.</summary>
    public override bool MeansNameTaken(IOException exception) => exception.HResult == Libc.Errors.Exists;

    public override void FlushFile(SafeFileHandle file, string path)
    {
        using var lease = new DescriptorLease(file);
        SyncDescriptor(lease.Descriptor, path);
    }

    /// <summary>
    /// fsync of the directory, so that a file created or renamed in it is still there after a power loss. A
    /// directory that cannot be synchronized at all (EINVAL) has nothing to make durable; any other error throws.
    /// </summary>
    public override void FlushDirectory(string directory, string path)
    {
        int fd = Libc.Open(directory, Libc.OpenReadOnly | OpenCloseOnExec);
        if (fd < 0)
        {
            throw Libc.Failure($"open of the directory '{directory}' to flush it", path, Marshal.GetLastPInvokeError());
        }

        try
        {
            SyncDescriptor(fd, path, isDirectory: true);
        }
        finally
        {
            _ = Libc.Close(fd);
        }
    }

    /// <summary>
    /// rename(2) itself. File.Move falls back to copying when the rename fails with EXDEV, and the copy opens the
    /// target, which this writer and its readers have mapped, with O_TRUNC and rewrites it in place: readers saw a
    /// file of 0 bytes or died of SIGBUS. A refused rename leaves the target as it was.
    /// </summary>
    public override void ReplaceFile(string temporary, string target)
    {
        if (Libc.Rename(temporary, target) != 0)
        {
            throw Libc.Failure($"rename of '{temporary}' over it", target, Marshal.GetLastPInvokeError());
        }
    }

    /// <summary>
    /// A second name made with <c>link</c>, which is refused where the name is taken (an IOException that
    /// <see cref="MeansNameTaken"/> knows), then the temporary name removed. Only where the file system makes no
    /// links (EPERM, ENOTSUP: some FUSE and FAT file systems) File.Move's check and rename, which two processes can
    /// both pass.
    /// </summary>
    public override void RenameAsNew(string temporary, string target)
    {
        if (Libc.Link(temporary, target) == 0)
        {
            _ = Libc.Unlink(temporary);
            return;
        }

        int error = Marshal.GetLastPInvokeError();
        if (error == Libc.Errors.Exists)
        {
            throw new IOException($"'{target}': a file is already at the name.", Libc.Errors.Exists);
        }

        if (error is not (Libc.Errors.NotPermitted or Libc.Errors.NotSupportedLinux or Libc.Errors.NotSupportedMacOS))
        {
            throw Libc.Failure($"link of '{temporary}' to it", target, error);
        }

        base.RenameAsNew(temporary, target);
    }

    /// <summary>
    /// Maps <paramref name="length"/> bytes (whole pages) of the file from offset 0, shared, at the next placement
    /// (<see cref="MappingPlacement"/>): address space for the length and two placement spans is reserved to find a
    /// free range, given back, and the placement in it passed to mmap as its hint. Where not <c>placed</c> (a small
    /// reader's view, see <see cref="PosixFileMapping"/>), the system places the mapping.
    /// </summary>
    /// <remarks>
    /// A hint, not MAP_FIXED over the reservation: a MAP_FIXED that fails may already have unmapped the range (older
    /// Linux kernels), and another thread's mapping could land in it before the reservation was given back, which
    /// would then unmap that mapping. With a hint, a range taken meanwhile only costs this mapping its placement:
    /// the system puts it elsewhere, as where the reservation is refused.
    /// </remarks>
    /// <exception cref="ListMmfException">The system refused the mapping.</exception>
    public nint MapShared(int fd, long length, bool writable, string path, bool placed = true)
    {
        if (!placed)
        {
            return Libc.Map(fd, length, writable, path);
        }

        long reservedLength = length + (2 * MappingPlacement.Span);
        nint reserved = Libc.ReserveAddressSpace(reservedLength, MapAnonymous);
        if (reserved == 0)
        {
            return Libc.Map(fd, length, writable, path);
        }

        _ = Libc.Unmap(reserved, (nuint)reservedLength);
        long aligned = (reserved + (MappingPlacement.Span - 1)) & ~(MappingPlacement.Span - 1);
        return Libc.Map(fd, length, writable, path, hint: (nint)(aligned + MappingPlacement.NextOffset()));
    }

    public override void FlushView(byte* address, long length, string path)
    {
        (nint start, long alignedLength) = PageAligned(address, length);
        Libc.Sync((byte*)start, alignedLength, MsSync, path);
    }

    /// <summary>The range from the start of the page holding <paramref name="address"/>: msync and madvise need a page-aligned start.</summary>
    protected static (nint Start, long Length) PageAligned(byte* address, long length)
    {
        long misalignment = (long)((nuint)address % (nuint)Environment.SystemPageSize);
        return ((nint)(address - misalignment), length + misalignment);
    }

    /// <summary>
    /// An exclusive lock over the whole sidecar (<see cref="TryLock"/>), taken here rather than through .NET's
    /// <see cref="FileShare.None"/>, which skips locking when the file system refuses it or when
    /// DOTNET_SYSTEM_IO_DISABLEFILELOCKING is set. Only EACCES and EWOULDBLOCK mean "another writer"; any other
    /// failure refuses the writer with the reason. The sidecar is opened without following a symbolic link and
    /// created only exclusively (<see cref="OpenLockFile"/>), so that a name planted in a shared folder never makes
    /// the writer create, truncate, lock or change the mode of another file.
    /// </summary>
    /// <remarks>
    /// The holder removes the sidecar when it lets go (<see cref="UnlockWriter"/>), so a lock taken on a sidecar
    /// that was opened just before its holder removed it locks a file no name reaches: where the system finds a
    /// file by its path (Linux), the lock counts only if the path still names the file locked, and otherwise the
    /// sidecar is opened (created) again.
    /// </remarks>
    public override SafeHandle LockWriter(string lockPath, string path)
    {
        for (int attempt = 1; ; attempt++)
        {
            SafeFileHandle handle = OpenLockFile(lockPath, path);
            using (var lease = new DescriptorLease(handle))
            {
                if (!TryLock(lease.Descriptor, out int errno))
                {
                    handle.Dispose();
                    if (errno == WouldBlock || errno == Libc.Errors.AccessDenied)
                    {
                        // Its owner named: a sidecar another user planted and holds locked looks like a writer's.
                        throw new ListMmfLockedException(path, $"another writer has the file open for writing (its lock " +
                            $"'{lockPath}': {DescribedIfThere(lockPath)}); a file has one writer at a time.");
                    }

                    throw new ListMmfException(
                        path,
                        $"the writer lock '{lockPath}' could not be taken: {Marshal.GetPInvokeErrorMessage(errno)} " +
                            $"(errno {errno}). File locking is unavailable here, and a writer that cannot keep out a " +
                                $"second writer is refused.");
                }
            }

            // Without an identity by path (macOS) nothing can be checked, and UnlockWriter removes nothing there
            // either. Where there is one, a missing identity is a missing sidecar: accepting it because a sidecar was
            // there a moment later let two writers in (the other one on a new sidecar).
            if (!FindsFilesByPath || IdentityOf(lockPath) is { } named && named == IdentityOf(handle))
            {
                return handle;
            }

            handle.Dispose();
            if (attempt >= LockAttempts)
            {
                throw new ListMmfException(path, $"the writer lock '{lockPath}' could not be taken: {LockAttempts} times " +
                    $"the sidecar locked was no longer the one at its path: another user of the folder keeps replacing " +
                        $"it, writers keep letting go of it, or the file system does not keep a file's identity. Nothing " +
                            $"was written.");
            }
        }
    }

    /// <summary>
    /// Takes the exclusive lock over the whole of the open sidecar at once, or fails with the errno: a POSIX record
    /// lock (lockf F_TLOCK) here. Not flock: .NET starts child processes with vfork, and a child holds a copy of
    /// every descriptor until its exec, so a flock outlived the writer's Dispose; a record lock belongs to the
    /// process and no child ever holds it. Record locks do not keep out a second descriptor of the same process,
    /// and closing any descriptor of the file drops them: <see cref="WriterLock"/> keeps a registry so that this
    /// process opens each sidecar once, which a second copy of the library in the process cannot see.
    /// </summary>
    protected virtual bool TryLock(int fd, out int errno)
    {
        errno = Libc.LockFile(fd, Libc.TryLock, 0) == 0 ? 0 : Marshal.GetLastPInvokeError();
        return errno == 0;
    }

    /// <summary>Lets go of the lock <see cref="TryLock"/> took, before the descriptor closes; nothing where the close does it.</summary>
    protected virtual void Unlock(int fd)
    {
    }

    /// <summary>
    /// Removes the sidecar while still holding its lock, then lets go: a writer that opened it meanwhile finds, once
    /// it has the lock, that the path no longer names it (<see cref="LockWriter"/>). Only where the system finds a
    /// file by its path, and only when the path still names this sidecar; elsewhere the sidecar stays, as before.
    /// </summary>
    public override void UnlockWriter(SafeHandle handle, string lockPath)
    {
        if (handle is SafeFileHandle file)
        {
            if (FindsFilesByPath && IdentityOf(lockPath) is { } named && named == IdentityOf(file))
            {
                _ = Libc.Unlink(lockPath);
            }

            using var lease = new DescriptorLease(file);
            Unlock(lease.Descriptor);
        }

        handle.Dispose();
    }

    /// <summary>
    /// Whether this system finds a file's device and inode by its path without opening it
    /// (<see cref="StoragePlatform.IdentityOf(string)"/>), which removing sidecars safely needs.
    /// </summary>
    protected virtual bool FindsFilesByPath => false;

    /// <summary>How often a writer opens the sidecar again because the one it locked had just been removed.</summary>
    private const int LockAttempts = 100;

    public override string CanonicalPath(string fullPath)
    {
        string? resolved = Libc.RealPath(fullPath, out _);
        if (resolved is not null)
        {
            return resolved;
        }

        // A symbolic link to a file that does not exist yet names that file, as an open that creates it would.
        if (new FileInfo(fullPath).LinkTarget is not null && File.ResolveLinkTarget(fullPath, returnFinalTarget: true) is { } linkTarget)
        {
            return CanonicalPath(linkTarget.FullName);
        }

        // The file does not exist yet: resolve the directory it will be created in.
        string? directory = System.IO.Path.GetDirectoryName(fullPath);
        string? resolvedDirectory = directory is null ? null : Libc.RealPath(directory, out _);
        return resolvedDirectory is null ? fullPath : System.IO.Path.Combine(resolvedDirectory, System.IO.Path.GetFileName(fullPath));
    }

    /// <summary>The durable flush of one descriptor: fsync here, F_FULLFSYNC on macOS.</summary>
    protected virtual void SyncDescriptor(int fd, string path, bool isDirectory = false)
    {
        if (Libc.FSync(fd) != 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            if (!(isDirectory && errno == Libc.Errors.InvalidArgument))
            {
                throw Libc.Failure(isDirectory ? "fsync of the directory" : "fsync", path, errno);
            }
        }
    }

    /// <summary>
    /// Opens the sidecar for reading and writing (a lock for writing needs both), close-on-exec, never through a
    /// symbolic link; where it is missing, creates it exclusively and keeps the descriptor of the file created. A
    /// sidecar created beside an existing file gets that file's read and write permissions exactly: whoever may write
    /// the file may be its writer. Beside a file not yet created it gets what the file will get, the umask's. A name
    /// that is not a sidecar the library could have made (a link, a file of several names, one this user cannot
    /// open) is left as it is and refused (<see cref="StoragePlatform.ForeignLockFile"/>).
    /// </summary>
    private SafeFileHandle OpenLockFile(string lockPath, string path)
    {
        for (int attempt = 0; ; attempt++)
        {
            int fd = Libc.Open(lockPath, Libc.OpenReadWrite | OpenCloseOnExec | OpenNoFollow);
            if (fd >= 0)
            {
                var opened = new SafeFileHandle(fd, ownsHandle: true);
                if (LockFileProblem(fd) is { } problem)
                {
                    opened.Dispose();
                    throw ForeignLockFile(lockPath, path, problem);
                }

                return opened;
            }

            int errno = Marshal.GetLastPInvokeError();
            if (errno == TooManyLinks)
            {
                throw ForeignLockFile(lockPath, path, "is a symbolic link");
            }

            if (errno == Libc.Errors.AccessDenied && File.Exists(lockPath))
            {
                throw ForeignLockFile(lockPath, path, $"cannot be opened for writing by this user ({Described(lockPath)})");
            }

            if (errno != NoSuchFile || attempt >= LockAttempts)
            {
                throw LockFileFailure("open", lockPath, path, errno);
            }

            if (CreateLockFile(lockPath, path) is { } created)
            {
                return created;
            }
        }
    }

    /// <summary>
    /// Creates the sidecar exclusively, with the umask's mode; null when another process created one first (the caller
    /// opens that one). The mode is then set exactly by fchmod on the descriptor of the file this call created.
    /// </summary>
    private static SafeFileHandle? CreateLockFile(string lockPath, string path)
    {
        string locked = lockPath[..^WriterLock.SidecarSuffix.Length];
        UnixFileMode? mode = File.Exists(locked) ? File.GetUnixFileMode(locked) & ReadWriteForAll : null;
        SafeFileHandle created;
        try
        {
            created = File.OpenHandle(lockPath, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete);
        }
        catch (IOException exception) when (StoragePlatform.Current.MeansNameTaken(exception))
        {
            return null;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new ListMmfException(path, $"the writer lock file '{lockPath}' could not be created: {exception.Message}", exception);
        }

        if (mode is { } exact)
        {
            using var lease = new DescriptorLease(created);
            _ = Libc.ChangeMode(lease.Descriptor, (uint)exact);
        }

        return created;
    }

    /// <summary>What is wrong with an open sidecar for a lock file, or null: checked where the system says (Linux).</summary>
    protected virtual string? LockFileProblem(int fd) => null;

    /// <summary>As <see cref="Described"/>, or "gone" where the file went meanwhile.</summary>
    private string DescribedIfThere(string path)
    {
        try
        {
            return Described(path);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return "since removed";
        }
    }

    /// <summary>The owner and mode of the file at the path, for a message.</summary>
    protected virtual string Described(string path) =>
        $"mode {Convert.ToString((int)File.GetUnixFileMode(path), 8).PadLeft(4, '0')}";

    private static ListMmfException LockFileFailure(string function, string lockPath, string path, int errno) =>
        new(path, $"the writer lock file '{lockPath}' could not be opened: {function} failed: " +
            $"{Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");
}
