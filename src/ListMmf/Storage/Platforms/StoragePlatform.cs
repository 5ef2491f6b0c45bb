using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// What storage needs from the operating system: durable flushes whose failures are reported, disk space allocated
/// before it is mapped, an exclusive writer lock that fails closed, and a file's real identity. One subclass per
/// system, chosen once (<see cref="Current"/>), so that no shared code branches on the system.
/// </summary>
internal abstract unsafe class StoragePlatform
{
    private static StoragePlatform? s_current;

    /// <summary>The platform of this process.</summary>
    /// <exception cref="PlatformNotSupportedException">A 32-bit or big-endian process, or a system other than Windows, Linux or macOS.</exception>
    public static StoragePlatform Current => s_current ??= Select();

    /// <summary>Whether the <see cref="MappingBackend.Posix"/> backend (libc <c>mmap</c>) runs here.</summary>
    [SupportedOSPlatformGuard("linux")]
    [SupportedOSPlatformGuard("macos")]
    public abstract bool SupportsPosixMapping { get; }

    /// <summary>
    /// Refuses processes whose view of the file would be wrong: on 32-bit, <c>Volatile.Read(ref long)</c> is a
    /// locked compare-exchange that writes (and faults on a read-only mapping), and the 64-bit <c>off_t</c>
    /// signatures here are the wrong ABI; a big-endian process would read the little-endian format wrongly.
    /// </summary>
    /// <exception cref="PlatformNotSupportedException">Either is the case.</exception>
    internal static void CheckProcess(bool is64BitProcess, bool isLittleEndian)
    {
        if (!is64BitProcess)
        {
            throw new PlatformNotSupportedException("ListMmf needs a 64-bit process: on 32-bit, reading the 64-bit " +
                "count atomically writes to the mapping, and file offsets past 2 GiB would not fit.");
        }

        if (!isLittleEndian)
        {
            throw new PlatformNotSupportedException("ListMmf needs a little-endian process: the file format is " +
                "little-endian and the items are mapped as they are stored.");
        }
    }

    /// <summary>Makes everything written to the file durable on the device; throws if the system reports a failure.</summary>
    /// <exception cref="ListMmfException">The flush failed; the data may not be durable.</exception>
    public abstract void FlushFile(SafeFileHandle file, string path);

    /// <summary>
    /// Whether <see cref="FlushFile"/> takes a handle opened for reading only, so that a reader can make what its
    /// writer published durable: fsync does; Windows' FlushFileBuffers needs write access.
    /// </summary>
    public virtual bool ReadersCanFlush => true;

    /// <summary>Makes the directory's entries durable (a file created or renamed in it), where the system needs that.</summary>
    /// <exception cref="ListMmfException">The flush failed.</exception>
    public abstract void FlushDirectory(string directory, string path);

    /// <summary>
    /// Whether <see cref="FlushView"/> alone makes the range durable on the device, so that no <see cref="FlushFile"/>
    /// need follow it for that range.
    /// </summary>
    public virtual bool ViewFlushIsDurable => false;

    /// <summary>
    /// An identity of the machine's current boot, or 0 where the system gives none: a version 2 file records the boot
    /// its writer runs in, so that a later boot, after a power loss, trusts only the file's durable count. Read once
    /// per process (<see cref="BootSession.Current"/>).
    /// </summary>
    public virtual ulong ReadBootSession() => 0;

    /// <summary>
    /// The boot identity in a boot UUID's text (Linux's boot_id, macOS's kern.bootsessionuuid): its first 16 hex
    /// digits as a number, which the Python reader computes the same way; 0 where the text is not a UUID.
    /// </summary>
    protected static ulong SessionFromUuid(string? uuid)
    {
        string digits = (uuid ?? "").Trim().Replace("-", "", StringComparison.Ordinal);
        return digits.Length >= 16
            && ulong.TryParse(digits.AsSpan(0, 16), System.Globalization.NumberStyles.AllowHexSpecifier, null, out ulong session)
            ? session
            : 0;
    }

    /// <summary>Writes the dirty pages of a mapped range to the file and waits for the writes.</summary>
    /// <exception cref="ListMmfException">The system reported a failure.</exception>
    public abstract void FlushView(byte* address, long length, string path);

