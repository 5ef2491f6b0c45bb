using System;
using System.IO;
using CommunityToolkit.HighPerformance.Buffers;
using ListMmf.Interop;

namespace ListMmf.Storage;

/// <summary>
/// Extends files with their disk space allocated up front. A mapped page whose block cannot be allocated kills the
/// process with SIGBUS on the write that touches it; allocating at growth time turns a full disk into an
/// <see cref="IOException"/> there instead.
/// </summary>
internal static class FileSpace
{
    private const int ZeroChunkBytes = 1 << 20;

    /// <summary>Extends the file from <paramref name="oldLength"/> to <paramref name="newLength"/> bytes, allocated.</summary>
    /// <exception cref="ListMmfException">The space could not be had; the file keeps its old length.</exception>
    public static void Extend(FileStream file, long oldLength, long newLength, string path)
    {
        try
        {
            if (OperatingSystem.IsLinux())
            {
                Libc.Fallocate((int)file.SafeFileHandle.DangerousGetHandle(), oldLength, newLength - oldLength, path);
            }
            else if (OperatingSystem.IsWindows())
            {
                // NTFS allocates the clusters of a non-sparse file when its end is moved.
                file.SetLength(newLength);
            }
            else
            {
                // macOS has no posix_fallocate, and fcntl(F_PREALLOCATE) is variadic; writing zeros allocates the blocks.
                file.SetLength(newLength);
                WriteZeros(file, oldLength, newLength);
            }
        }
        catch (IOException exception)
        {
            Restore(file, oldLength);
            string cause = exception is ListMmfException own ? own.Problem : exception.Message;
            throw new ListMmfException(path, $"could not grow the file from {oldLength:N0} to {newLength:N0} bytes (is the disk full?): {cause}", exception);
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

    private static void WriteZeros(FileStream file, long from, long to)
    {
        using SpanOwner<byte> zeros = SpanOwner<byte>.Allocate((int)Math.Min(ZeroChunkBytes, to - from), AllocationMode.Clear);
        for (long offset = from; offset < to; offset += zeros.Length)
        {
            int count = (int)Math.Min(zeros.Length, to - offset);
            RandomAccess.Write(file.SafeFileHandle, zeros.Span[..count], offset);
        }
    }
}
