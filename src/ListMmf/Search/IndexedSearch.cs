using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;

namespace ListMmf.Search;

/// <summary>
/// LowerBound and UpperBound over a sorted list through its <see cref="PageIndex{T}"/>: the index finds the page,
/// then a search inside the page finds the item. One query at a time, or many interleaved so that their memory
/// misses overlap. Results are exactly those of <see cref="SortedSearch"/> over <c>[0, count)</c>.
/// </summary>
internal static unsafe class IndexedSearch
{
    /// <summary>Queries searched together; their state lives on the stack.</summary>
    public const int Group = 32;

    /// <summary>The bound of <paramref name="value"/> among the first <paramref name="count"/> items, at least the index's count.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long Bound<T>(PageIndex<T> index, T* items, long count, T value, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        (long first, long length) = index.ItemsOfRank(index.Rank(value, bound), count);
        return Within(items, first, length, value, bound);
    }

    /// <summary>
    /// The bounds of every value in <paramref name="values"/>, in groups of <see cref="Group"/> whose index descents
    /// and page searches advance in lock step, each step prefetching what the next one reads.
    /// </summary>
    public static void Bounds<T>(PageIndex<T> index, T* items, long count, ReadOnlySpan<T> values, Span<long> results, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        Span<long> first = stackalloc long[Group];
        Span<long> length = stackalloc long[Group];
        Span<long> ranks = stackalloc long[Group];
        int nodeKeys = PageIndex<T>.KeysPerNode;
        for (int start = 0; start < values.Length; start += Group)
        {
            int size = Math.Min(Group, values.Length - start);
            ReadOnlySpan<T> group = values.Slice(start, size);
            Span<long> rank = ranks[..size];
            rank.Clear();

            for (int level = index.Levels - 1; level >= 0; level--)
            {
                T* keys = index.KeysOf(level);
                long levelLength = index.LengthOf(level);
                T* below = level > 0 ? index.KeysOf(level - 1) : null;
                for (int q = 0; q < size; q++)
                {
                    long nodeStart = rank[q] * nodeKeys;
                    if (rank[q] < 0 || nodeStart >= levelLength)
                    {
                        // Every node below ends before the value: so does every fence (marked -1).
                        rank[q] = -1;
                        continue;
                    }

                    rank[q] = nodeStart + NodeSearch.CountBelow(keys + nodeStart, (int)Math.Min(nodeKeys, levelLength - nodeStart), group[q], bound);
                    if (below != null)
                    {
                        Prefetch(below + (rank[q] * nodeKeys));
                    }
                }
            }

            for (int q = 0; q < size; q++)
            {
                (first[q], length[q]) = index.ItemsOfRank(rank[q] < 0 ? index.FenceCount : rank[q], count);
                Prefetch(items + first[q] + (length[q] >> 1));
            }

            // The binary searches of the group, one probe each per round (the probes of a round are independent),
            // down to a cache line's worth of items each; then one compare per query.
            int lineItems = nodeKeys;
            for (bool active = true; active;)
            {
                active = false;
                for (int q = 0; q < size; q++)
                {
                    long n = length[q];
                    if (n <= lineItems)
                    {
                        continue;
                    }

                    long step = n >> 1;
                    long middle = first[q] + step;
                    if (SearchBounds.Before(items[middle], group[q], bound))
                    {
                        first[q] = middle + 1;
                        n -= step + 1;
                    }
                    else
                    {
                        n = step;
                    }

                    length[q] = n;
                    if (n > lineItems)
                    {
                        Prefetch(items + first[q] + (n >> 1));
                        active = true;
                    }
                    else
                    {
                        // The compare below reads the items from first on: one line, or two.
                        Prefetch(items + first[q]);
                        Prefetch(items + first[q] + n - 1);
                    }
                }
            }

            for (int q = 0; q < size; q++)
            {
                results[start + q] = first[q] + NodeSearch.CountBelowInPage(items + first[q], (int)length[q], group[q], bound);
            }
        }
    }

    /// <summary>
    /// The bound within <c>[first, first + length)</c> (or <c>first + length</c>): a binary search that, at each
    /// step, prefetches both items the next step may probe, so that the next miss is already under way whichever
    /// way the comparison goes (the branch predictor's guess covers one of them; the prefetch the other).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long Within<T>(T* items, long first, long length, T value, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        int lineItems = PageIndex<T>.KeysPerNode;
        while (length > lineItems)
        {
            long step = length >> 1;
            long middle = first + step;
            Prefetch(items + first + (step >> 1));
            Prefetch(items + middle + 1 + ((length - step - 1) >> 1));
            if (SearchBounds.Before(items[middle], value, bound))
            {
                first = middle + 1;
                length -= step + 1;
            }
            else
            {
                length = step;
            }
        }

        // The last steps would stay in one or two cache lines, each an unpredictable branch: one compare instead.
        return first + NodeSearch.CountBelowInPage(items + first, (int)length, value, bound);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Prefetch(void* address)
    {
        if (Sse.IsSupported)
        {
            Sse.Prefetch0(address);
        }
    }
}