    /// <summary>
    /// Starts writing the file's dirty pages in the byte range back without waiting, so that the writebacks of
    /// several files overlap before each is waited for (<see cref="FlushFile"/>). Best effort; a no-op where unsupported.
    /// </summary>
    public virtual void StartWriteback(SafeFileHandle file, long offset, long length)
    {
    }

    /// <summary>
    /// Starts reading the byte range of the file into the page cache without waiting, so that reads of it soon after
    /// find it there. Best effort; a no-op where unsupported.
    /// </summary>
    public virtual void StartReading(SafeFileHandle file, long offset, long length)
    {
    }

    /// <summary>Whether <see cref="StartReading"/> does anything here.</summary>
    public virtual bool StartsReading => false;

    /// <summary>
    /// Whether the page of <paramref name="file"/> at <paramref name="offset"/> is in the page cache, asked without
    /// waiting for the disk; null where the system cannot say.
    /// </summary>
    public virtual bool? IsCached(SafeFileHandle file, long offset) => null;

    /// <summary>
    /// Asks the system to read only what each read of <paramref name="file"/> (this handle) asks for, without reading
    /// ahead: for a few small reads of a file whose pages are not cached. Best effort; a no-op where unsupported.
    /// </summary>
    public virtual void AdviseRandomReads(SafeFileHandle file)
    {
    }

    /// <summary>Whether <see cref="StartWriteback"/> does anything here.</summary>
    public virtual bool StartsWriteback => false;

    /// <summary>
    /// Asks the system to map a writer's view of the file in large pages where it can, so that appends into new
    /// pages take one page fault per large page instead of one per 4 KiB page. Best effort; a no-op where unsupported.
    /// </summary>
    public virtual void AdviseLargePages(byte* address, long length)
    {
    }

    /// <summary>
    /// The size of the large pages <see cref="AdviseLargePages"/> asks for, or 0 where it asks for none: a writer
    /// prefaults whole large pages, so that the system can fault in and map each one at once.
    /// </summary>
    public virtual long LargePageBytes => 0;

    /// <summary>
    /// Drops the file's pages from the page cache once they are on the disk, so that the next mapping that asks for
    /// large pages (<see cref="AdviseLargePages"/>) reads them back in large folios. Best effort; a no-op where unsupported.
    /// </summary>
    public virtual void ReleaseCachedPages(SafeFileHandle file)
    {
    }

    /// <summary>Faults the range in, writable, so that later writes take no page fault. Best effort; a no-op where unsupported.</summary>
    public virtual void PrefaultWritable(byte* address, long length)
    {
    }

    /// <summary>Faults the range in, readable, so that later reads take no page fault. Best effort; a no-op where unsupported.</summary>
    public virtual void PrefaultReadable(byte* address, long length)
    {
    }

    /// <summary>Reads of whole pages of an open file beside its mapping, for searches of a cold file (<see cref="ColdReader"/>).</summary>
    public virtual ColdReader OpenColdReader(SafeFileHandle file, string path) => new(file, path);

    /// <summary>
    /// Whether most of the range (of a file mapping) is in memory, from a sample of its pages: a search of such a
    /// file reads through the mapping at once, where one of a cold file reads a few pages beside it first. Where the
    /// system cannot tell (Windows), true: searches read through the mapping as they always have.
    /// </summary>
    public virtual bool IsMostlyResident(byte* address, long length) => true;

    /// <summary>
    /// Takes the exclusive, non-blocking writer lock on the sidecar <paramref name="lockPath"/> and returns the
    /// handle that holds it (closing it releases the lock; the system releases it when the process dies).
    /// </summary>
    /// <exception cref="ListMmfLockedException">Another writer holds the lock.</exception>
    /// <exception cref="ListMmfException">The lock could not be taken for another reason (the sidecar cannot be
    /// created, or locking is unavailable); never reported as success.</exception>
    public abstract SafeHandle LockWriter(string lockPath, string path);

