using System;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using ListMmf.Storage;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// Each probe seeks the <see cref="BinaryReader"/>'s stream and reads the item's bytes through the reader:
/// the study's "File I/O (BinaryReader)" reader, a benchmark peer.
/// </summary>
/// <typeparam name="T">The key type.</typeparam>
internal sealed class BinaryReaderSortedReader<T> : SortedFileReader<T>
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    private readonly BinaryReader _reader;

    /// <summary>Opens the sorted ListMmf file at <paramref name="path"/> for searching.</summary>
    public BinaryReaderSortedReader(string path)
        : base(path)
    {
        try
        {
            SafeFileHandle handle = ListMmfStorage.OpenExisting(Path, FileAccess.Read, FileOptions.None);
            try
            {
                _reader = new BinaryReader(new FileStream(handle, FileAccess.Read));
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
    private protected override void DiscardBuffers() => _reader.BaseStream.Flush();

    private protected override T ReadItem(long index)
    {
        Span<byte> bytes = stackalloc byte[Unsafe.SizeOf<T>()];
        _reader.BaseStream.Seek(OffsetOf(index), SeekOrigin.Begin);
        int filled = 0;
        while (filled < bytes.Length)
        {
            int read = _reader.Read(bytes[filled..]);
            if (read == 0)
            {
                throw Truncated(index);
            }

            filled += read;
        }

        return MemoryMarshal.Read<T>(bytes);
    }

    /// <inheritdoc/>
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            StoragePlatform.Current.Close((FileStream)_reader.BaseStream);
        }

        base.Dispose(disposing);
    }
}
