using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Interop;

/// <summary>The Windows functions used where System.IO has no checked equivalent: flushing part of a view, and the file's buffers.</summary>
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

    /// <summary>An exception naming the file, the function and the Windows error.</summary>
    public static ListMmfException Failure(string function, string path, int error) =>
        new(path, $"{function} failed: {Marshal.GetPInvokeErrorMessage(error)} (error {error}).");
}