    /// <summary>
    /// The refusal of a sidecar name the library did not make. It stays: removing it could race a writer that has
    /// just replaced it with a real one, and a user who can put files in the folder can stop a writer in other ways
    /// too (docs/internals.md, "Shared folders").
    /// </summary>
    protected static ListMmfException ForeignLockFile(string lockPath, string path, string problem) =>
        new(path, $"the writer lock '{lockPath}' {problem}, which no writer of this library makes: someone who can " +
            $"write the folder put it there. Nothing was opened through it, and it was left as it is: remove it (or " +
                $"have the folder's owner remove it) and open the file again. A shared folder should have the sticky " +
                    $"bit (chmod +t), so that no user can plant or remove names of another user's files there.");

    /// <summary>
    /// Gives back the lock <see cref="LockWriter"/> took, and removes its sidecar where that is safe: the sidecar
    /// exists only while a writer holds it, so folders and their copies carry none.
    /// </summary>
    public virtual void UnlockWriter(SafeHandle handle, string lockPath) => handle.Dispose();

    /// <summary>Whether <paramref name="exception"/>, from an exclusive create, says that something is at the name already.</summary>
    public abstract bool MeansNameTaken(IOException exception);

    /// <summary>How this system's usual file systems compare names: two paths that compare equal name one file.</summary>
    public abstract StringComparison PathComparison { get; }

    /// <summary>
    /// Puts a replacement's new file, <paramref name="temporary"/>, in the place of <paramref name="target"/>, which
    /// this writer and readers may hold open and mapped: a rename over it, which Unix allows.
    /// </summary>
    /// <exception cref="IOException">The rename failed; <paramref name="target"/> is unchanged.</exception>
    public virtual void ReplaceFile(string temporary, string target) => File.Move(temporary, target, overwrite: true);

    /// <summary>
    /// Renames <paramref name="temporary"/> to <paramref name="target"/> where no file is there, atomically, for
    /// processes that create one name at once without a lock: the first wins and the others fail. A rename without
    /// replacing on Windows; File.Move does not do it on Unix, which checks the name before a rename that replaces.
    /// </summary>
    /// <exception cref="IOException">A file is at <paramref name="target"/>, or the rename failed.</exception>
    public virtual void RenameAsNew(string temporary, string target) => File.Move(temporary, target, overwrite: false);

    /// <summary>
    /// Finishes a replacement that a killed writer left half done, where <see cref="ReplaceFile"/> takes more than
    /// one step; the caller holds the file's lock. Nothing to do where the replacement is one rename.
    /// </summary>
    public virtual void RecoverReplacement(string target)
    {
    }

    /// <summary>
    /// The identity of the open file (device and file number), so that a reader can tell the file at the path from
    /// the one it has; null where the system does not say, and the reader then keeps what it has.
    /// </summary>
    public virtual (ulong Device, ulong File)? IdentityOf(SafeFileHandle file) => null;

    /// <summary>
    /// The identity of the file at <paramref name="path"/> (symbolic links followed), found without opening it; null
    /// where the system does not say or no file is there.
    /// </summary>
    public virtual (ulong Device, ulong File)? IdentityOf(string path) => null;

    /// <summary>
    /// The identity of what the name <paramref name="path"/> itself is (a symbolic link not followed), found without
    /// opening it; null where the system does not say or nothing is there.
    /// </summary>
    public virtual (ulong Device, ulong File)? IdentityOfName(string path) => null;

    /// <summary>
    /// The identity of the file at <paramref name="path"/> found by opening it, for where <see cref="IdentityOf(string)"/>
    /// finds none; null where that is not safe or not possible. Not on Unix: there closing any descriptor of a file
    /// drops every POSIX record lock this process holds on it, the writer lock among them (<see cref="WriterLock"/>).
    /// </summary>
    public virtual (ulong Device, ulong File)? IdentityByOpening(string path) => null;

    /// <summary>
    /// Whether a missing file at <paramref name="path"/> may be a replacement between its renames, which a reader
    /// waits out. Never where the replacement is one rename.
    /// </summary>
    public virtual bool MayBeReplacing(string path) => false;

    /// <summary>
    /// Whether a file can be renamed while it is open (POSIX); Windows renames no file that is open without delete
    /// sharing.
    /// </summary>
    public virtual bool RenamesOpenFiles => true;

    /// <summary>
    /// Whether ListMmf 1.x's writers here lock a file with a lock file beside it (<see cref="ListMmf1xLock"/>): on
    /// Linux and macOS; on Windows they open the data file without write sharing instead, which this library's writer
    /// conflicts with by its own open.
    /// </summary>
    public virtual bool HasListMmf1xLockFiles => false;

