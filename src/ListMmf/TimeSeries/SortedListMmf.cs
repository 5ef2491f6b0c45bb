using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using ListMmf.Search;

namespace ListMmf;

/// <summary>
/// A <see cref="ListMmf{T}"/> kept in sorted order, with the binary searches of a sorted array over the mapping:
/// <see cref="LowerBound(T)"/>, <see cref="UpperBound(T)"/>, <see cref="EqualRange(T)"/>,
/// <see cref="BinarySearch(T)"/> and <see cref="FindRange"/>, each over the whole list or a <c>[first, last)</c>
/// range. Appends that would break the order are refused and write nothing.
/// </summary>
/// <remarks>
/// Each search reads the published count once and searches the items below it, so a reader searching while the
/// writer appends always searches a complete, sorted prefix. The searches trust the stored order;
/// <see cref="Verify()"/> checks it.
/// </remarks>
/// <typeparam name="T">The key: <see cref="int"/>, <see cref="uint"/>, <see cref="long"/>, <see cref="ulong"/>,
/// <see cref="double"/>, or any unmanaged type with comparison operators.</typeparam>
public sealed unsafe class SortedListMmf<T> : ListMmfView<T>, IEnumerable<T>
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    /// <summary>Below this many file pages (32 MiB) the plain binary search is faster: its probes stay in the CPU caches.</summary>
    internal const long DefaultIndexMinimumPages = 8_192;

    /// <summary>The index is extended once the items past it fill more than this many pages, or an eighth of it.</summary>
    private const long ExtensionSlackPages = 64;

    /// <summary>A ranged search uses the index (and clamps its answer) only over ranges of at least this many items.</summary>
    private const long IndexedRangeItems = 4096;

    private readonly bool _indexed;
    private readonly SortedOrder _order;
    private PageIndex<T>? _index;

    /// <summary>The list's <see cref="ListMmf{T}.Generation"/> when the index was built.</summary>
    private int _indexGeneration;

    /// <summary>
    /// Opens or creates the sorted list at <paramref name="path"/>; see
    /// <see cref="ListMmf{T}(string, FileAccess, ListMmfOptions?)"/>.
    /// </summary>
    public SortedListMmf(string path, TimeSeriesOrder order, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
        : this(SortedOrder.Open<T>(path, order, access, options, DataTypeInfo.Of<T>().DataType, requireDataType: false), order, options)
    {
    }

    /// <summary>
    /// Takes <paramref name="list"/> as a sorted list in <paramref name="order"/>. Where the file records an order of
    /// its own, appends keep the stricter of the two and <see cref="Verify()"/> checks the recorded one.
    /// </summary>
    internal SortedListMmf(ListMmf<T> list, TimeSeriesOrder order, ListMmfOptions? options)
        : base(list)
    {
        if (!Enum.IsDefined(order))
        {
            list.Dispose();
            throw new ArgumentOutOfRangeException(nameof(order), order, "Unknown order.");
        }

        Order = order;
        _order = SortedOrder.Of(list, order);
        _indexed = (options ?? ListMmfOptions.Default).SearchIndex;
    }

    /// <summary>The smallest list, in file pages, that gets a page index; tests lower it to reach the index with small lists.</summary>
    internal long IndexMinimumPages { get; set; } = DefaultIndexMinimumPages;

    /// <summary>How messages show a key; the time series show their keys as times.</summary>
    internal Func<T, string>? DescribeKey { get; set; }

    /// <summary>The page index, if one has been built (for tests and benchmarks).</summary>
    internal PageIndex<T>? Index => _index;

    /// <summary>The order the list keeps.</summary>
    public TimeSeriesOrder Order { get; }

    /// <summary>The order appends keep: the stricter of <see cref="Order"/> and the one the file records.</summary>
    private TimeSeriesOrder AppendOrder => _order.Append;

    /// <summary>The item at <paramref name="index"/>.</summary>
    public T this[long index] => List[index];

    /// <summary>Appends <paramref name="item"/> if it keeps the order.</summary>
    /// <exception cref="ListMmfOrderException">The item would break the order; nothing was written.</exception>
    public void Add(T item)
    {
        ListMmf<T> list = List;
        long count = list.CountAndLast(out T last);
        if (count > 0)
        {
            if (!Follows(last, item))
            {
                CheckFollows(last, item, count);
            }
        }
        else if (AppendOrder != TimeSeriesOrder.None && IsUnordered(item))
        {
            ThrowUnordered(item, count);
        }

        list.Add(item);
    }

    /// <summary>Appends all of <paramref name="items"/> if together they keep the order.</summary>
    /// <exception cref="ListMmfOrderException">An item would break the order; nothing was written.</exception>
    public void AddRange(ReadOnlySpan<T> items)
    {
        if (items.IsEmpty)
        {
            return;
        }

        CheckOrder(items, List.Count);
        List.AddRange(items);
    }

    /// <summary>
    /// Checks that <paramref name="items"/>, appended after the first <paramref name="count"/> items, keep the order;
    /// the item before them is <paramref name="previous"/> when given (an item staged past the count), else the
    /// list's item at <paramref name="count"/> - 1.
    /// </summary>
    /// <exception cref="ListMmfOrderException">The first item that would break it.</exception>
    internal void CheckOrder(ReadOnlySpan<T> items, long count, T? previous = null)
    {
        if (count > 0 && !items.IsEmpty)
        {
            CheckFollows(previous ?? List[count - 1], items[0], count);
        }
        else if (!items.IsEmpty && AppendOrder != TimeSeriesOrder.None && IsUnordered(items[0]))
        {
            ThrowUnordered(items[0], count);
        }

        for (int i = 1; i < items.Length; i++)
        {
            if (!Follows(items[i - 1], items[i]))
            {
                CheckFollows(items[i - 1], items[i], count + i);
            }
        }
    }

    /// <inheritdoc cref="ListMmf{T}.TrimExcess"/>
    public void TrimExcess() => List.TrimExcess();

    /// <inheritdoc cref="ListMmf{T}.Truncate"/>
    public void Truncate(long newCount)
    {
        List.Truncate(newCount);
        _index = null;
    }

    /// <inheritdoc cref="ListMmf{T}.TruncateBeginning"/>
    public void TruncateBeginning(long count)
    {
        List.TruncateBeginning(count);
        _index = null;
    }

    /// <inheritdoc cref="ListMmf{T}.AsSpan(long, int)"/>
    public ReadOnlySpan<T> AsSpan(long start, int length) => List.AsSpan(start, length);

    /// <summary>A span over the items of <paramref name="range"/>, e.g. the result of <see cref="FindRange"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the list, or holds more than
    /// <see cref="int.MaxValue"/> items.</exception>
    public ReadOnlySpan<T> AsSpan(IndexRange range) => List.AsSpan(range.Start, IntLength(range));

    /// <summary>The items of <paramref name="range"/> as memory over the mapping; see <see cref="ListMmf{T}.AsMemory(long, int)"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the list, or holds more than
    /// <see cref="int.MaxValue"/> items.</exception>
    public ReadOnlyMemory<T> AsMemory(IndexRange range) => List.AsMemory(range.Start, IntLength(range));

    /// <summary>The first index whose item is not less than <paramref name="value"/>, or the count if there is none.</summary>
    public long LowerBound(T value) => Bound(value, SearchBound.Lower);

    /// <summary>The first index in <c>[first, last)</c> whose item is not less than <paramref name="value"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long LowerBound(T value, long first, long last) => Bound(value, first, last, SearchBound.Lower);

    /// <summary>The first index whose item is greater than <paramref name="value"/>, or the count if there is none.</summary>
    public long UpperBound(T value) => Bound(value, SearchBound.Upper);

    /// <summary>The first index in <c>[first, last)</c> whose item is greater than <paramref name="value"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long UpperBound(T value, long first, long last) => Bound(value, first, last, SearchBound.Upper);

    /// <summary>
    /// The <see cref="LowerBound(T)"/> of every value in <paramref name="values"/>, into <paramref name="results"/>:
    /// the same answers as one search at a time, but the searches of a batch overlap their memory misses, which makes
    /// each of them several times cheaper on a large list. All are answered against one count. No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public void LowerBound(ReadOnlySpan<T> values, Span<long> results) => Bounds(values, results, SearchBound.Lower);

    /// <summary>
    /// The <see cref="UpperBound(T)"/> of every value in <paramref name="values"/>; see
    /// <see cref="LowerBound(ReadOnlySpan{T}, Span{long})"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public void UpperBound(ReadOnlySpan<T> values, Span<long> results) => Bounds(values, results, SearchBound.Upper);

    /// <summary>
    /// The indices of the items equal to <paramref name="value"/>: <c>[LowerBound, UpperBound)</c>, empty where it
    /// would be inserted.
    /// </summary>
    public IndexRange EqualRange(T value) => EqualRange(value, 0, Count);

    /// <summary>The indices in <c>[first, last)</c> of the items equal to <paramref name="value"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public IndexRange EqualRange(T value, long first, long last)
    {
        long start = LowerBound(value, first, last);
        return new IndexRange(start, Math.Max(start, UpperBound(value, first, last)));
    }

    /// <summary>
    /// The index of an item equal to <paramref name="value"/> (the first, if there are several), or the bitwise
    /// complement of the index where it would be inserted, as <see cref="Array.BinarySearch(Array, object)"/> does.
    /// </summary>
    public long BinarySearch(T value) => BinarySearch(value, 0, Count);

    /// <summary>As <see cref="BinarySearch(T)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long BinarySearch(T value, long first, long last)
    {
        long index = LowerBound(value, first, last);
        return index < last && List[index] == value ? index : ~index;
    }

    /// <summary>
    /// The indices of the items in <c>[from, to)</c>: from the first not less than <paramref name="from"/> to the
    /// first not less than <paramref name="to"/>.
    /// </summary>
    public IndexRange FindRange(T from, T to)
    {
        long start = LowerBound(from);
        return new IndexRange(start, to > from ? Math.Max(start, LowerBound(to)) : start);
    }

    /// <summary>
    /// Checks the file as <see cref="ListMmf{T}.Verify()"/> does (header and readable items, e.g. after a crash),
    /// then that every stored item keeps the order the file's description records, or where it records none,
    /// <see cref="Order"/>.
    /// </summary>
    /// <exception cref="ListMmfFormatException">The header is no longer valid.</exception>
    /// <exception cref="ListMmfException">Part of the items could not be read.</exception>
    /// <exception cref="ListMmfOrderException">The first item that breaks the order; the file is corrupt.</exception>
    public void Verify() => Verify(null);

    /// <inheritdoc cref="Verify()"/>
    /// <param name="progress">Told the fraction done, from 0 to 1, as the check goes (on this thread): the first
    /// half reads the file, the second checks the order.</param>
    public void Verify(IProgress<double>? progress)
    {
        List.Verify(progress is null ? null : new ScaledProgress(progress, 0, 0.5));
        var items = new PointerSource<T>(List.Snapshot(out long count));
        for (long i = 1; i < count; i++)
        {
            if (progress is not null && (i & ((1 << 22) - 1)) == 0)
            {
                progress.Report(0.5 + (0.5 * i / count));
            }

            if (!_order.Verified.Allows(items[i - 1], items[i]))
            {
                throw _order.Corrupt(Path, "item", i, Describe(items[i]), Describe(items[i - 1]));
            }
        }

        GC.KeepAlive(List);
        progress?.Report(1);
    }

    /// <inheritdoc cref="ListMmf{T}.GetEnumerator"/>
    public ListMmf<T>.Enumerator GetEnumerator() => List.GetEnumerator();

    IEnumerator<T> IEnumerable<T>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <inheritdoc/>
    public override string ToString() => $"SortedListMmf<{typeof(T).Name}>('{Path}', {Order}, Count = {Count:N0})";

    /// <summary>The bound among every item published, against one count.</summary>
    private long Bound(T value, SearchBound bound)
    {
        var items = new PointerSource<T>(List.Snapshot(out long count));
        PageIndex<T>? index = IndexFor(items.Pointer, count);
        long result = index is not null
            ? IndexedSearch.Bound(index, items.Pointer, count, value, bound)
            : SortedSearch.Bound(ref items, value, 0, count, bound);
        GC.KeepAlive(List);
        return result;
    }

    /// <summary>
    /// The bound within <c>[first, last)</c>. Over a wide range, the bound over the whole list clamped to the range
    /// (the list is sorted, so that is the same answer), which the index makes fast.
    /// </summary>
    private long Bound(T value, long first, long last, SearchBound bound)
    {
        var items = new PointerSource<T>(List.Snapshot(out long count));
        CheckRange(first, last, count);
        PageIndex<T>? index = last - first >= IndexedRangeItems ? IndexFor(items.Pointer, count) : null;
        long result = index is not null
            ? Math.Clamp(IndexedSearch.Bound(index, items.Pointer, count, value, bound), first, last)
            : SortedSearch.Bound(ref items, value, first, last, bound);
        GC.KeepAlive(List);
        return result;
    }

    /// <summary>
    /// The LowerBound of each value among the first <paramref name="count"/> items at most (for the DateTime
    /// batches, which answer all their chunks against one count).
    /// </summary>
    internal void LowerBoundOfEach(ReadOnlySpan<T> values, Span<long> results, long count) => Bounds(values, results, SearchBound.Lower, count);

    private void Bounds(ReadOnlySpan<T> values, Span<long> results, SearchBound bound, long countLimit = long.MaxValue)
    {
        if (results.Length < values.Length)
        {
            throw new ArgumentException($"The results span holds {results.Length:N0} items, fewer than the " +
                $"{values.Length:N0} values.", nameof(results));
        }

        var items = new PointerSource<T>(List.Snapshot(out long count));
        count = Math.Min(count, countLimit);
        PageIndex<T>? index = IndexFor(items.Pointer, count);
        if (index is not null)
        {
            IndexedSearch.Bounds(index, items.Pointer, count, values, results, bound);
        }
        else
        {
            for (int i = 0; i < values.Length; i++)
            {
                results[i] = SortedSearch.Bound(ref items, values[i], 0, count, bound);
            }
        }

        GC.KeepAlive(List);
    }

    /// <summary>
    /// The page index for a search of the first <paramref name="count"/> items: built on the first search of a
    /// large enough list, extended when the list has grown by more than an eighth (the items past the index are
    /// searched as part of its last block until then), dropped when the count went down (a truncation).
    /// </summary>
    private PageIndex<T>? IndexFor(T* items, long count)
    {
        PageIndex<T>? index = _index;
        if (index is not null && _indexGeneration != List.Generation)
        {
            // The list moved to a new file (a TruncateBeginning): the index describes the old items.
            index = _index = null;
        }

        if (index is not null)
        {
            if (count < index.IndexedCount)
            {
                index = _index = null;
            }
            else
            {
                long slackBytes = Math.Max(index.FenceCount / 8 * PageIndex<T>.BlockBytes, ExtensionSlackPages * PageIndex<T>.PageBytes);
                if ((count - index.IndexedCount) * sizeof(T) > slackBytes)
                {
                    index = _index = index.Extend(items, count);
                }

                return index;
            }
        }

        if (!_indexed || !PageIndex<T>.IsWorthwhile(count, IndexMinimumPages))
        {
            return null;
        }

        _indexGeneration = List.Generation;
        return _index = PageIndex<T>.Build(items, count, List.Storage.ItemsOffset);
    }

    internal static void CheckRange(long first, long last, long count)
    {
        if (first < 0 || first > last || last > count)
        {
            ThrowHelper.InvalidSearchRange(first, last, count);
        }
    }

    private bool Follows(T previous, T next) => AppendOrder.Allows(previous, next);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void CheckFollows(T previous, T next, long index)
    {
        if (!Follows(previous, next))
        {
            throw new ListMmfOrderException(
                Path,
                $"{Describe(next)} cannot be appended at index {index:N0} after {Describe(previous)}: the list is " +
                    $"{AppendOrder}. Nothing was written.",
                index);
        }
    }

    /// <summary>Whether <paramref name="item"/> is not even equal to itself, as NaN.</summary>
    private static bool IsUnordered(T item)
    {
        T same = item;
        return !(item <= same);
    }

    /// <summary>A value such as NaN, which no order can place, even as the first item.</summary>
    private void ThrowUnordered(T item, long index) =>
        throw new ListMmfOrderException(Path, $"{Describe(item)} cannot be appended at index {index:N0}: it is " +
            $"unordered (not even equal to itself), and the list is {AppendOrder}. Nothing was written.", index);

    private string Describe(T key) => DescribeKey is { } describe ? describe(key) : key.ToString()!;

    private int IntLength(IndexRange range) => ThrowHelper.SpanLength(range.Start, range.Length, Count);
}
