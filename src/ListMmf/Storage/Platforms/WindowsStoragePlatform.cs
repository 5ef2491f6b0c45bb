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

    public override FileMapping MapPosix(FileStream file, string path, bool writable) =>
        throw new PlatformNotSupportedException("The Posix mapping backend needs Linux or macOS.");

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

    public override string CanonicalPath(string fullPath) =>
        File.Exists(fullPath) ? new FileInfo(fullPath).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? fullPath : fullPath;

    /// <summary>NTFS allocates the clusters of a non-sparse file when its end is moved.</summary>
    protected override void Allocate(FileStream file, long oldLength, long newLength, string path) => file.SetLength(newLength);
}
