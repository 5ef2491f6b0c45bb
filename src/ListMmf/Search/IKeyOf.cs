namespace ListMmf.Search;

/// <summary>
/// How a sorted list finds the key of one of its items: the item itself (<see cref="ItemKey{T}"/>), or a field of a
/// row (<see cref="SelectedKey{TRow, TKey, TSelector}"/>). Implemented by empty structs, so that every search is
/// compiled for its key and the read inlines.
/// </summary>
/// <typeparam name="TItem">The item stored in the file.</typeparam>
/// <typeparam name="T">The key the items are sorted by.</typeparam>
internal interface IKeyOf<TItem, out T>
    where TItem : unmanaged
{
    /// <summary>The key of <paramref name="item"/>.</summary>
    static abstract T Of(in TItem item);
}
