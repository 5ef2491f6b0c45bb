using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using System.Threading;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// Windows: FlushViewOfFile (retried as the runtime retries it) and FlushFileBuffers, the share mode as the writer
/// lock, NTFS allocating on SetLength. Not run by this project's tests; see the README's platform notes.
/// </summary>
[SupportedOSPlatform("windows")]
internal sealed unsafe class WindowsStoragePlatform : StoragePlatform
{
    /// <summary>Back-off rounds for FlushViewOfFile, sleeping 1, 2, 4, ... 16,384 ms between them (about 33 s in all).</summary>
    private const int FlushWaits = 15;

    private const int FlushRetriesPerWait = 20;

    /// <summary>Ignoring case, as NTFS does.</summary>
    public override StringComparison PathComparison => StringComparison.OrdinalIgnoreCase;

    public override bool SupportsPosixMapping => false;

    public override void FlushFile(SafeFileHandle file, string path)
    {
        if (!Kernel32.FlushFileBuffers(file))
        {
            throw Kernel32.Failure("FlushFileBuffers", path, Marshal.GetLastPInvokeError());
        }
    }

    /// <summary>
    /// Nothing: NTFS logs the create and the rename in its journal, and FlushFileBuffers of the file commits it.
    /// (A directory handle needs backup semantics to open; the runtime does not flush directories either.)
    /// </summary>
    public override void FlushDirectory(string directory, string path)
    {
    }

    /// <summary>
    /// FlushViewOfFile fails intermittently with ERROR_LOCK_VIOLATION while NTFS is writing the same pages; the
    /// runtime's own MemoryMappedView retries it with growing pauses, and so does this.
    /// </summary>
    public override void FlushView(byte* address, long length, string path)
    {
        if (Kernel32.FlushViewOfFile((nint)address, (nuint)length))
        {
            return;
        }

        int error = Marshal.GetLastPInvokeError();
        for (int wait = 0; error == Kernel32.ErrorLockViolation && wait < FlushWaits; wait++)
        {
            Thread.Sleep(1 << wait);
            for (int retry = 0; retry < FlushRetriesPerWait; retry++)
            {
                if (Kernel32.FlushViewOfFile((nint)address, (nuint)length))
                {
                    return;
                }

                error = Marshal.GetLastPInvokeError();
                if (error != Kernel32.ErrorLockViolation)
                {
                    break;
                }

                Thread.Sleep(0);
            }
        }

        throw Kernel32.Failure("FlushViewOfFile", path, error);
    }

    /// <summary>The share mode: Windows itself refuses a second open of the sidecar while this handle lives.</summary>
    public override SafeHandle LockWriter(string lockPath, string path)
    {
        try
        {
            return File.OpenHandle(lockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
        }
        catch (IOException exception) when ((exception.HResult & 0xFFFF) is Kernel32.ErrorSharingViolation or Kernel32.ErrorLockViolation)
        {
            throw new ListMmfLockedException(path, "another writer has the file open for writing; a file has one writer at a time.", exception);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new ListMmfException(path, $"the writer lock file '{lockPath}' could not be opened: {exception.Message}", exception);
        }
    }

    /// <summary>
    /// A rename with POSIX semantics where the file system has it (NTFS on Windows 10 1709 and later): the open and
    /// mapped old file loses its name at once, as on Unix. Elsewhere (FAT, older systems, Wine), where no file can be
    /// renamed over one that is open, the old file is first moved aside to a free name of its own
    /// (<see cref="AsideFor"/>) and the new one renamed into the freed place; the old one is then deleted, which
    /// takes effect when its last reader closes it. Every handle this library opens allows delete sharing, which
    /// both ways need.
    /// </summary>
    public override void ReplaceFile(string temporary, string target)
    {
        if (Kernel32.RenameReplacingPosix(temporary, target) == 0)
        {
            return;
        }

        string aside = MoveAside(target);
        try
        {
            File.Move(temporary, target);
        }
        catch
        {
            File.Move(aside, target);
            throw;
        }

        DurableFile.TryDelete(aside);
    }

    /// <summary>
    /// A writer killed between moving the old file aside and renaming the new one in left no file at the path: the
    /// new file, complete and durable before the old was moved, is renamed in. An aside name that is taken shows
    /// that the old file was moved. Then the old files left aside are deleted.
    /// </summary>
    public override void RecoverReplacement(string target)
    {
        if (!File.Exists(target) && MayBeReplacing(target))
        {
            if (File.Exists(DurableFile.TemporaryFor(target)))
            {
                File.Move(DurableFile.TemporaryFor(target), target);
            }
            else
            {
                // The new file went missing, and putting the old one back failed: the old file is the one aside that
                // was not deleted (deleted ones cannot be renamed while readers hold them).
                for (int i = 0; i < AsideNames && !File.Exists(target); i++)
                {
                    try
                    {
                        File.Move(AsideFor(target, i), target);
                    }
                    catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
                    {
                    }
                }
            }
        }

        if (!File.Exists(target))
        {
            return;
        }

        // Old files a killed writer left aside go now; those readers still hold go when they close them.
        for (int i = 0; i < AsideNames; i++)
        {
            DurableFile.TryDelete(AsideFor(target, i));
        }
    }

    public override (ulong Device, ulong File)? IdentityOf(SafeFileHandle file) => Kernel32.Identity(file);

    /// <summary>An old file moved aside (and not yet gone) shows a replacement that may be between its renames.</summary>
    public override bool MayBeReplacing(string path)
    {
        for (int i = 0; i < AsideNames; i++)
        {
            if (File.Exists(AsideFor(path, i)))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>How many old files moved aside may still be open by readers at once.</summary>
    private const int AsideNames = 64;

    /// <summary>The <paramref name="index"/>th name an old file is moved aside to before it is deleted.</summary>
    internal static string AsideFor(string target, int index) => $"{target}.listmmf.old{index}";

    /// <summary>
    /// Moves the old file to the first aside name that is free. A name still held by a deleted file that a reader
    /// keeps open is skipped; one left by a killed writer is deleted first, which frees it when nobody holds it.
    /// </summary>
    private static string MoveAside(string target)
    {
        for (int i = 0; i < AsideNames; i++)
        {
            string aside = AsideFor(target, i);
            DurableFile.TryDelete(aside);
            try
            {
                File.Move(target, aside);
                return aside;
            }
            catch (IOException exception) when ((exception.HResult & 0xFFFF) is Kernel32.ErrorAlreadyExists or Kernel32.ErrorFileExists)
            {
            }
        }

        throw new IOException($"the old file could not be moved aside: the {AsideNames} names '{AsideFor(target, 0)}' " +
            $"to '{AsideFor(target, AsideNames - 1)}' are held by old files that readers still have open.");
    }

    public override string CanonicalPath(string fullPath) =>
        File.Exists(fullPath) ? new FileInfo(fullPath).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? fullPath : fullPath;

    /// <summary>NTFS allocates the clusters of a non-sparse file when its end is moved.</summary>
    protected override void Allocate(FileStream file, long oldLength, long newLength, string path) => file.SetLength(newLength);
}
