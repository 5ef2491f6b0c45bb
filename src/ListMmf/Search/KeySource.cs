using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>The keys of items read straight from memory (a mapping), each found by <typeparamref name="TKeyOf"/> as it is probed.</summary>
internal readonly unsafe struct KeySource<TItem, T, TKeyOf> : IItemSource<T>
    where TItem : unmanaged
    where TKeyOf : IKeyOf<TItem, T>
{
    private readonly TItem* _items;

    public KeySource(TItem* items) => _items = items;

    public T this[long index]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => TKeyOf.Of(in _items[index]);
    }
}
