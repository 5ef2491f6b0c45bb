using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
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
/// complete, sorted prefix. The searches are binary searches over the rows (one row, one cache line, per probe);
/// the searches trust the stored order, and <see cref="Verify()"/> checks it.</para>
/// </remarks>
/// <typeparam name="TRow">The stored row: any unmanaged struct.</typeparam>
/// <typeparam name="TKey">The key the rows are sorted by, compared with <see cref="IComparable{T}.CompareTo"/> (for
/// floating-point keys that puts NaN before every number).</typeparam>
/// <typeparam name="TSelector">Picks the key out of a row.</typeparam>
public sealed unsafe class KeyedListMmf<TRow, TKey, TSelector> : ListMmfView<TRow>, IEnumerable<TRow>
    where TRow : unmanaged
    where TKey : IComparable<TKey>
    where TSelector : IKeySelector<TRow, TKey>
{
    private readonly SortedOrder _order;

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
        _order = SortedOrder.Of(List, order);
    }

    /// <summary>The rows, as a plain list (for spans and enumeration; appends through it are not order-checked).</summary>
    public ListMmf<TRow> Rows => List;

    /// <summary>The order the list was opened with; appends keep the stricter of it and the order the file records.</summary>
    public TimeSeriesOrder Order { get; }

    /// <summary>The row at <paramref name="index"/>.</summary>
    public TRow this[long index] => List[index];

    /// <summary>The key of the row at <paramref name="index"/>.</summary>
    public TKey KeyAt(long index)
    {
        TRow row = List[index];
        return TSelector.KeyOf(in row);
    }

    /// <summary>Appends <paramref name="row"/> if its key keeps the order.</summary>
    /// <exception cref="ListMmfOrderException">The row would break the order; nothing was written.</exception>
    public void Add(in TRow row)
    {
        long count = List.Count;
        if (count > 0)
        {
            CheckFollows(KeyAt(count - 1), TSelector.KeyOf(in row), count);
        }

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

        long count = List.Count;
        if (count > 0)
        {
            CheckFollows(KeyAt(count - 1), TSelector.KeyOf(in rows[0]), count);
        }

        for (int i = 1; i < rows.Length; i++)
        {
            CheckFollows(TSelector.KeyOf(in rows[i - 1]), TSelector.KeyOf(in rows[i]), count + i);
        }

        List.AddRange(rows);
    }

    /// <summary>The first index whose key is not less than <paramref name="key"/>, or <see cref="ListMmfView{T}.Count"/>.</summary>
    public long LowerBound(TKey key) => Bound(key, 0, null, SearchBound.Lower);

    /// <summary>The first index in <c>[first, last)</c> whose key is not less than <paramref name="key"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long LowerBound(TKey key, long first, long last) => Bound(key, first, last, SearchBound.Lower);

    /// <summary>The first index whose key is greater than <paramref name="key"/>, or <see cref="ListMmfView{T}.Count"/>.</summary>
    public long UpperBound(TKey key) => Bound(key, 0, null, SearchBound.Upper);

    /// <summary>The first index in <c>[first, last)</c> whose key is greater than <paramref name="key"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long UpperBound(TKey key, long first, long last) => Bound(key, first, last, SearchBound.Upper);

    /// <summary>
    /// The <see cref="LowerBound(TKey)"/> of every key in <paramref name="keys"/>, into <paramref name="results"/>, all
    /// against one reading of the count, so that a writer appending meanwhile cannot make them disagree. No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="keys"/>.</exception>
    public void LowerBound(ReadOnlySpan<TKey> keys, Span<long> results) => Bounds(keys, results, SearchBound.Lower);

    /// <summary>
    /// The <see cref="UpperBound(TKey)"/> of every key in <paramref name="keys"/>, as the batch
    /// <see cref="LowerBound(ReadOnlySpan{TKey}, Span{long})"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="keys"/>.</exception>
    public void UpperBound(ReadOnlySpan<TKey> keys, Span<long> results) => Bounds(keys, results, SearchBound.Upper);

    /// <summary>The indices of the rows whose key equals <paramref name="key"/>; empty where it would be inserted.</summary>
    public IndexRange EqualRange(TKey key) => EqualRange(key, 0, Count);

    /// <summary>As <see cref="EqualRange(TKey)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public IndexRange EqualRange(TKey key, long first, long last)
    {
        var rows = new PointerSource<TRow>(List.Snapshot(out long count));
        SortedListMmf<int>.CheckRange(first, last, count);
        var keys = new RowKeySource<TRow, TKey, TSelector>(rows.Pointer);
        long start = SortedSearch.LowerBound(ref keys, new ComparableKey<TKey>(key), first, last);
        long end = SortedSearch.UpperBound(ref keys, new ComparableKey<TKey>(key), start, last);
        GC.KeepAlive(List);
        return new IndexRange(start, end);
    }

    /// <summary>
    /// The index of the first row whose key equals <paramref name="key"/>, or the bitwise complement of the index
    /// where it would be inserted, as <see cref="Array.BinarySearch(Array, object)"/> does.
    /// </summary>
    public long BinarySearch(TKey key) => BinarySearch(key, 0, Count);

    /// <summary>As <see cref="BinarySearch(TKey)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long BinarySearch(TKey key, long first, long last)
    {
        var rows = new PointerSource<TRow>(List.Snapshot(out long count));
        SortedListMmf<int>.CheckRange(first, last, count);
        var keys = new RowKeySource<TRow, TKey, TSelector>(rows.Pointer);
        long index = SortedSearch.LowerBound(ref keys, new ComparableKey<TKey>(key), first, last);
        bool found = index < last && keys[index].Value.CompareTo(key) == 0;
        GC.KeepAlive(List);
        return found ? index : ~index;
    }

    /// <summary>
    /// The indices of the rows with keys in <c>[from, to)</c>; empty if <paramref name="to"/> is not after
    /// <paramref name="from"/>.
    /// </summary>
    public IndexRange FindRange(TKey from, TKey to)
    {
        var rows = new PointerSource<TRow>(List.Snapshot(out long count));
        var keys = new RowKeySource<TRow, TKey, TSelector>(rows.Pointer);
        long start = SortedSearch.LowerBound(ref keys, new ComparableKey<TKey>(from), 0, count);
        long end = to.CompareTo(from) > 0 ? SortedSearch.LowerBound(ref keys, new ComparableKey<TKey>(to), start, count) : start;
        GC.KeepAlive(List);
        return new IndexRange(start, end);
    }

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
    public void Verify(IProgress<double>? progress)
    {
        List.Verify(progress is null ? null : new ScaledProgress(progress, 0, 0.5));
        var rows = new PointerSource<TRow>(List.Snapshot(out long count));
        var keys = new RowKeySource<TRow, TKey, TSelector>(rows.Pointer);
        for (long i = 1; i < count; i++)
        {
            if (progress is not null && (i & ((1 << 22) - 1)) == 0)
            {
                progress.Report(0.5 + (0.5 * i / count));
            }

            if (!_order.Verified.Allows(keys[i - 1], keys[i]))
            {
                throw _order.Corrupt(Path, "row's key", i, $"{keys[i].Value}", $"{keys[i - 1].Value}");
            }
        }

        GC.KeepAlive(List);
        progress?.Report(1);
    }

    /// <inheritdoc cref="ListMmf{T}.Truncate"/>
    public void Truncate(long newCount) => List.Truncate(newCount);

    /// <inheritdoc cref="ListMmf{T}.TruncateBeginning"/>
    public void TruncateBeginning(long count) => List.TruncateBeginning(count);

    /// <inheritdoc cref="ListMmf{T}.TrimExcess"/>
    public void TrimExcess() => List.TrimExcess();

    /// <inheritdoc cref="ListMmf{T}.GetEnumerator"/>
    public ListMmf<TRow>.Enumerator GetEnumerator() => List.GetEnumerator();

    IEnumerator<TRow> IEnumerable<TRow>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <inheritdoc/>
    public override string ToString() => $"KeyedListMmf<{typeof(TRow).Name}, {typeof(TKey).Name}>('{Path}', {Order}, Count = {Count:N0})";

    /// <summary>The bound within <c>[first, last)</c>, or among every row published when <paramref name="last"/> is null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private long Bound(TKey key, long first, long? last, SearchBound bound)
    {
        var rows = new PointerSource<TRow>(List.Snapshot(out long count));
        long end = last ?? count;
        SortedListMmf<int>.CheckRange(first, end, count);
        var keys = new RowKeySource<TRow, TKey, TSelector>(rows.Pointer);
        long result = SortedSearch.Bound(ref keys, new ComparableKey<TKey>(key), first, end, bound);
        GC.KeepAlive(List);
        return result;
    }

    /// <summary>The bounds of every key against one snapshot of the count.</summary>
    private void Bounds(ReadOnlySpan<TKey> keys, Span<long> results, SearchBound bound)
    {
        if (results.Length < keys.Length)
        {
            throw new ArgumentException($"The results span holds {results.Length:N0} items, fewer than the " +
                $"{keys.Length:N0} keys.", nameof(results));
        }

        var rows = new PointerSource<TRow>(List.Snapshot(out long count));
        var source = new RowKeySource<TRow, TKey, TSelector>(rows.Pointer);
        for (int i = 0; i < keys.Length; i++)
        {
            results[i] = SortedSearch.Bound(ref source, new ComparableKey<TKey>(keys[i]), 0, count, bound);
        }

        GC.KeepAlive(List);
    }

    private int IntLength(IndexRange range) => ThrowHelper.SpanLength(range.Start, range.Length, Count);

    private bool Follows(TKey previous, TKey next) => _order.Append.Allows(new ComparableKey<TKey>(previous), new ComparableKey<TKey>(next));

    private void CheckFollows(TKey previous, TKey next, long index)
    {
        if (!Follows(previous, next))
        {
            throw new ListMmfOrderException(
                Path,
                $"a row with key {next} cannot be appended at index {index:N0} after key {previous}: the rows are " +
                    $"{_order.Append} by key. Nothing was written.",
                index);
        }
    }
}
