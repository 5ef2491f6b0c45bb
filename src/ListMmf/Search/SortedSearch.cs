using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>
/// The binary searches of a sorted sequence over <c>[first, last)</c>, as in C++'s <c>std::lower_bound</c> and
/// <c>std::upper_bound</c>: about log2(n) + 1 probes, no allocation. Callers check the bounds (<see cref="CheckRange"/>).
/// </summary>
internal static class SortedSearch
{
    /// <summary>Refuses a search range that is not <c>0 &lt;= first &lt;= last &lt;= count</c>: every sorted reader's one rule.</summary>
    /// <exception cref="System.ArgumentOutOfRangeException">It is not.</exception>
    public static void CheckRange(long first, long last, long count)
    {
        if (first < 0 || first > last || last > count)
        {
            ThrowHelper.InvalidSearchRange(first, last, count);
        }
    }

    /// <summary>The first index in <c>[first, last)</c> whose item is not less than <paramref name="value"/>, or <paramref name="last"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long LowerBound<T, TSource>(ref TSource source, T value, long first, long last)
        where T : IComparisonOperators<T, T, bool>
        where TSource : struct, IItemSource<T> =>
        Bound(ref source, value, first, last, SearchBound.Lower);

    /// <summary>The first index in <c>[first, last)</c> whose item is greater than <paramref name="value"/>, or <paramref name="last"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long UpperBound<T, TSource>(ref TSource source, T value, long first, long last)
        where T : IComparisonOperators<T, T, bool>
        where TSource : struct, IItemSource<T> =>
        Bound(ref source, value, first, last, SearchBound.Upper);

    /// <summary>
    /// The first index in <c>[first, last)</c> not before the <paramref name="bound"/> of <paramref name="value"/>,
    /// or <paramref name="last"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long Bound<T, TSource>(ref TSource source, T value, long first, long last, SearchBound bound)
        where T : IComparisonOperators<T, T, bool>
        where TSource : struct, IItemSource<T>
    {
        long count = last - first;
        while (count > 0)
        {
            long step = count >> 1;
            long middle = first + step;
            if (SearchBounds.Before(source[middle], value, bound))
            {
                first = middle + 1;
                count -= step + 1;
            }
            else
            {
                count = step;
            }
        }

        return first;
    }
}
