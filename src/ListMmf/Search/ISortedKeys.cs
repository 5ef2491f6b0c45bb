using System;
using System.Numerics;

namespace ListMmf.Search;

/// <summary>
/// What every sorted form answers for itself, appendable or sealed: its bounds, which each finds its own way (the page
/// index, the fences of a cold file, a sealed file's directory and one block), and the key at an index. Every other
/// sorted query is written once over it, in <see cref="SortedQueries"/>.
/// </summary>
/// <typeparam name="T">The key.</typeparam>
internal interface ISortedKeys<T>
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    /// <summary>The key of the item at <paramref name="index"/>.</summary>
    T KeyAt(long index);

    /// <summary>The bound of <paramref name="value"/> among every item.</summary>
    long Bound(T value, SearchBound bound);

    /// <summary>The bound of <paramref name="value"/> within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    long Bound(T value, long first, long last, SearchBound bound);

    /// <summary>The bound of each of <paramref name="values"/>, into <paramref name="results"/>, against one count.</summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    void Bounds(ReadOnlySpan<T> values, Span<long> results, SearchBound bound);
}
