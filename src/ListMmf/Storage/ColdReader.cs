using System;
using System.IO;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// Reads of whole pages of a file beside its mapping, for the searches of a file whose pages are not in memory
/// (a cold start): a fault in the mapping would read around it (8 MiB where the disk's read-ahead is 8 MiB), where
/// such a search wants one page. This one reads through the file's handle, which the system caches as it would any
/// read (Windows, macOS); <see cref="LinuxColdReader"/> reads what the page cache holds from there and the rest
/// from the disk without caching it, so that the pages the mapping later reads whole keep their large folios.
/// </summary>
internal class ColdReader : IDisposable
{
    /// <summary>The unit of every read: offsets and lengths are multiples of it, buffers aligned to it.</summary>
    public const int PageBytes = 4096;

    /// <summary>A reader of <paramref name="file"/>, which the caller keeps open for the reader's life.</summary>
    public ColdReader(SafeFileHandle file, string path)
    {
        File = file;
        Path = path;
    }

    /// <summary>The file's path, for messages.</summary>
    public string Path { get; }

    protected SafeFileHandle File { get; }

    /// <summary>
    /// Reads <paramref name="length"/> bytes at <paramref name="offset"/> (both multiples of <see cref="PageBytes"/>)
    /// into <paramref name="buffer"/> (aligned to <see cref="PageBytes"/>); returns the bytes read, fewer only at the
    /// end of the file.
    /// </summary>
    /// <exception cref="ListMmfException">The system refused the read.</exception>
    public virtual unsafe int Read(long offset, byte* buffer, int length)
    {
        try
        {
            return PositionalRead.Fill(File, new Span<byte>(buffer, length), offset);
        }
        catch (IOException exception)
        {
            throw new ListMmfException(Path, $"the file could not be read at byte offset {offset:N0}: {exception.Message}", exception);
        }
    }

    /// <summary>Releases what the reader opened of its own; the file's handle stays open.</summary>
    public virtual void Dispose() => GC.SuppressFinalize(this);
}
