using System.Runtime.InteropServices;

namespace ListMmf.Interop;

/// <summary>The Windows functions used where System.IO.MemoryMappedFiles has no equivalent (flushing part of a view).</summary>
internal static unsafe partial class Kernel32
{
    [LibraryImport("kernel32.dll", EntryPoint = "FlushViewOfFile", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool FlushViewOfFileNative(nint address, nuint length);

    /// <summary>Writes the dirty pages of the range to the file; FlushFileBuffers then makes them durable.</summary>
    public static void FlushViewOfFile(byte* address, long length, string path)
    {
        if (!FlushViewOfFileNative((nint)address, (nuint)length))
        {
            int error = Marshal.GetLastPInvokeError();
            throw new ListMmfException(path, $"FlushViewOfFile failed: {Marshal.GetPInvokeErrorMessage(error)} (error {error}).");
        }
    }
}
