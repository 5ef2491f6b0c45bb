using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>Items of a managed array: the in-RAM reference every other implementation is checked against.</summary>
internal readonly struct ArraySource<T> : IItemSource<T>
{
    private readonly T[] _items;

    public ArraySource(T[] items) => _items = items;

    public T this[long index]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _items[index];
    }
}
