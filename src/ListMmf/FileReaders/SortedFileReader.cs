using System;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using ListMmf.Interop;
using ListMmf.Search;
using ListMmf.Storage;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// Searches a sorted ListMmf file with plain file reads instead of a mapping: one read per probe of the binary
/// search, for where mapping is unwise (network shares). The subclasses differ only in how they read one item.
/// </summary>
/// <remarks>
/// The count is read from the header when the reader opens and on <see cref="Refresh"/>, by the rule a mapped reader
/// follows (a version 2 file last written in an earlier boot: its durable count); searches cover the items
/// below it, which a writer publishes only once they are written, so a reader of a growing file searches a
/// complete prefix. Not thread-safe: each subclass keeps a file position or a buffer.
/// </remarks>
/// <typeparam name="T">The key type.</typeparam>
public abstract class SortedFileReader<T> : IDisposable
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    private readonly SafeFileHandle _file;

    private protected SortedFileReader(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        Path = System.IO.Path.GetFullPath(path);
        _file = ListMmfStorage.OpenExisting(Path, FileAccess.Read, FileOptions.RandomAccess);
        try
        {
            ListMmfHeader header = ListMmfHeader.ReadAndValidate<T>(_file, Path, BootSession.Current);
            DataType = header.DataType;
            ItemsOffset = header.ItemsOffset;
            Count = header.PublishedCount(BootSession.Current);
        }
        catch
        {
            _file.Dispose();
            throw;
        }
    }

    /// <summary>Byte offset of the first item in the file: 16 in version 1, a multiple of 4 KiB in version 2.</summary>
    private protected int ItemsOffset { get; }

    /// <summary>The full path of the file.</summary>
    public string Path { get; }

    /// <summary>The file, opened for positional reads with read-ahead off (a binary search gains nothing from it).</summary>
    private protected SafeFileHandle Handle => _file;

    /// <summary>The data-type code in the file's header.</summary>
    public DataType DataType { get; }

    /// <summary>The number of items searched: the header's count when opened or last refreshed.</summary>
    public long Count { get; private set; }

    /// <summary>
    /// Rereads the count a writer has published since (read as at open: consistently with the file length, never
    /// torn); returns it.
    /// </summary>
    /// <exception cref="ListMmfFormatException">The header is no longer valid.</exception>
    public long Refresh()
    {
        long count = ListMmfHeader.ReadAndValidate<T>(_file, Path, BootSession.Current).PublishedCount(BootSession.Current);
        DiscardBuffers();
        Count = count;
        return count;
    }

    /// <summary>The first index whose item is not less than <paramref name="value"/>, or <see cref="Count"/>.</summary>
    public long LowerBound(T value) => LowerBound(value, 0, Count);

    /// <summary>The first index in <c>[first, last)</c> whose item is not less than <paramref name="value"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long LowerBound(T value, long first, long last)
    {
        SortedSearch.CheckRange(first, last, Count);
        var source = new Source(this);
        return SortedSearch.LowerBound(ref source, value, first, last);
    }

    /// <summary>The first index whose item is greater than <paramref name="value"/>, or <see cref="Count"/>.</summary>
    public long UpperBound(T value) => UpperBound(value, 0, Count);

    /// <summary>The first index in <c>[first, last)</c> whose item is greater than <paramref name="value"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long UpperBound(T value, long first, long last)
    {
        SortedSearch.CheckRange(first, last, Count);
        var source = new Source(this);
        return SortedSearch.UpperBound(ref source, value, first, last);
    }

    /// <summary>Closes the file.</summary>
    public void Dispose()
    {
        Dispose(disposing: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Closes what the subclass opened, then the file handle.</summary>
    protected virtual void Dispose(bool disposing)
    {
        if (disposing)
        {
            _file.Dispose();
        }
    }

    /// <summary>
    /// Drops whatever the reader buffered: bytes past the old count may have been read as empty capacity before the
    /// writer filled them.
    /// </summary>
    private protected virtual void DiscardBuffers()
    {
    }

    /// <summary>Reads the item at <paramref name="index"/>, which the search guarantees is below <see cref="Count"/>.</summary>
    private protected abstract T ReadItem(long index);

    /// <summary>The file offset of the item at <paramref name="index"/>.</summary>
    private protected long OffsetOf(long index) => ItemsOffset + (index * Unsafe.SizeOf<T>());

    /// <summary>Reads the item at <paramref name="index"/> with positional reads (<c>pread</c>), however many it takes.</summary>
    private protected T ReadAt(SafeFileHandle file, long index)
    {
        Span<byte> bytes = stackalloc byte[Unsafe.SizeOf<T>()];
        return PositionalRead.Fill(file, bytes, OffsetOf(index)) == bytes.Length ? MemoryMarshal.Read<T>(bytes) : throw Truncated(index);
    }

    private protected EndOfStreamException Truncated(long index) =>
        new($"'{Path}': the item at index {index:N0} lies past the end of the file; it was truncated while open.");

    private readonly struct Source : IItemSource<T>
    {
        private readonly SortedFileReader<T> _reader;

        public Source(SortedFileReader<T> reader) => _reader = reader;

        public T this[long index] => _reader.ReadItem(index);
    }
}