    /// <summary>
    /// What the name <paramref name="path"/> itself is (a symbolic link not followed): whether it is a link, and its
    /// owner's user id, for <see cref="LinkRule"/>; null where nothing is there or the system does not say.
    /// </summary>
    public virtual (bool IsLink, uint Owner)? NameOwner(string path) => null;

    /// <summary>The owner's user id of the folder at <paramref name="path"/> (links followed); null where the system does not say.</summary>
    public virtual uint? FolderOwner(string path) => null;

    /// <summary>The user id this process's opens act as; null where the system has no such id (Windows).</summary>
    public virtual uint? CurrentUser => null;

    /// <summary>The user of id <paramref name="id"/> as a message names them: the id, or "unknown" without one.</summary>
    public virtual string DescribeUser(uint? id) => id is { } uid ? $"uid {uid}" : "unknown";

    /// <summary>
    /// Opens the existing file at <paramref name="path"/> as data: a regular file, never a FIFO (whose open would wait
    /// for a writer forever) or a device, and with <paramref name="nameMustBeFile"/> never through a symbolic link at
    /// the name itself. Refusals are <see cref="ListMmfException"/>s naming the file; a missing file is
    /// <see cref="FileNotFoundException"/>, as <see cref="File.OpenHandle"/> reports it.
    /// </summary>
    public virtual SafeFileHandle OpenExistingFile(string path, FileAccess access, FileOptions options, bool nameMustBeFile)
    {
        LinkRule.ThrowIfForeign(path);
        return File.OpenHandle(path, FileMode.Open, access, FileShare.ReadWrite | FileShare.Delete, options);
    }

