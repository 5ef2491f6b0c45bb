using System;
using System.Numerics;

namespace ListMmf.Search;

/// <summary>
/// An appendable sorted list's core as the keys contract, in a struct, so that the queries written over the contract
/// (<see cref="TimeQueries{TKey, TTimeKey, TKeys}"/>) are compiled for it rather than shared across reference types.
/// </summary>
internal readonly struct CoreKeys<T, TItem, TKeyOf>(SortedCore<T, TItem, TKeyOf> core) : ISortedKeys<T>
    where T : unmanaged, IComparisonOperators<T, T, bool>
    where TItem : unmanaged
    where TKeyOf : struct, IKeyOf<TItem, T>
{
    /// <inheritdoc/>
    public long Count => core.Count;

    /// <inheritdoc/>
    public T KeyAt(long index) => core.KeyAt(index);

    /// <inheritdoc/>
    public long Bound(T value, SearchBound bound) => core.Bound(value, bound);

    /// <inheritdoc/>
    public long Bound(T value, long first, long last, SearchBound bound) => core.Bound(value, first, last, bound);

    /// <inheritdoc/>
    public long BoundNear(T value, long first, long last, SearchBound bound) => core.BoundNear(value, first, last, bound);

    /// <inheritdoc/>
    public void Bounds(ReadOnlySpan<T> values, Span<long> results, SearchBound bound, long countLimit) =>
        core.Bounds(values, results, bound, countLimit);
}
