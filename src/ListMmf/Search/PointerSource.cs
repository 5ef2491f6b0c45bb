using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>Items read straight from memory: a mapping or a pinned array.</summary>
internal readonly unsafe struct PointerSource<T> : IItemSource<T>
    where T : unmanaged
{
    private readonly T* _items;

    public PointerSource(T* items) => _items = items;

    /// <summary>The first item.</summary>
    public T* Pointer => _items;

    public T this[long index]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _items[index];
    }
}
