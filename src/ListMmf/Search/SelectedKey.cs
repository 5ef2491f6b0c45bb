using System;
using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>The key of a keyed list's row: the field <typeparamref name="TSelector"/> picks, compared through <see cref="IComparable{T}"/>.</summary>
internal readonly struct SelectedKey<TRow, TKey, TSelector> : IKeyOf<TRow, ComparableKey<TKey>>
    where TRow : unmanaged
    where TKey : unmanaged, IComparable<TKey>
    where TSelector : IKeySelector<TRow, TKey>
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ComparableKey<TKey> Of(in TRow row) => new(TSelector.KeyOf(in row));
}
