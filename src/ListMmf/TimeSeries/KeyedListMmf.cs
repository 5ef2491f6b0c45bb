using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using ListMmf.Search;

namespace ListMmf;

/// <summary>
/// A <see cref="ListMmf{T}"/> of rows (for example 192-byte quotes) kept sorted by one field, which
/// <typeparamref name="TSelector"/> picks, with the searches of <see cref="SortedListMmf{T}"/> on that key. Appends
/// that would break the order are refused and write nothing.
/// </summary>
/// <remarks>
/// <para>For searches by time, let the selector return the field as a <see cref="DateTime"/>
/// (<c>new DateTime(row.Ticks)</c>, or <c>DateTime.UnixEpoch.AddSeconds(row.Seconds)</c>): the searches then compare
/// DateTimes exactly, as the time series do, with the <see cref="DateTime.Kind"/> ignored, so
/// <c>LowerBound(10:00:00.5)</c> over whole-second rows is the first row after every row stamped 10:00:00.</para>
/// <para>Each search reads the published count once, so a reader searching while the writer appends searches a
/// complete, sorted prefix. On a large list the searches go through the same in-RAM page index as
/// <see cref="SortedListMmf{T}"/>'s (one key per page of rows), then a binary search of one page; on a small one,
/// a binary search over the rows. They trust the stored order, and <see cref="Verify()"/> checks it.</para>
/// </remarks>
/// <typeparam name="TRow">The stored row: any unmanaged struct.</typeparam>
/// <typeparam name="TKey">The key the rows are sorted by, a field of the row (so an unmanaged type), compared with
/// <see cref="IComparable{T}.CompareTo"/> (for floating-point keys that puts NaN before every number).</typeparam>
/// <typeparam name="TSelector">Picks the key out of a row.</typeparam>
public sealed unsafe class KeyedListMmf<TRow, TKey, TSelector> : ListMmfView<TRow>, IEnumerable<TRow>
    where TRow : unmanaged
    where TKey : unmanaged, IComparable<TKey>
    where TSelector : IKeySelector<TRow, TKey>
{
    private readonly SortedCore<ComparableKey<TKey>, TRow, SelectedKey<TRow, TKey, TSelector>> _core;

    /// <summary>
    /// Opens or creates the list at <paramref name="path"/>; see <see cref="ListMmf{T}(string, FileAccess, ListMmfOptions?)"/>.
    /// A new file records <paramref name="order"/>; where the file records an order, appends keep the stricter of the
    /// two and <see cref="Verify()"/> checks the recorded one, as <see cref="SortedListMmf{T}"/> does.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="order"/> is not a defined order.</exception>
    public KeyedListMmf(string path, TimeSeriesOrder order, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
        : base(SortedOrder.Open<TRow>(path, order, access, options, DataTypeInfo.Of<TRow>().DataType, requireDataType: false))
    {
        Order = order;
        _core = new SortedCore<ComparableKey<TKey>, TRow, SelectedKey<TRow, TKey, TSelector>>(List, order, options, "row")
        {
            DescribeKey = static key => $"key {key.Value}",
        };
    }

    /// <summary>The smallest list, in file pages, that gets a page index; tests lower it to reach the index with small lists.</summary>
    internal long IndexMinimumPages
    {
        get => _core.IndexMinimumPages;
        set => _core.IndexMinimumPages = value;
    }

    /// <summary>The page index, if one has been built (for tests).</summary>
    internal PageIndex<ComparableKey<TKey>, TRow>? Index => _core.Index;

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

    /// <summary>The search of a cold file while its index is built on the thread pool, if it is (for tests).</summary>
    internal ColdSearch<ComparableKey<TKey>, TRow, SelectedKey<TRow, TKey, TSelector>>? Cold => _core.Cold;

    /// <summary>What the list runs on the thread pool (a cold file's index, the fence file), done (for tests).</summary>
    internal System.Threading.Tasks.Task WhenIdle() => _core.WhenIdle();

    /// <summary>The rows, read as a plain list: ranged copies, spans over the mapping, hashes and enumeration.</summary>
    public IReadOnlyListMmf<TRow> Rows => List;

    /// <summary>The order the list was opened with; appends keep the stricter of it and the order the file records.</summary>
    public TimeSeriesOrder Order { get; }

    /// <summary>The row at <paramref name="index"/>.</summary>
    public TRow this[long index] => List[index];

    /// <summary>The key of the row at <paramref name="index"/>.</summary>
    public TKey KeyAt(long index) => _core.KeyAt(index).Value;

    /// <summary>Appends <paramref name="row"/> if its key keeps the order.</summary>
    /// <exception cref="ListMmfOrderException">The row would break the order; nothing was written.</exception>
    public void Add(in TRow row)
    {
        long count = List.CountAndLast(out TRow last);
        _core.CheckNext(KeyOf(row), count, KeyOf(last));
        List.Add(row);
    }

    /// <summary>Appends all of <paramref name="rows"/> if together they keep the order.</summary>
    /// <exception cref="ListMmfOrderException">A row would break the order; nothing was written.</exception>
    public void AddRange(ReadOnlySpan<TRow> rows)
    {
        if (rows.IsEmpty)
        {
            return;
        }

        _core.CheckOrder(rows, List.Count);
        List.AddRange(rows);
    }

    /// <summary>The first index whose key is not less than <paramref name="key"/>, or <see cref="ListMmfView{T}.Count"/>.</summary>
    public long LowerBound(TKey key) => _core.Bound(Key(key), SearchBound.Lower);

    /// <summary>The first index in <c>[first, last)</c> whose key is not less than <paramref name="key"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long LowerBound(TKey key, long first, long last) => _core.Bound(Key(key), first, last, SearchBound.Lower);

    /// <summary>The first index whose key is greater than <paramref name="key"/>, or <see cref="ListMmfView{T}.Count"/>.</summary>
    public long UpperBound(TKey key) => _core.Bound(Key(key), SearchBound.Upper);

    /// <summary>The first index in <c>[first, last)</c> whose key is greater than <paramref name="key"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long UpperBound(TKey key, long first, long last) => _core.Bound(Key(key), first, last, SearchBound.Upper);

    /// <summary>
    /// The <see cref="LowerBound(TKey)"/> of every key in <paramref name="keys"/>, into <paramref name="results"/>, all
    /// against one reading of the count, so that a writer appending meanwhile cannot make them disagree. No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="keys"/>.</exception>
    public void LowerBound(ReadOnlySpan<TKey> keys, Span<long> results) => _core.Bounds(Keys(keys), results, SearchBound.Lower);

    /// <summary>
    /// The <see cref="UpperBound(TKey)"/> of every key in <paramref name="keys"/>, as the batch
    /// <see cref="LowerBound(ReadOnlySpan{TKey}, Span{long})"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="keys"/>.</exception>
    public void UpperBound(ReadOnlySpan<TKey> keys, Span<long> results) => _core.Bounds(Keys(keys), results, SearchBound.Upper);

    /// <summary>The index of the last row whose key is at or before <paramref name="key"/>, or -1 where every key is after it.</summary>
    public long LastAtOrBefore(TKey key) => UpperBound(key) - 1;

    /// <summary>
    /// The ASOF join of <paramref name="keys"/> to the rows: for each key, the index of the last row whose key is at or
    /// before it, or -1, into <paramref name="results"/>; ascending keys are walked as a merge. No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="keys"/>.</exception>
    public void LastAtOrBefore(ReadOnlySpan<TKey> keys, Span<long> results) =>
        SortedQueries.LastAtOrBefore(_core, Keys(keys), results);

    /// <summary>The indices of the rows whose key equals <paramref name="key"/>; empty where it would be inserted.</summary>
    public IndexRange EqualRange(TKey key) => EqualRange(key, 0, Count);

    /// <summary>As <see cref="EqualRange(TKey)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public IndexRange EqualRange(TKey key, long first, long last) => SortedQueries.EqualRange(_core, Key(key), first, last);

    /// <summary>
    /// The index of the first row whose key equals <paramref name="key"/>, or the bitwise complement of the index
    /// where it would be inserted, as <see cref="Array.BinarySearch(Array, object)"/> does.
    /// </summary>
    public long BinarySearch(TKey key) => BinarySearch(key, 0, Count);

    /// <summary>As <see cref="BinarySearch(TKey)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long BinarySearch(TKey key, long first, long last) => SortedQueries.BinarySearch(_core, Key(key), first, last);

    /// <summary>
    /// The indices of the rows with keys in <c>[from, to)</c>; empty if <paramref name="to"/> is not after
    /// <paramref name="from"/>.
    /// </summary>
    public IndexRange FindRange(TKey from, TKey to) => SortedQueries.FindRange(_core, Key(from), Key(to));

    /// <inheritdoc cref="ListMmf{T}.AsSpan(long, int)"/>
    public ReadOnlySpan<TRow> AsSpan(long start, int length) => List.AsSpan(start, length);

    /// <summary>A span over the rows of <paramref name="range"/>, straight over the mapping.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the list, or holds more than
    /// <see cref="int.MaxValue"/> rows.</exception>
    public ReadOnlySpan<TRow> AsSpan(IndexRange range) => List.AsSpan(range.Start, IntLength(range));

    /// <summary>The rows of <paramref name="range"/> as memory over the mapping, for APIs that take <see cref="ReadOnlyMemory{T}"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the list, or holds more than
    /// <see cref="int.MaxValue"/> rows.</exception>
    public ReadOnlyMemory<TRow> AsMemory(IndexRange range) => List.AsMemory(range.Start, IntLength(range));

    /// <summary>
    /// Checks the file as <see cref="ListMmf{T}.Verify()"/> does, then that every stored row's key keeps the order the
    /// file records (else <see cref="Order"/>).
    /// </summary>
    /// <exception cref="ListMmfOrderException">The first row whose key breaks the order; the file is corrupt.</exception>
    public void Verify() => Verify(null);

    /// <summary>As <see cref="Verify()"/>, reporting progress from 0 to 1 (the file's checks, then the order).</summary>
    /// <exception cref="ListMmfOrderException">The first row whose key breaks the order; the file is corrupt.</exception>
    public void Verify(IProgress<double>? progress) => _core.Verify(progress);

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

    /// <inheritdoc cref="ListMmf{T}.TrimExcess"/>
    public void TrimExcess() => List.TrimExcess();

    private protected override void Release() => _core.Dispose();

    /// <summary>
    /// A writer's flush writes the fences a cold start reads (<see cref="SortedCore{T, TItem, TKeyOf}.KeepFencesForColdReaders"/>).
    /// </summary>
    private protected override void Flushed() => _core.KeepFencesForColdReaders();

    /// <inheritdoc cref="ListMmf{T}.GetEnumerator"/>
    public ListMmf<TRow>.Enumerator GetEnumerator() => List.GetEnumerator();

    IEnumerator<TRow> IEnumerable<TRow>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <inheritdoc/>
    public override string ToString() => $"KeyedListMmf<{typeof(TRow).Name}, {typeof(TKey).Name}>('{Path}', {Order}, Count = {Count:N0})";

    private static ComparableKey<TKey> Key(TKey key) => new(key);

    private static ComparableKey<TKey> KeyOf(in TRow row) => new(TSelector.KeyOf(in row));

    /// <summary>The keys as the core compares them: the same bytes, one field in a struct.</summary>
    private static ReadOnlySpan<ComparableKey<TKey>> Keys(ReadOnlySpan<TKey> keys) => MemoryMarshal.Cast<TKey, ComparableKey<TKey>>(keys);

    private int IntLength(IndexRange range) => ThrowHelper.SpanLength(range.Start, range.Length, Count);
}
