namespace ListMmf.Search;

/// <summary>
/// Random access to the items of a sorted sequence, for <see cref="SortedSearch"/>. Implemented by structs, so
/// that each search is compiled for its source and the item read inlines: a pointer into a mapping, an array, or
/// a file read.
/// </summary>
internal interface IItemSource<out T>
{
    /// <summary>The item at <paramref name="index"/>; the search only asks for indices it was given bounds for.</summary>
    T this[long index] { get; }
}
