using System;
using System.Buffers;

namespace ListMmf.Storage;

/// <summary>
/// Items of a mapping as a <see cref="Memory{T}"/>: the memory points straight into the mapping, and holds its
/// owner (the list) so that the mapping is not collected while the memory is reachable. Disposing the owner still
/// unmaps it: the owner must outlive every use, as for a span.
/// </summary>
internal sealed unsafe class MappedMemoryManager<T> : MemoryManager<T>
    where T : unmanaged
{
    private readonly object _owner;
    private readonly T* _items;
    private readonly int _length;

    public MappedMemoryManager(object owner, T* items, int length)
    {
        _owner = owner;
        _items = items;
        _length = length;
    }

    public override Span<T> GetSpan()
    {
        GC.KeepAlive(_owner);
        return new Span<T>(_items, _length);
    }

    /// <summary>Mapped memory never moves: pinning is only a pointer.</summary>
    public override MemoryHandle Pin(int elementIndex = 0)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(elementIndex);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(elementIndex, _length);
        return new MemoryHandle(_items + elementIndex);
    }

    public override void Unpin()
    {
    }

    /// <summary>Nothing to release: the mapping belongs to its list.</summary>
    protected override void Dispose(bool disposing)
    {
    }
}
