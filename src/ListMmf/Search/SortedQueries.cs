using System;
using System.Numerics;

namespace ListMmf.Search;

/// <summary>
/// The sorted queries that follow from the bounds, written once for every sorted form (<see cref="ISortedKeys{T}"/>):
/// the appendable lists' core and the sealed lists answer them alike.
/// </summary>
internal static class SortedQueries
{
    /// <summary>The indices in <c>[first, last)</c> of the items whose key equals <paramref name="value"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public static IndexRange EqualRange<TKeys, T>(TKeys keys, T value, long first, long last)
        where TKeys : ISortedKeys<T>
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        long start = keys.Bound(value, first, last, SearchBound.Lower);
        return new IndexRange(start, Math.Max(start, keys.Bound(value, first, last, SearchBound.Upper)));
    }

    /// <summary>
    /// The index in <c>[first, last)</c> of the first item whose key equals <paramref name="value"/>, or the bitwise
    /// complement of the index where it would be inserted.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public static long BinarySearch<TKeys, T>(TKeys keys, T value, long first, long last)
        where TKeys : ISortedKeys<T>
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        long index = keys.Bound(value, first, last, SearchBound.Lower);
        return index < last && keys.KeyAt(index) == value ? index : ~index;
    }

    /// <summary>
    /// The indices of the items with keys in <c>[from, to)</c>; empty unless <paramref name="to"/> is after
    /// <paramref name="from"/>.
    /// </summary>
    public static IndexRange FindRange<TKeys, T>(TKeys keys, T from, T to)
        where TKeys : ISortedKeys<T>
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        long start = keys.Bound(from, SearchBound.Lower);
        return new IndexRange(start, to > from ? Math.Max(start, keys.Bound(to, SearchBound.Lower)) : start);
    }

    /// <summary>
    /// The ASOF join of <paramref name="values"/>: for each, the index of the last item at or before it, or -1, into
    /// <paramref name="results"/>, against one count.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public static void LastAtOrBefore<TKeys, T>(TKeys keys, ReadOnlySpan<T> values, Span<long> results)
        where TKeys : ISortedKeys<T>
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        keys.Bounds(values, results, SearchBound.Upper, long.MaxValue);
        foreach (ref long result in results[..values.Length])
        {
            result--;
        }
    }
}
