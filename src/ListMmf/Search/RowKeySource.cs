using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>The keys of rows read straight from memory, each picked by <typeparamref name="TSelector"/> as it is probed.</summary>
internal readonly unsafe struct RowKeySource<TRow, TKey, TSelector> : IItemSource<ComparableKey<TKey>>
    where TRow : unmanaged
    where TKey : System.IComparable<TKey>
    where TSelector : IKeySelector<TRow, TKey>
{
    private readonly TRow* _rows;

    public RowKeySource(TRow* rows) => _rows = rows;

    public ComparableKey<TKey> this[long index]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => new(TSelector.KeyOf(in _rows[index]));
    }
}
