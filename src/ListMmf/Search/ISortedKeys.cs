using System;
using System.Numerics;

namespace ListMmf.Search;

/// <summary>
/// What every sorted form answers for itself, appendable or sealed: its bounds, which each finds its own way (the page
/// index, the fences of a cold file, a sealed file's directory and one block), and the key at an index. Every other
/// sorted query is written once over it, in <see cref="SortedQueries"/>, and the DateTime layer above it in
/// <see cref="TimeQueries{TKey, TTimeKey, TKeys}"/>.
/// </summary>
/// <typeparam name="T">The key.</typeparam>
internal interface ISortedKeys<T>
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    /// <summary>The items published.</summary>
    long Count { get; }

    /// <summary>The key of the item at <paramref name="index"/>.</summary>
    T KeyAt(long index);

    /// <summary>The bound of <paramref name="value"/> among every item.</summary>
    long Bound(T value, SearchBound bound);

    /// <summary>The bound of <paramref name="value"/> within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    long Bound(T value, long first, long last, SearchBound bound);

    /// <summary>
    /// The bound of <paramref name="value"/> within <c>[first, last)</c>, for a value expected a few items after
    /// <paramref name="first"/> (the end of a bar): the form may gallop from there instead of searching the range.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    long BoundNear(T value, long first, long last, SearchBound bound);

    /// <summary>
    /// The bound of each of <paramref name="values"/>, into <paramref name="results"/>, against one count of at most
    /// <paramref name="countLimit"/> items, so that a writer appending meanwhile cannot make them disagree.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    void Bounds(ReadOnlySpan<T> values, Span<long> results, SearchBound bound, long countLimit);
}
