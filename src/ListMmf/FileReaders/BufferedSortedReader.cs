using System;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using CommunityToolkit.HighPerformance.Buffers;

namespace ListMmf;

/// <summary>
/// Keeps one aligned 64 KiB block of the file in a pooled buffer and reads a new block with
/// <see cref="RandomAccess"/> when a probe falls outside it: the study's "Optimized Buffered I/O" reader, a benchmark peer.
/// Only the last probes of a binary search land in the same block, which is why it does not beat plain reads.
/// </summary>
/// <typeparam name="T">The key type.</typeparam>
internal sealed class BufferedSortedReader<T> : SortedFileReader<T>
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    /// <summary>The block size, a multiple of every page size.</summary>
    public const int BlockSize = 64 * 1024;

    private readonly MemoryOwner<byte> _block;
    private long _blockStart = -1;
    private int _blockLength;

    /// <summary>Opens the sorted ListMmf file at <paramref name="path"/> for searching.</summary>
    public BufferedSortedReader(string path)
        : base(path)
    {
        _block = MemoryOwner<byte>.Allocate(BlockSize);
    }

    private protected override void DiscardBuffers() => _blockStart = -1;

    private protected override T ReadItem(long index)
    {
        int size = Unsafe.SizeOf<T>();
        long offset = OffsetOf(index);
        if (_blockStart < 0 || offset < _blockStart || offset + size > _blockStart + _blockLength)
        {
            Load(offset - (offset % BlockSize));
            if (offset + size > _blockStart + _blockLength)
            {
                // An item crossing the end of a block (sizes that do not divide 64 KiB) is read on its own.
                return ReadAt(Handle, index);
            }
        }

        return MemoryMarshal.Read<T>(_block.Span.Slice((int)(offset - _blockStart), size));
    }

    /// <inheritdoc/>
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _block.Dispose();
        }

        base.Dispose(disposing);
    }

    private void Load(long start)
    {
        _blockStart = start;
        _blockLength = RandomAccess.Read(Handle, _block.Span, start);
    }
}
