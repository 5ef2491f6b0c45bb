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
    private readonly SortedCore<T, T, ItemKey<T>> _core;

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
        _core = new SortedCore<T, T, ItemKey<T>>(list, order, options, "item");
    }

    /// <summary>The smallest list, in file pages, that gets a page index; tests lower it to reach the index with small lists.</summary>
    internal long IndexMinimumPages
    {
        get => _core.IndexMinimumPages;
        set => _core.IndexMinimumPages = value;
    }

    /// <summary>How messages show a key; the time series show their keys as times.</summary>
    internal Func<T, string>? DescribeKey
    {
        get => _core.DescribeKey;
        set => _core.DescribeKey = value;
    }

    /// <summary>The page index, if one has been built (for tests and benchmarks).</summary>
    internal PageIndex<T, T>? Index => _core.Index;

    /// <summary>Tests set it: searches start cold, as they do where the page cache holds little of the file.</summary>
    internal bool AssumeCold
    {
        get => _core.AssumeCold;
        set => _core.AssumeCold = value;
    }

    /// <summary>How many cold searches start the page index; tests raise it to stay cold.</summary>
    internal long ColdSearchesBeforeIndex
    {
        get => _core.ColdSearchesBeforeIndex;
        set => _core.ColdSearchesBeforeIndex = value;
    }

    /// <summary>The search of a cold file while its index is built on the thread pool, if it is (for tests and benchmarks).</summary>
    internal ColdSearch<T, T, ItemKey<T>>? Cold => _core.Cold;

    /// <summary>What the list runs on the thread pool (a cold file's index, the fence file), done (for tests and benchmarks).</summary>
    internal System.Threading.Tasks.Task WhenIdle() => _core.WhenIdle();

    /// <summary>The order the list keeps.</summary>
    public TimeSeriesOrder Order { get; }

    /// <summary>The item at <paramref name="index"/>.</summary>
    public T this[long index] => List[index];

    /// <summary>Appends <paramref name="item"/> if it keeps the order.</summary>
    /// <exception cref="ListMmfOrderException">The item would break the order; nothing was written.</exception>
    public void Add(T item)
    {
        ListMmf<T> list = List;
        long count = list.CountAndLast(out T last);
        _core.CheckNext(item, count, last);
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

        _core.CheckOrder(items, List.Count);
        List.AddRange(items);
    }

    /// <summary>
    /// Checks that <paramref name="items"/>, appended after the first <paramref name="count"/> items, keep the order;
    /// the item before them is <paramref name="previous"/> when given (an item staged past the count), else the
    /// list's item at <paramref name="count"/> - 1.
    /// </summary>
    /// <exception cref="ListMmfOrderException">The first item that would break it.</exception>
    internal void CheckOrder(ReadOnlySpan<T> items, long count, T? previous = null) => _core.CheckOrder(items, count, previous);

    private protected override void Release() => _core.Dispose();

    /// <summary>
    /// A writer's flush writes the fences a cold start reads (<see cref="SortedCore{T, TItem, TKeyOf}.KeepFencesForColdReaders"/>).
    /// </summary>
    private protected override void Flushed() => KeepFencesForColdReaders();

    /// <inheritdoc cref="SortedCore{T, TItem, TKeyOf}.KeepFencesForColdReaders"/>
    internal void KeepFencesForColdReaders() => _core.KeepFencesForColdReaders();

    /// <inheritdoc cref="ListMmf{T}.TrimExcess"/>
    public void TrimExcess() => List.TrimExcess();

    /// <inheritdoc cref="ListMmf{T}.Truncate"/>
    public void Truncate(long newCount)
    {
        List.Truncate(newCount);
        _core.DropIndex();
    }

    /// <inheritdoc cref="ListMmf{T}.TruncateBeginning"/>
    public void TruncateBeginning(long count)
    {
        List.TruncateBeginning(count);
        _core.DropIndex();
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
    public long LowerBound(T value) => _core.Bound(value, SearchBound.Lower);

    /// <summary>The first index in <c>[first, last)</c> whose item is not less than <paramref name="value"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long LowerBound(T value, long first, long last) => _core.Bound(value, first, last, SearchBound.Lower);

    /// <summary>The first index whose item is greater than <paramref name="value"/>, or the count if there is none.</summary>
    public long UpperBound(T value) => _core.Bound(value, SearchBound.Upper);

    /// <summary>The first index in <c>[first, last)</c> whose item is greater than <paramref name="value"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long UpperBound(T value, long first, long last) => _core.Bound(value, first, last, SearchBound.Upper);

    /// <summary>
    /// The <see cref="LowerBound(T)"/> of every value in <paramref name="values"/>, into <paramref name="results"/>:
    /// the same answers as one search at a time, but the searches of a batch overlap their memory misses
    /// (benchmarks/README.md has the figures). All are answered against one count. No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public void LowerBound(ReadOnlySpan<T> values, Span<long> results) => _core.Bounds(values, results, SearchBound.Lower);

    /// <summary>
    /// The <see cref="UpperBound(T)"/> of every value in <paramref name="values"/>; see
    /// <see cref="LowerBound(ReadOnlySpan{T}, Span{long})"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public void UpperBound(ReadOnlySpan<T> values, Span<long> results) => _core.Bounds(values, results, SearchBound.Upper);

    /// <summary>The index of the last item at or before <paramref name="value"/>, or -1 where every item is after it.</summary>
    public long LastAtOrBefore(T value) => UpperBound(value) - 1;

    /// <summary>
    /// The ASOF join of <paramref name="values"/> to the list: for each value, the index of the last item at or
    /// before it, or -1 where every item is after it, into <paramref name="results"/> (each trade's quote, by time).
    /// Ascending values at least one per 64 items are walked as a merge, each search starting from the answer before
    /// it; other values are searched as <see cref="UpperBound(ReadOnlySpan{T}, Span{long})"/> searches them. All
    /// against one count; no allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public void LastAtOrBefore(ReadOnlySpan<T> values, Span<long> results) => SortedQueries.LastAtOrBefore(_core, values, results);

    /// <summary>
    /// The indices of the items equal to <paramref name="value"/>: <c>[LowerBound, UpperBound)</c>, empty where it
    /// would be inserted.
    /// </summary>
    public IndexRange EqualRange(T value) => EqualRange(value, 0, Count);

    /// <summary>The indices in <c>[first, last)</c> of the items equal to <paramref name="value"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public IndexRange EqualRange(T value, long first, long last) => SortedQueries.EqualRange(_core, value, first, last);

    /// <summary>
    /// The index of an item equal to <paramref name="value"/> (the first, if there are several), or the bitwise
    /// complement of the index where it would be inserted, as <see cref="Array.BinarySearch(Array, object)"/> does.
    /// </summary>
    public long BinarySearch(T value) => BinarySearch(value, 0, Count);

    /// <summary>As <see cref="BinarySearch(T)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long BinarySearch(T value, long first, long last) => SortedQueries.BinarySearch(_core, value, first, last);

    /// <summary>
    /// The indices of the items in <c>[from, to)</c>: from the first not less than <paramref name="from"/> to the
    /// first not less than <paramref name="to"/>.
    /// </summary>
    public IndexRange FindRange(T from, T to) => SortedQueries.FindRange(_core, from, to);

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
    public void Verify(IProgress<double>? progress) => _core.Verify(progress);

    /// <inheritdoc cref="ListMmf{T}.GetEnumerator"/>
    public ListMmf<T>.Enumerator GetEnumerator() => List.GetEnumerator();

    IEnumerator<T> IEnumerable<T>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <inheritdoc/>
    public override string ToString() => $"SortedListMmf<{typeof(T).Name}>('{Path}', {Order}, Count = {Count:N0})";

    /// <summary>The items, read as a plain list: ranged copies, spans over the mapping, hashes, Arrow arrays and enumeration.</summary>
    public IReadOnlyListMmf<T> Items => List;

    /// <summary>The searches as the keys contract, for the queries written over it (the DateTime layer).</summary>
    internal CoreKeys<T, T, ItemKey<T>> SortedKeys => new(_core);

    private int IntLength(IndexRange range) => ThrowHelper.SpanLength(range.Start, range.Length, Count);
}