    /// <summary>
    /// Opens a side file (a manifest, a description, fences) for reading as data: never through a symbolic link, never
    /// a FIFO or a device; null where nothing is at the name.
    /// </summary>
    /// <exception cref="ListMmfException">Something other than a regular file is at the name.</exception>
    public virtual SafeFileHandle? OpenSideFile(string path)
    {
        LinkRule.ThrowIfForeign(System.IO.Path.GetDirectoryName(path) ?? path);
        try
        {
            if ((File.GetAttributes(path) & FileAttributes.ReparsePoint) != 0)
            {
                throw NotData(path, "is a symbolic link or another reparse point");
            }

            return File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        }
        catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException)
        {
            return null;
        }
    }

    /// <summary>The refusal of a name that is not a regular file where the library reads or writes data.</summary>
    protected static ListMmfException NotData(string path, string problem) =>
        new(path, $"it {problem}, not a regular file: the library reads and writes data only in regular files, so " +
            $"that nothing put at the name (by another user of a shared folder, say) can make it wait forever, read " +
                $"without end or write elsewhere. Nothing was read or written through it.");

    /// <summary>
    /// Holds the folder this process just created at <paramref name="path"/>, so that what it created there can later
    /// be removed from that very folder (<see cref="RemoveName"/>) even if another user renamed another folder or a
    /// link over its name; null where the system removes only by path (Windows, where names of open files cannot be
    /// swapped).
    /// </summary>
    public virtual SafeHandle? HoldFolder(string path) => null;

    /// <summary>
    /// Removes the name <paramref name="name"/> from the folder <paramref name="folder"/> holds (by path where it is
    /// null): a link there goes as a name, a folder there stays. Whether something is left there is not reported.
    /// </summary>
    public virtual void RemoveName(SafeHandle? folder, string folderPath, string name) =>
        DurableFile.TryDelete(System.IO.Path.Combine(folderPath, name));

    /// <summary>
    /// Removes the folder at <paramref name="folderPath"/> if it is empty and is still the one <paramref name="folder"/>
    /// holds; a folder with anything in it stays, with all it holds.
    /// </summary>
    public virtual void RemoveFolderIfEmpty(SafeHandle? folder, string folderPath)
    {
        try
        {
            Directory.Delete(folderPath, recursive: false);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            // Not empty, or in use: what is in it is not this process's to remove.
        }
    }

    /// <summary>
    /// Takes a writer's lock on the data file's own open description, besides the sidecar's, so that a second writer
    /// reaching the same file through another name (the file renamed, a hard link, a bind mount, a sidecar deleted)
    /// is refused; false where another writer holds it. Readers take no lock and are never refused. Where the system
    /// has no such lock (macOS, Windows, which refuses renaming an open file), true.
    /// </summary>
    public virtual bool LockData(SafeFileHandle file) => true;

    /// <summary>
    /// Gives back <see cref="LockData"/>'s lock before the file is closed: a child started by vfork shares the
    /// description until its exec.
    /// </summary>
    public virtual void UnlockData(SafeFileHandle file)
    {
    }

    /// <summary>
    /// Gives back, before the file is closed, the shared lock that .NET's <see cref="FileShare"/> emulation takes and
    /// that a reader's open takes itself where it keeps its own descriptor (Linux): a child started by vfork shares the
    /// description until its exec, so a close alone could leave another program's exclusive open refused for a
    /// moment. .NET gives back the locks of descriptors it opened the same way.
    /// </summary>
    public virtual void UnlockShared(SafeFileHandle file)
    {
    }

    /// <summary>
    /// Closes a data file this process opened, the one way every owner of one closes it: its data lock where
    /// <paramref name="dataLocked"/> (<see cref="UnlockData"/>) and its shared lock (<see cref="UnlockShared"/>) are
    /// given back first, so that no copy of the descriptor that a child holds until its exec keeps either.
    /// </summary>
    public void Close(SafeFileHandle file, bool dataLocked = false)
    {
        try
        {
            if (dataLocked)
            {
                UnlockData(file);
            }

            UnlockShared(file);
        }
        finally
        {
            file.Dispose();
        }
    }

    /// <summary>Closes a data file this process opened as a stream; see <see cref="Close(SafeFileHandle, bool)"/>.</summary>
    public void Close(FileStream file, bool dataLocked = false)
    {
        try
        {
            if (dataLocked)
            {
                UnlockData(file.SafeFileHandle);
            }

            UnlockShared(file.SafeFileHandle);
        }
        finally
        {
            file.Dispose();
        }
    }

    /// <summary>The path of the file itself with every symbolic link resolved, so that two names of one file give one lock.</summary>
    public abstract string CanonicalPath(string fullPath);

    /// <summary>
    /// Extends the file from <paramref name="oldLength"/> to <paramref name="newLength"/> bytes with the disk space
    /// allocated. A mapped page whose block cannot be allocated would kill the process with SIGBUS on the write
    /// that touches it; allocating here turns a full disk into an exception instead.
    /// </summary>
    /// <exception cref="ListMmfException">The space could not be had; the file keeps its old length.</exception>
    public void Extend(FileStream file, long oldLength, long newLength, string path)
    {
        try
        {
            Allocate(file, oldLength, newLength, path);
        }
        catch (IOException exception)
        {
            Restore(file, oldLength);
            string cause = exception is ListMmfException own ? own.Problem : exception.Message;
            throw new ListMmfException(path, $"could not grow the file from {oldLength:N0} to {newLength:N0} bytes " +
                $"(is the disk full?): {cause}", exception);
        }
    }

    /// <summary>Puts the file back to the length it had before a failed growth. Nothing was ever mapped past it.</summary>
    public static void Restore(FileStream file, long oldLength)
    {
        try
        {
            if (file.Length > oldLength)
            {
                file.SetLength(oldLength);
            }
        }
        catch (IOException)
        {
            // The caller is already reporting the failure that matters; a longer file is still a valid file.
        }
    }

    /// <summary>Extends the file with its blocks allocated; see <see cref="Extend"/>.</summary>
    protected abstract void Allocate(FileStream file, long oldLength, long newLength, string path);

    private static StoragePlatform Select()
    {
        CheckProcess(Environment.Is64BitProcess, BitConverter.IsLittleEndian);
        if (OperatingSystem.IsWindows())
        {
            return new WindowsStoragePlatform();
        }

        if (OperatingSystem.IsLinux())
        {
            return new LinuxStoragePlatform();
        }

        if (OperatingSystem.IsMacOS())
        {
            return new MacOSStoragePlatform();
        }

        throw new PlatformNotSupportedException($"ListMmf runs on Windows, Linux and macOS; this system " +
            $"({RuntimeInformation.OSDescription}) has other constants for mmap, msync and flock.");
    }
}
