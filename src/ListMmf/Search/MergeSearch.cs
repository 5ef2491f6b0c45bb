using System;
using System.Numerics;

namespace ListMmf.Search;

/// <summary>
/// The bounds of many ascending values walked as a merge: each search gallops from the answer before it (1, 2, 4, ...
/// items ahead) and then binary searches the last step, so that values as dense as the items (an ASOF join of trades
/// to quotes) cost a few reads of items next to each other instead of a search of the whole list each.
/// </summary>
internal static class MergeSearch
{
    /// <summary>The values are dense enough for a merge where there is at least one per this many items.</summary>
    public const long ItemsPerValue = 64;

    /// <summary>Whether <paramref name="values"/> ascend (equal neighbours allowed) and every one is ordered (no NaN).</summary>
    public static bool IsAscending<T>(ReadOnlySpan<T> values)
        where T : IComparisonOperators<T, T, bool>
    {
        for (int i = 0; i < values.Length; i++)
        {
            if (!(values[i > 0 ? i - 1 : 0] <= values[i]))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Whether a batch of <paramref name="values"/> over <paramref name="count"/> items is walked as a merge.</summary>
    public static bool Suits<T>(ReadOnlySpan<T> values, long count)
        where T : IComparisonOperators<T, T, bool> =>
        values.Length > 1 && values.Length * ItemsPerValue >= count && IsAscending(values);

    /// <summary>
    /// The <paramref name="bound"/> of each of the ascending <paramref name="values"/> among the first
    /// <paramref name="count"/> items.
    /// </summary>
    public static void Bounds<T, TSource>(ref TSource keys, ReadOnlySpan<T> values, Span<long> results, long count, SearchBound bound)
        where T : IComparisonOperators<T, T, bool>
        where TSource : struct, IItemSource<T>
    {
        long first = 0;
        for (int i = 0; i < values.Length; i++)
        {
            first = Gallop(ref keys, values[i], first, count, bound);
            results[i] = first;
        }
    }

    /// <summary>
    /// The first index in <c>[from, count)</c> not before the <paramref name="bound"/> of <paramref name="value"/>, or
    /// <paramref name="count"/>, knowing that the items before <paramref name="from"/> are: probes 1, 2, 4, ... items
    /// ahead, then a binary search of the last step.
    /// </summary>
    public static long Gallop<T, TSource>(ref TSource keys, T value, long from, long count, SearchBound bound)
        where T : IComparisonOperators<T, T, bool>
        where TSource : struct, IItemSource<T>
    {
        long first = from;
        long last = count;
        for (long step = 1; first < count; step <<= 1)
        {
            long probe = first + step - 1;
            if (probe >= count)
            {
                break;
            }

            if (!SearchBounds.Before(keys[probe], value, bound))
            {
                last = probe;
                break;
            }

            first = probe + 1;
        }

        return SortedSearch.Bound(ref keys, value, first, last, bound);
    }
}
