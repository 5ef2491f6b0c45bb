using System;
using System.IO;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Interop;

/// <summary>
/// Positional reads (<c>pread</c>) that fill what they are given: <see cref="RandomAccess.Read(SafeFileHandle, Span{byte}, long)"/>
/// may return fewer bytes than asked for before the end of the file (a signal, a network file system), so every reader
/// that needs a whole range reads through here rather than looping on its own.
/// </summary>
internal static class PositionalRead
{
    /// <summary>
    /// Reads <paramref name="bytes"/> from <paramref name="file"/> at <paramref name="offset"/>; returns how many were
    /// read, fewer than asked for only where the file ends first.
    /// </summary>
    public static int Fill(SafeFileHandle file, Span<byte> bytes, long offset)
    {
        int filled = 0;
        while (filled < bytes.Length)
        {
            int read = RandomAccess.Read(file, bytes[filled..], offset + filled);
            if (read == 0)
            {
                break;
            }

            filled += read;
        }

        return filled;
    }
}
