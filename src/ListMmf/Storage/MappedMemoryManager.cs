using System;
using System.Buffers;

namespace ListMmf.Storage;

/// <summary>
/// Items of a list's mapping as a <see cref="Memory{T}"/>: the memory points straight into the mapping and holds the
/// list, so that the mapping is not collected while the memory is reachable. Every use checks that the mapping is
/// still there (the list open, and not moved to a new file twice since), and throws rather than read unmapped memory.
/// </summary>
internal sealed unsafe class MappedMemoryManager<T> : MemoryManager<T>
    where T : unmanaged
{
    private readonly ListMmf<T> _list;
    private readonly int _generation;
    private readonly T* _items;
    private readonly int _length;

    public MappedMemoryManager(ListMmf<T> list, T* items, int length)
    {
        _list = list;
        _generation = list.Generation;
        _items = items;
        _length = length;
    }

    /// <exception cref="ObjectDisposedException">The list was disposed.</exception>
    /// <exception cref="InvalidOperationException">The list has moved to a new file twice since the memory was taken.</exception>
    public override Span<T> GetSpan()
    {
        CheckMapped();
        return new Span<T>(_items, _length);
    }

    /// <summary>Mapped memory never moves: pinning is only a pointer.</summary>
    public override MemoryHandle Pin(int elementIndex = 0)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(elementIndex);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(elementIndex, _length);
        CheckMapped();
        return new MemoryHandle(_items + elementIndex);
    }

    public override void Unpin()
    {
    }

    /// <summary>Nothing to release: the mapping belongs to its list.</summary>
    protected override void Dispose(bool disposing)
    {
    }

    private void CheckMapped()
    {
        if (!_list.StillMaps(_generation))
        {
            _list.ThrowReadEnded(_generation, "this memory was taken");
        }
    }
}
