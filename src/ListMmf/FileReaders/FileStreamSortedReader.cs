using System;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using ListMmf.Storage;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// Each probe is <see cref="FileStream.Seek"/> then <see cref="Stream.ReadExactly(Span{byte})"/> into a stack
/// span: the study's "File I/O (Span&lt;T&gt;)" reader (a benchmark peer), with FileStream's default buffer.
/// </summary>
/// <typeparam name="T">The key type.</typeparam>
internal sealed class FileStreamSortedReader<T> : SortedFileReader<T>
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    private readonly FileStream _stream;

    /// <summary>Opens the sorted ListMmf file at <paramref name="path"/> for searching.</summary>
    public FileStreamSortedReader(string path)
        : base(path)
    {
        try
        {
            SafeFileHandle handle = ListMmfStorage.OpenExisting(Path, FileAccess.Read, FileOptions.None);
            try
            {
                _stream = new FileStream(handle, FileAccess.Read);
            }
            catch
            {
                StoragePlatform.Current.Close(handle);
                throw;
            }
        }
        catch
        {
            base.Dispose(disposing: true);
            throw;
        }
    }

    /// <summary>Flushing a read-only FileStream discards its read buffer.</summary>
    private protected override void DiscardBuffers() => _stream.Flush();

    private protected override T ReadItem(long index)
    {
        Span<byte> bytes = stackalloc byte[Unsafe.SizeOf<T>()];
        _stream.Seek(OffsetOf(index), SeekOrigin.Begin);
        if (_stream.ReadAtLeast(bytes, bytes.Length, throwOnEndOfStream: false) < bytes.Length)
        {
            throw Truncated(index);
        }

        return MemoryMarshal.Read<T>(bytes);
    }

    /// <inheritdoc/>
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            StoragePlatform.Current.Close(_stream);
        }

        base.Dispose(disposing);
    }
}
