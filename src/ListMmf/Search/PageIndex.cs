using System;
using System.Collections.Generic;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>
/// An in-RAM index of a sorted ListMmf file that is never written to the file: the fence (the key of the first item
/// that starts in each block of <see cref="BlockBytes"/> of the file, counted from the file's start, header included)
/// and, above it, a static B-tree of 64-byte nodes (each level holds the last key of every node of the level below).
/// A search (<see cref="IndexedSearch"/>) descends one node per level, then searches one block of the file.
/// </summary>
/// <typeparam name="T">The key.</typeparam>
/// <typeparam name="TItem">The item stored in the file: the key itself in a sorted list, a row in a keyed one.</typeparam>
/// <remarks>
/// <para>For Int32 keys, the fence keys take 0.4% of the file and the keys above them a fifteenth of that.</para>
/// <para>Append-only. It covers the items below <see cref="IndexedCount"/>, which a writer published and never
/// changes (Truncate aside: a writer's Truncate drops its index, and a reader that sees the count go down rebuilds);
/// a search with a larger count snapshot searches the items past the
/// last fence as part of the last block. <see cref="Extend"/> makes a new index with the new blocks' fences; an
/// index never changes once built, so a search that holds one is never disturbed by a newer one.</para>
/// </remarks>
internal sealed unsafe class PageIndex<T, TItem>
    where T : unmanaged, IComparisonOperators<T, T, bool>
    where TItem : unmanaged
{
    /// <summary>
    /// The unit of <see cref="IsWorthwhile"/>'s minimum, and the span a vector read of the file stays in
    /// (<see cref="NodeSearch.CountBelowInPage"/>): 4 KiB, the smallest page of any system the library runs on.
    /// </summary>
    public const int PageBytes = 4096;

    private static readonly int NodeKeys = NodeSearch.KeysPerNode<T>();

    /// <summary>See <see cref="BlockBytes"/>; a static readonly, which the JIT reads as a constant once the class is initialised.</summary>
    private static readonly int BlockSize = (int)BitOperations.RoundUpToPowerOf2((uint)Math.Max(1024, Math.Max(sizeof(TItem), 64 * sizeof(T))));

    private readonly AlignedBuffer<T> _fences;

    /// <summary>Level 0 is the fence, then the levels above it; each padded to whole nodes.</summary>
    private readonly AlignedBuffer<T>[] _levels;

    /// <summary>The keys of each level (the buffers' pointers, read without touching the buffers on the hot path).</summary>
    private readonly nint[] _levelKeys;

    private readonly long[] _levelLengths;

    /// <summary>Where the items start in the file (16 in version 1, a multiple of 4 KiB in version 2): blocks follow the file's pages.</summary>
    private readonly int _itemsOffset;

    /// <summary>
    /// An index over <paramref name="fences"/>, whose first <paramref name="fenceCount"/> keys are written. Never
    /// changed afterwards: a search that holds it may run while a newer index is built beside it.
    /// </summary>
    private PageIndex(AlignedBuffer<T> fences, long fenceCount, long indexedCount, int itemsOffset)
    {
        _fences = fences;
        _itemsOffset = itemsOffset;
        FenceCount = fenceCount;
        IndexedCount = indexedCount;
        (_levels, _levelLengths) = BuildLevels(fences, fenceCount);
        _levelKeys = new nint[_levels.Length];
        for (int level = 0; level < _levelKeys.Length; level++)
        {
            _levelKeys[level] = (nint)_levels[level].Pointer;
        }
    }

    /// <summary>
    /// The bytes of file between fences: 1 KiB (16 cache lines), so that the search after the index reads one line of a
    /// block when the keys are spread evenly (or four, by halves, when not), at 0.4% of an Int32 file in RAM; more for
    /// wide keys, so that the index stays at most 1/64 of the file (2 KiB for 32-byte keys, 4 KiB for 64-byte ones);
    /// and at least one item. Rows with a narrow key (a 192-byte quote by its 8-byte time) keep 1 KiB blocks: a page
    /// per fence leaves five dependent misses in the page (KeyedLookupBenchmarks; benchmarks/README.md, "Figures
    /// behind the code"). Blocks divide pages: a block never
    /// spans two.
    /// </summary>
    public static int BlockBytes
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => BlockSize;
    }

    /// <summary>The number of fence keys: blocks whose first item is below <see cref="IndexedCount"/>.</summary>
    public long FenceCount { get; }

    /// <summary>The item count the index was built for.</summary>
    public long IndexedCount { get; }

    /// <summary>The bytes the index holds in RAM.</summary>
    public long Bytes
    {
        get
        {
            long bytes = _fences.Bytes;
            for (int level = 1; level < _levels.Length; level++)
            {
                bytes += _levels[level].Bytes;
            }

            return bytes;
        }
    }

    /// <summary>
    /// Whether an index pays for itself: at least this many pages, and keys of at most 64 bytes (a node holds four
    /// at least, so wider keys would make each node read several lines).
    /// </summary>
    public static bool IsWorthwhile(long count, long minimumPages) =>
        sizeof(T) <= 64 && sizeof(TItem) <= PageBytes && count > 0 && (((count - 1) * sizeof(TItem)) / PageBytes) + 1 >= minimumPages;

    /// <summary>
    /// Builds the index of the first <paramref name="count"/> items, whose keys <paramref name="keys"/> gives and
    /// which start at byte <paramref name="itemsOffset"/> of their file.
    /// </summary>
    public static PageIndex<T, TItem> Build<TSource>(ref TSource keys, long count, int itemsOffset)
        where TSource : struct, IItemSource<T>
    {
        int offset = itemsOffset % BlockBytes;
        long fences = FencesFor(count, offset);
        var buffer = new AlignedBuffer<T>(RoundUpToNode(Math.Max(fences, NodeKeys)));
        ReadFences(buffer, ref keys, 0, fences, offset);
        return new PageIndex<T, TItem>(buffer, fences, count, offset);
    }

    /// <summary>The index of the first item that starts in block <paramref name="block"/> of the file.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long FirstItemOf(long block) => FirstItemOf(block, _itemsOffset);

    private static long FirstItemOf(long block, int itemsOffset) => FileBlocks.FirstItemOf(block, BlockBytes, itemsOffset, sizeof(TItem));

    /// <summary>
    /// The index of the items up to <paramref name="count"/>: this one's fences plus those of the blocks added since,
    /// and new levels above them. This index stays as it was (its fence buffer is shared, and only written past its
    /// own fences), so a search still holding it stays right.
    /// </summary>
    public PageIndex<T, TItem> Extend<TSource>(ref TSource keys, long count)
        where TSource : struct, IItemSource<T>
    {
        long fences = FencesFor(count, _itemsOffset);
        AlignedBuffer<T> buffer = _fences;
        if (fences > buffer.Length)
        {
            buffer = new AlignedBuffer<T>(RoundUpToNode(Math.Max(fences, _fences.Length * 2)));
            Buffer.MemoryCopy(_fences.Pointer, buffer.Pointer, buffer.Length * sizeof(T), FenceCount * sizeof(T));
        }

        ReadFences(buffer, ref keys, FenceCount, fences, _itemsOffset);
        return new PageIndex<T, TItem>(buffer, fences, count, _itemsOffset);
    }

    /// <summary>
    /// The items a bound with fence rank <paramref name="rank"/> lies among, within the first <paramref name="count"/>
    /// items: the block after the last fence key before the value, up to the next fence (or the end, past the last
    /// one). Rank 0 (no fence key before the value): the empty range at 0.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public (long First, long Length) ItemsOfRank(long rank, long count)
    {
        if (rank == 0)
        {
            return (0, 0);
        }

        long first = FirstItemOf(rank - 1);
        long end = rank < FenceCount ? FirstItemOf(rank) : count;
        return (first, end - first);
    }

    /// <summary>The fence key of block <paramref name="block"/>: the first item that starts in it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T FenceAt(long block) => ((T*)_levelKeys[0])[block];

    /// <summary>The number of levels, the fence (level 0) included.</summary>
    internal int Levels => _levelKeys.Length;

    /// <summary>The keys of a level: 0 is the fence, 1 the first level above it.</summary>
    internal T* KeysOf(int level) => (T*)_levelKeys[level];

    /// <summary>The number of keys in a level.</summary>
    internal long LengthOf(int level) => _levelLengths[level];

    internal static int KeysPerNode => NodeKeys;

    private static long FencesFor(long count, int itemsOffset) => FileBlocks.BlocksFor(count, BlockBytes, itemsOffset, sizeof(TItem));

    private static long RoundUpToNode(long length) => (length + NodeKeys - 1) / NodeKeys * NodeKeys;

    private static void ReadFences<TSource>(AlignedBuffer<T> buffer, ref TSource keys, long fromBlock, long toBlock, int itemsOffset)
        where TSource : struct, IItemSource<T>
    {
        for (long block = fromBlock; block < toBlock; block++)
        {
            buffer.Pointer[block] = keys[FirstItemOf(block, itemsOffset)];
        }
    }

    private static (AlignedBuffer<T>[] Levels, long[] Lengths) BuildLevels(AlignedBuffer<T> fences, long fenceCount)
    {
        var levels = new List<AlignedBuffer<T>> { fences };
        var lengths = new List<long> { fenceCount };
        while (lengths[^1] > NodeKeys)
        {
            T* below = levels[^1].Pointer;
            long belowLength = lengths[^1];
            long length = (belowLength + NodeKeys - 1) / NodeKeys;
            var keys = new AlignedBuffer<T>(RoundUpToNode(length));
            for (long node = 0; node < length; node++)
            {
                keys.Pointer[node] = below[Math.Min((node * NodeKeys) + NodeKeys, belowLength) - 1];
            }

            levels.Add(keys);
            lengths.Add(length);
        }

        return ([.. levels], [.. lengths]);
    }
}
