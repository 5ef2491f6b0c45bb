using System;
using System.Buffers;
using System.Threading;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// Items of a list's mapping as a <see cref="Memory{T}"/>: the memory points straight into the mapping and holds the
/// list, so that the mapping is not collected while the memory is reachable. Every use checks that the mapping is
/// still there (the list open, and not moved to a new file twice since), and throws rather than read unmapped memory.
/// A pin keeps the mapping itself until it is unpinned, even past the list's Dispose: that is how memory handed to a
/// native consumer (Arrow's C Data Interface pins every buffer it exports until the consumer releases it) stays valid.
/// </summary>
internal sealed unsafe class MappedMemoryManager<T> : MemoryManager<T>
    where T : unmanaged
{
    private readonly ListMmf<T> _list;
    private readonly ListMmfStorage _storage;
    private readonly int _generation;
    private readonly T* _items;
    private readonly int _length;

    /// <summary>Pins not yet unpinned: a copy of a handle disposed twice must not give back another pin's reference.</summary>
    private int _pins;

    public MappedMemoryManager(ListMmf<T> list, ListMmfStorage storage, T* items, int length)
    {
        _list = list;
        _storage = storage;
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

    /// <summary>Mapped memory never moves; a pin keeps it mapped until the handle is disposed.</summary>
    public override MemoryHandle Pin(int elementIndex = 0)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(elementIndex);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(elementIndex, _length);
        CheckMapped();
        _storage.RetainMapping();
        Interlocked.Increment(ref _pins);
        return new MemoryHandle(_items + elementIndex, pinnable: this);
    }

    public override void Unpin()
    {
        if (Interlocked.Decrement(ref _pins) >= 0)
        {
            _storage.ReleaseMapping();
        }
        else
        {
            Interlocked.Increment(ref _pins);
        }
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
