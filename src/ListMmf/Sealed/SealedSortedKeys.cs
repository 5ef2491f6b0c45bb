using System;
using System.Numerics;
using ListMmf.Search;

namespace ListMmf.Sealed;

/// <summary>
/// A sorted sealed list as the keys contract (<see cref="ISortedKeys{T}"/>), so that it answers every sorted query as
/// the appendable lists do: a bound searches the directory and one block; a bound within a range is the whole list's
/// clamped to it, the same answer in a sorted list; a batch searches each value in turn, ascending ones as a merge. A
/// sealed file never grows, so every answer is against its one count (once an unseal moved the list to its appendable
/// file, a batch's answers stay within the count the batch began with).
/// </summary>
/// <typeparam name="T">The item, which is its own key.</typeparam>
internal readonly struct SealedSortedKeys<T>(SealedListMmf<T> list) : ISortedKeys<T>
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    /// <inheritdoc/>
    public long Count => list.Count;

    /// <inheritdoc/>
    public T KeyAt(long index) => list[index];

    /// <inheritdoc/>
    public long Bound(T value, SearchBound bound) => list.Bound(value, bound);

    /// <inheritdoc/>
    public long Bound(T value, long first, long last, SearchBound bound)
    {
        SortedSearch.CheckRange(first, last, list.Count);
        return Math.Clamp(list.Bound(value, bound), first, last);
    }

    /// <inheritdoc/>
    public long BoundNear(T value, long first, long last, SearchBound bound) => Bound(value, first, last, bound);

    /// <inheritdoc/>
    public void Bounds(ReadOnlySpan<T> values, Span<long> results, SearchBound bound, long countLimit)
    {
        ThrowHelper.CheckResults(results.Length, values.Length, "values");
        list.Bounds(values, results[..values.Length], bound, countLimit);
    }
}
