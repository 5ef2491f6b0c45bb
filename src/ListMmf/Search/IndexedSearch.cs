using System;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>
/// LowerBound and UpperBound over a sorted list through its <see cref="PageIndex{T, TItem}"/>: the index finds the
/// block, then a search inside the block finds the item. One query at a time (for integer keys stored as items,
/// starting at the cache line that <see cref="Interpolation"/> guesses; for rows, a binary search of the block's
/// rows), or many interleaved so that their memory misses overlap. Results are exactly those of
/// <see cref="SortedSearch"/> over <c>[0, count)</c>.
/// </summary>
internal static unsafe class IndexedSearch
{
    /// <summary>Queries searched together; their state lives on the stack.</summary>
    public const int Group = 32;

    /// <summary>
    /// The bound of <paramref name="value"/> among the first <paramref name="count"/> items, at least the index's
    /// count: the index's nodes top down, then the block the fences name. Where the items are the keys, the block
    /// is searched a cache line at a time (from the line <see cref="Interpolation"/> guesses, for integer keys, a
    /// first guess at that line starting its read while the fence node is read); where they are rows, through
    /// <paramref name="keys"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long Bound<T, TItem, TSource>(PageIndex<T, TItem> index, TItem* items, ref TSource keys, long count, T value, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
        where TItem : unmanaged
        where TSource : struct, IItemSource<T>
    {
        long rank = RankOf(index, items, value, bound);
        (long blockFirst, long blockLength) = index.ItemsOfRank(rank, count);
        if (typeof(T) != typeof(TItem))
        {
            return SortedSearch.Bound(ref keys, value, blockFirst, blockFirst + blockLength, bound);
        }

        if (Interpolation.Supports<T>() && rank < index.FenceCount && blockLength > PageIndex<T, TItem>.KeysPerNode)
        {
            // A block with a fence after it: its bound lies at or before that fence's item.
            return FromGuess((T*)items, blockFirst, blockLength, index.FenceAt(rank - 1), index.FenceAt(rank), value, bound);
        }

        return Within((T*)items, blockFirst, blockLength, value, bound);
    }

    /// <summary>
    /// The fence rank of <paramref name="value"/>: how many fences come before its bound, found by descending the
    /// index's nodes. For integer keys stored as items, the level above the fences also prefetches the cache line
    /// <see cref="Interpolation"/> guesses from the two keys around the value there.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long RankOf<T, TItem>(PageIndex<T, TItem> index, TItem* items, T value, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
        where TItem : unmanaged
    {
        int nodeKeys = PageIndex<T, TItem>.KeysPerNode;
        long rank = 0;
        for (int level = index.Levels - 1; level >= 0; level--)
        {
            long start = rank * nodeKeys;
            long length = index.LengthOf(level);
            if (start >= length)
            {
                // Every node of the level below ends before the value: so does every fence.
                return index.FenceCount;
            }

            T* node = index.KeysOf(level) + start;
            int valid = (int)Math.Min(nodeKeys, length - start);
            int below = NodeSearch.CountBelow(node, valid, value, bound);
            rank = start + below;
            if (typeof(T) == typeof(TItem) && level == 1 && Interpolation.Supports<T>() && below > 0 && below < valid)
            {
                // Fence node `rank` holds the fences of blocks rank * nodeKeys on; the key before it in this node is
                // the fence of the block before them, and its own key the fence of its last block. Only prefetched,
                // not read: on bursty ticks the guess over 16 blocks misses often, and a read would wait for it.
                long firstFence = rank * nodeKeys;
                long first = index.FirstItemOf(firstFence - 1);
                long end = index.FirstItemOf(Math.Min(firstFence + nodeKeys - 1, index.FenceCount - 1));
                CacheLine.Prefetch((T*)items + first + Interpolation.Offset(node[below - 1], node[below], value, end - first));
            }
        }

        return rank;
    }

    /// <summary>
    /// The bounds of every value in <paramref name="values"/>, in groups of <see cref="Group"/> whose index descents
    /// and page searches advance in lock step, each step prefetching what the next one reads. Rows are searched one
    /// value at a time.
    /// </summary>
    public static void Bounds<T, TItem, TSource>(
        PageIndex<T, TItem> index, TItem* items, ref TSource keys, long count, ReadOnlySpan<T> values, Span<long> results, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
        where TItem : unmanaged
        where TSource : struct, IItemSource<T>
    {
        if (typeof(T) != typeof(TItem))
        {
            for (int i = 0; i < values.Length; i++)
            {
                results[i] = Bound(index, items, ref keys, count, values[i], bound);
            }

            return;
        }

        Interleaved(index, (T*)items, count, values, results, bound);
    }

    private static void Interleaved<T, TItem>(
        PageIndex<T, TItem> index, T* items, long count, ReadOnlySpan<T> values, Span<long> results, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
        where TItem : unmanaged
    {
        Span<long> first = stackalloc long[Group];
        Span<long> length = stackalloc long[Group];
        Span<long> ranks = stackalloc long[Group];
        int nodeKeys = PageIndex<T, TItem>.KeysPerNode;
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
                        CacheLine.Prefetch(below + (rank[q] * nodeKeys));
                    }
                }
            }

            for (int q = 0; q < size; q++)
            {
                (first[q], length[q]) = index.ItemsOfRank(rank[q] < 0 ? index.FenceCount : rank[q], count);
                CacheLine.Prefetch(items + first[q] + (length[q] >> 1));
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
                        CacheLine.Prefetch(items + first[q] + (n >> 1));
                        active = true;
                    }
                    else
                    {
                        // The compare below reads the items from first on: one line, or two.
                        CacheLine.Prefetch(items + first[q]);
                        CacheLine.Prefetch(items + first[q] + n - 1);
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
    /// The bound within <c>[first, first + length]</c>, whose items run from key <paramref name="low"/> to just
    /// before an item of key <paramref name="high"/> (not before the bound): the cache line
    /// <see cref="Interpolation"/> guesses answers with one compare when the bound is in it, and otherwise says which
    /// side of it to search.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long FromGuess<T>(T* items, long first, long length, T low, T high, T value, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        long end = first + length;
        long guess = first + Interpolation.Offset(low, high, value, length);
        long lineStart = guess - (long)((nuint)(items + guess) % 64 / (nuint)sizeof(T));
        long lineFirst = Math.Max(first, lineStart);
        long lineEnd = Math.Min(end, lineStart + PageIndex<T, T>.KeysPerNode);
        int lineLength = (int)(lineEnd - lineFirst);
        int before = NodeSearch.CountBelowInPage(items + lineFirst, lineLength, value, bound);
        if (before == lineLength)
        {
            return Within(items, lineEnd, end - lineEnd, value, bound);
        }

        return before > 0 || lineFirst == first ? lineFirst + before : Within(items, first, lineFirst - first, value, bound);
    }

    /// <summary>
    /// The bound within <c>[first, first + length)</c> (or <c>first + length</c>): a binary search that, at each
    /// step, prefetches both items the next step may probe, so that the next miss is already under way whichever
    /// way the comparison goes (the branch predictor's guess covers one of them; the prefetch the other).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static long Within<T>(T* items, long first, long length, T value, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        int lineItems = PageIndex<T, T>.KeysPerNode;
        while (length > lineItems)
        {
            long step = length >> 1;
            long middle = first + step;
            CacheLine.Prefetch(items + first + (step >> 1));
            CacheLine.Prefetch(items + middle + 1 + ((length - step - 1) >> 1));
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
}
