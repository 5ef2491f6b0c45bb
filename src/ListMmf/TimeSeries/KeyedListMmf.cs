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
    /// <summary>Opens or creates the list at <paramref name="path"/>; see <see cref="ListMmf{T}(string, FileAccess, ListMmfOptions?)"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="order"/> is not a defined order.</exception>
    public KeyedListMmf(string path, TimeSeriesOrder order, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
        : base(new ListMmf<TRow>(path, access, Checked(order, options)))
    {
        Order = order;
    }

    /// <summary>The rows, as a plain list (for spans and enumeration; appends through it are not order-checked).</summary>
    public ListMmf<TRow> Rows => List;

    /// <summary>The order the rows keep by their key.</summary>
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
    public void LowerBound(ReadOnlySpan<TKey> keys, Span<long> results)
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
            results[i] = SortedSearch.LowerBound(ref source, new ComparableKey<TKey>(keys[i]), 0, count);
        }

        GC.KeepAlive(List);
    }

    /// <summary>The indices of the rows whose key equals <paramref name="key"/>; empty where it would be inserted.</summary>
    public IndexRange EqualRange(TKey key)
    {
        var rows = new PointerSource<TRow>(List.Snapshot(out long count));
        var keys = new RowKeySource<TRow, TKey, TSelector>(rows.Pointer);
        long start = SortedSearch.LowerBound(ref keys, new ComparableKey<TKey>(key), 0, count);
        long end = SortedSearch.UpperBound(ref keys, new ComparableKey<TKey>(key), start, count);
        GC.KeepAlive(List);
        return new IndexRange(start, end);
    }

    /// <summary>
    /// The index of the first row whose key equals <paramref name="key"/>, or the bitwise complement of the index
    /// where it would be inserted, as <see cref="Array.BinarySearch(Array, object)"/> does.
    /// </summary>
    public long BinarySearch(TKey key)
    {
        var rows = new PointerSource<TRow>(List.Snapshot(out long count));
        var keys = new RowKeySource<TRow, TKey, TSelector>(rows.Pointer);
        long index = SortedSearch.LowerBound(ref keys, new ComparableKey<TKey>(key), 0, count);
        bool found = index < count && keys[index].Value.CompareTo(key) == 0;
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
    public ReadOnlySpan<TRow> AsSpan(IndexRange range)
    {
        if (range.Length is < 0 or > int.MaxValue)
        {
            ThrowHelper.RangeOutOfBounds(range.Start, range.Length, Count);
        }

        return List.AsSpan(range.Start, (int)range.Length);
    }

    /// <summary>
    /// Checks the file as <see cref="ListMmf{T}.Verify()"/> does, then that every stored row's key keeps the declared
    /// order.
    /// </summary>
    /// <exception cref="ListMmfOrderException">The first row whose key breaks the order; the file is corrupt.</exception>
    public void Verify()
    {
        List.Verify();
        var rows = new PointerSource<TRow>(List.Snapshot(out long count));
        var keys = new RowKeySource<TRow, TKey, TSelector>(rows.Pointer);
        for (long i = 1; i < count; i++)
        {
            if (!Follows(keys[i - 1].Value, keys[i].Value))
            {
                throw new ListMmfOrderException(
                    Path,
                    $"the key of the stored row at index {i:N0} ({keys[i].Value}) does not follow the one before it " +
                        $"({keys[i - 1].Value}) in {Order} order; the file is corrupt.",
                    i);
            }
        }

        GC.KeepAlive(List);
    }

    /// <inheritdoc cref="ListMmf{T}.Truncate"/>
    public void Truncate(long newCount) => List.Truncate(newCount);

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

    /// <summary>The options, once <paramref name="order"/> is known to be defined: checked before the file is opened.</summary>
    private static ListMmfOptions? Checked(TimeSeriesOrder order, ListMmfOptions? options) => Enum.IsDefined(order)
        ? options
        : throw new ArgumentOutOfRangeException(nameof(order), order, "Unknown order.");

    private bool Follows(TKey previous, TKey next) => Order.Allows(new ComparableKey<TKey>(previous), new ComparableKey<TKey>(next));

    private void CheckFollows(TKey previous, TKey next, long index)
    {
        if (!Follows(previous, next))
        {
            throw new ListMmfOrderException(
                Path,
                $"a row with key {next} cannot be appended at index {index:N0} after key {previous}: the rows are " +
                    $"{Order} by key. Nothing was written.",
                index);
        }
    }
}
