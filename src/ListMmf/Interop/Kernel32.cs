using System;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Interop;

/// <summary>
/// The Windows functions used where System.IO has no checked equivalent: flushing part of a view, the file's
/// buffers, a rename with POSIX semantics.
/// </summary>
[SupportedOSPlatform("windows")]
internal static unsafe partial class Kernel32
{
    public const int ErrorSharingViolation = 32;
    public const int ErrorLockViolation = 33;

    [LibraryImport("kernel32.dll", EntryPoint = "FlushViewOfFile", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool FlushViewOfFile(nint address, nuint length);

    [LibraryImport("kernel32.dll", EntryPoint = "FlushFileBuffers", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool FlushFileBuffers(SafeFileHandle file);

    public const int ErrorFileNotFound = 2;
    public const int ErrorAlreadyExists = 183;
    public const int ErrorFileExists = 80;

    private const uint Delete = 0x00010000;
    private const uint Synchronize = 0x00100000;
    private const uint ShareAll = 0x1 | 0x2 | 0x4;
    private const uint OpenExisting = 3;
    private const int FileRenameInfoEx = 22;
    private const uint RenameReplaceIfExists = 0x1;
    private const uint RenamePosixSemantics = 0x2;

    [LibraryImport("kernel32.dll", EntryPoint = "CreateFileW", SetLastError = true, StringMarshalling = StringMarshalling.Utf16)]
    private static partial SafeFileHandle CreateFile(
        string name,
        uint access,
        uint share,
        nint security,
        uint disposition,
        uint flags,
        nint template);

    [LibraryImport("kernel32.dll", EntryPoint = "SetFileInformationByHandle", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool SetFileInformationByHandle(SafeFileHandle file, int informationClass, byte* information, uint size);

    /// <summary>
    /// Renames <paramref name="source"/> over <paramref name="target"/> with POSIX semantics (Windows 10 1709 and
    /// later, on NTFS): the target's name goes at once even while other handles have it open with delete sharing, as
    /// a rename does on Unix. Returns the Windows error, 0 on success.
    /// </summary>
    public static int RenameReplacingPosix(string source, string target)
    {
        using SafeFileHandle file = CreateFile(source, Delete | Synchronize, ShareAll, 0, OpenExisting, 0, 0);
        if (file.IsInvalid)
        {
            return Marshal.GetLastPInvokeError();
        }

        // FILE_RENAME_INFO on 64-bit: Flags (4 bytes, padded to 8), RootDirectory (8), FileNameLength (4), FileName.
        const int NameOffset = 20;
        int nameBytes = target.Length * sizeof(char);
        int size = NameOffset + nameBytes + sizeof(char);
        byte[] buffer = new byte[size];
        fixed (byte* information = buffer)
        fixed (char* name = target)
        {
            *(uint*)information = RenameReplaceIfExists | RenamePosixSemantics;
            *(uint*)(information + 16) = (uint)nameBytes;
            Buffer.MemoryCopy(name, information + NameOffset, nameBytes, nameBytes);
            return SetFileInformationByHandle(file, FileRenameInfoEx, information, (uint)size) ? 0 : Marshal.GetLastPInvokeError();
        }
    }

    /// <summary>
    /// Opens or creates the writer lock's sidecar with no sharing, deleted when its last handle closes, and never
    /// through a reparse point (FILE_FLAG_OPEN_REPARSE_POINT): a symbolic link or junction planted at the name is
    /// opened itself, so that nothing it names is locked or deleted on close. Returns the Windows error, 0 on success.
    /// </summary>
    public static SafeFileHandle OpenLockFile(string path, out int error)
    {
        const uint GenericReadWrite = 0x80000000 | 0x40000000;
        const uint OpenAlways = 4;
        const uint DeleteOnCloseNoReparse = 0x04000000 | 0x00200000;
        SafeFileHandle file = CreateFile(path, GenericReadWrite | Delete, 0, 0, OpenAlways, DeleteOnCloseNoReparse, 0);
        error = file.IsInvalid ? Marshal.GetLastPInvokeError() : 0;
        return file;
    }

    /// <summary>
    /// What is wrong with an open sidecar for a lock file (a reparse point, or a file of several names), or null.
    /// </summary>
    public static string? LockFileProblem(SafeFileHandle file)
    {
        const uint ReparsePoint = 0x400;

        // BY_HANDLE_FILE_INFORMATION: dwFileAttributes at 0, nNumberOfLinks at 40.
        byte* information = stackalloc byte[52];
        if (!GetFileInformationByHandle(file, information))
        {
            return null;
        }

        uint links = *(uint*)(information + 40);
        return (*(uint*)information & ReparsePoint) != 0 ? "is a symbolic link or junction"
            : links > 1 ? $"is one of {links} names of one file (a hard link to another file)"
            : null;
    }

    [LibraryImport("kernel32.dll", EntryPoint = "GetFileInformationByHandle", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool GetFileInformationByHandle(SafeFileHandle file, byte* information);

    /// <summary>The volume serial number and file index of the open file, or null if the system does not say.</summary>
    public static (ulong Device, ulong File)? Identity(SafeFileHandle file)
    {
        // BY_HANDLE_FILE_INFORMATION: dwVolumeSerialNumber at 28, nFileIndexHigh at 44, nFileIndexLow at 48.
        byte* information = stackalloc byte[52];
        if (!GetFileInformationByHandle(file, information))
        {
            return null;
        }

        return (*(uint*)(information + 28), ((ulong)*(uint*)(information + 44) << 32) | *(uint*)(information + 48));
    }

    /// <summary>An exception naming the file, the function and the Windows error.</summary>
    public static ListMmfException Failure(string function, string path, int error) =>
        new(path, $"{function} failed: {Marshal.GetPInvokeErrorMessage(error)} (error {error}).");
}
