using System;
using System.Buffers;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using ListMmf.Search;

namespace ListMmf;

/// <summary>
/// A sorted list of timestamps stored as <typeparamref name="TKey"/>, searched with <see cref="DateTime"/>s.
/// <see cref="Keys"/> gives the same searches on the stored keys.
/// </summary>
/// <remarks>
/// <para>The stored keys are clock times. A series whose times are UTC (<see cref="ListMmfOptions.UtcTimes"/>,
/// recorded in its description) returns <see cref="DateTimeKind.Utc"/> times, converts
/// <see cref="DateTimeKind.Local"/> arguments to UTC, takes <see cref="DateTimeOffset"/>s, and refuses
/// <see cref="DateTimeKind.Unspecified"/> ones with an <see cref="ArgumentException"/> (they do not say their zone;
/// <see cref="DateTime.MinValue"/> and <see cref="DateTime.MaxValue"/> are taken as the ends of time). Any other series
/// returns <see cref="DateTimeKind.Unspecified"/> times, takes Unspecified and Utc arguments as they are, and refuses
/// Local ones and DateTimeOffsets with an <see cref="ArgumentException"/> or <see cref="InvalidOperationException"/>:
/// it cannot know their zone.</para>
/// <para>A DateTime that the key type cannot hold exactly (a fraction of a second for Unix seconds, or a time
/// outside their range) still gets the mathematically right index: <see cref="LowerBound(DateTime)"/> of
/// 10:00:00.5 is the first item after every item stamped 10:00:00. No search throws for such a DateTime and none
/// clamps it into a wrong answer.</para>
/// </remarks>
/// <typeparam name="TKey">The stored key.</typeparam>
public abstract class TimeSeriesMmf<TKey> : ListMmfView<TKey>, ITimeSeries, IEnumerable<DateTime>
    where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
{
    private protected TimeSeriesMmf(string path, TimeSeriesOrder order, FileAccess access, ListMmfOptions? options, DataType dataType)
        : this(
            new SortedListMmf<TKey>(SortedOrder.Open<TKey>(path, order, access, options, dataType, requireDataType: true), order, options),
            options)
    {
    }

    private TimeSeriesMmf(SortedListMmf<TKey> keys, ListMmfOptions? options)
        : base(keys.List)
    {
        Keys = keys;
        keys.DescribeKey = Describe;
        try
        {
            TimesAreUtc = StoredTimes.AreUtc(keys.List.Description, options, Path);
        }
        catch
        {
            keys.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Whether the series' times are UTC: recorded in its description when it was created with
    /// <see cref="ListMmfOptions.UtcTimes"/>, or said by that option for a file that records none.
    /// </summary>
    public bool TimesAreUtc { get; }

    /// <summary>The stored keys, with the same searches keyed by <typeparamref name="TKey"/>.</summary>
    public SortedListMmf<TKey> Keys { get; }

    /// <summary>
    /// Disposes the keys' searches with the series: their page index's fence file is written on the thread pool, and
    /// without this a write could still land in the folder after the series was disposed (a test's folder removal
    /// met one). The list under both is one, and is disposed once.
    /// </summary>
    private protected override void Release() => Keys.Dispose();

    /// <summary>The order the series keeps.</summary>
    public TimeSeriesOrder Order => Keys.Order;

    /// <summary>The timestamp at <paramref name="index"/>.</summary>
    public DateTime this[long index]
    {
        get
        {
            TKey key = Keys[index];
            if (!TryToDateTime(key, out DateTime time))
            {
                ThrowOutsideDateTime(index, key);
            }

            return Returned(time);
        }
    }

    /// <summary>Appends <paramref name="time"/>, which the key type must hold exactly.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The key type cannot hold <paramref name="time"/> exactly.</exception>
    /// <exception cref="ListMmfOrderException">The time would break the order; nothing was written.</exception>
    public void Add(DateTime time)
    {
        if (!TryExactKey(Stored(time), out TKey key))
        {
            ThrowNotExact(time);
        }

        Keys.Add(key);
    }

    /// <summary>
    /// Appends all of <paramref name="times"/> and publishes them with one count update, if the key type holds each
    /// exactly and together they keep the order. Each time is converted once, straight into the file.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The key type cannot hold one of the times exactly; nothing was written.</exception>
    /// <exception cref="ListMmfOrderException">A time would break the order; nothing was written.</exception>
    public void AddRange(ReadOnlySpan<DateTime> times)
    {
        if (times.IsEmpty)
        {
            return;
        }

        ListMmf<TKey> list = Keys.List;
        long count = list.Count;
        Span<TKey> keys = list.Reserve(times.Length);
        for (int i = 0; i < times.Length; i++)
        {
            if (!TryExactKey(Stored(times[i]), out keys[i]))
            {
                throw new ArgumentOutOfRangeException(nameof(times), times[i], $"'{Path}' stores {typeof(TKey).Name} " +
                    $"keys, which cannot hold {times[i]:O} (at {i:N0} in the span) exactly. Nothing was written.");
            }
        }

        // Checked after the conversion, in the reserved space that no reader sees until it is published.
        Keys.CheckOrder(keys, count);
        list.PublishReserved(times.Length);
    }

    /// <summary>The first index whose timestamp is at or after <paramref name="time"/>, or <see cref="ListMmfView{T}.Count"/>.</summary>
    public long LowerBound(DateTime time) => TryKeyAtOrAfter(Stored(time), out TKey key) ? Keys.LowerBound(key) : Keys.Count;

    /// <summary>The first index in <c>[first, last)</c> whose timestamp is at or after <paramref name="time"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long LowerBound(DateTime time, long first, long last) => SearchRange(TryKeyAtOrAfter(Stored(time), out TKey key), key, first, last);

    /// <summary>The first index whose timestamp is after <paramref name="time"/>, or <see cref="ListMmfView{T}.Count"/>.</summary>
    public long UpperBound(DateTime time) => TryKeyAfter(Stored(time), out TKey key) ? Keys.LowerBound(key) : Keys.Count;

    /// <summary>The first index in <c>[first, last)</c> whose timestamp is after <paramref name="time"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long UpperBound(DateTime time, long first, long last) => SearchRange(TryKeyAfter(Stored(time), out TKey key), key, first, last);

    /// <summary>
    /// The <see cref="LowerBound(DateTime)"/> of every time in <paramref name="times"/>, into
    /// <paramref name="results"/>, searched together so that their memory misses overlap; see
    /// <see cref="SortedListMmf{T}.LowerBound(ReadOnlySpan{T}, Span{long})"/>. No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void LowerBound(ReadOnlySpan<DateTime> times, Span<long> results) => Bounds(times, results, after: false);

    /// <summary>
    /// The <see cref="UpperBound(DateTime)"/> of every time in <paramref name="times"/>; see
    /// <see cref="LowerBound(ReadOnlySpan{DateTime}, Span{long})"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void UpperBound(ReadOnlySpan<DateTime> times, Span<long> results) => Bounds(times, results, after: true);

    /// <summary>
    /// The index of the last timestamp at or before <paramref name="time"/>, or -1 when every timestamp is after it:
    /// the row an ASOF join gives <paramref name="time"/>. Equal timestamps give the last of them.
    /// </summary>
    public long LastAtOrBefore(DateTime time) => UpperBound(time) - 1;

    /// <summary>
    /// The ASOF join: the <see cref="LastAtOrBefore(DateTime)"/> of every time in <paramref name="times"/>, into
    /// <paramref name="results"/>. Ascending times are walked as a merge, each search starting from the answer
    /// before it (see <see cref="SortedListMmf{T}.LastAtOrBefore(ReadOnlySpan{T}, Span{long})"/>). No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results)
    {
        Bounds(times, results, after: true);
        foreach (ref long result in results[..times.Length])
        {
            result--;
        }
    }

    /// <summary>The indices of the timestamps equal to <paramref name="time"/>; empty where it would be inserted.</summary>
    public IndexRange EqualRange(DateTime time)
    {
        long start = LowerBound(time);
        return new IndexRange(start, Math.Max(start, UpperBound(time)));
    }

    /// <summary>
    /// The index of the first timestamp equal to <paramref name="time"/>, or the bitwise complement of the index
    /// where it would be inserted.
    /// </summary>
    public long BinarySearch(DateTime time) => TryExactKey(Stored(time), out TKey key) ? Keys.BinarySearch(key) : ~LowerBound(time);

    /// <summary>The indices of the timestamps in <c>[from, to)</c>; empty if <paramref name="to"/> is not after <paramref name="from"/>.</summary>
    public IndexRange FindRange(DateTime from, DateTime to) => StoredTimes.Between(this, from, to);

    /// <summary>Appends <paramref name="time"/>, as UTC; see <see cref="Add(DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The series' times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    public void Add(DateTimeOffset time) => Add(Utc(time));

    /// <summary>The first index whose timestamp is at or after <paramref name="time"/>; see <see cref="LowerBound(DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The series' times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    public long LowerBound(DateTimeOffset time) => LowerBound(Utc(time));

    /// <summary>The first index whose timestamp is after <paramref name="time"/>; see <see cref="UpperBound(DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The series' times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    public long UpperBound(DateTimeOffset time) => UpperBound(Utc(time));

    /// <summary>The indices of the timestamps in <c>[from, to)</c>; see <see cref="FindRange(DateTime, DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The series' times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    public IndexRange FindRange(DateTimeOffset from, DateTimeOffset to) => FindRange(Utc(from), Utc(to));

    /// <summary>The stored keys of <paramref name="range"/>, straight over the mapping.</summary>
    public ReadOnlySpan<TKey> AsSpan(IndexRange range) => Keys.AsSpan(range);

    /// <summary>The stored keys of <paramref name="range"/> as memory over the mapping; see <see cref="ListMmf{T}.AsMemory(long, int)"/>.</summary>
    public ReadOnlyMemory<TKey> AsMemory(IndexRange range) => Keys.AsMemory(range);

    /// <summary>
    /// The timestamps of <paramref name="range"/> as DateTimes, converted once from the mapping into
    /// <paramref name="destination"/> (for DateTime-ticks series, a plain copy).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the series.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    /// <exception cref="ListMmfFormatException">A stored key is outside the range of DateTime.</exception>
    public void CopyTo(IndexRange range, Span<DateTime> destination)
    {
        ReadOnlySpan<TKey> keys = Keys.AsSpan(range);
        ThrowHelper.CheckDestination(destination.Length, keys.Length);

        for (int i = 0; i < keys.Length; i++)
        {
            if (!TryToDateTime(keys[i], out destination[i]))
            {
                ThrowOutsideDateTime(range.Start + i, keys[i]);
            }

            destination[i] = Returned(destination[i]);
        }

        GC.KeepAlive(Keys);
    }

    /// <summary>Enumerates the timestamps present when enumeration starts, as DateTimes, without allocating.</summary>
    public Enumerator GetEnumerator() => new(this, Keys.GetEnumerator());

    IEnumerator<DateTime> IEnumerable<DateTime>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <inheritdoc cref="SortedListMmf{T}.Verify()"/>
    public void Verify() => Keys.Verify();

    /// <inheritdoc cref="SortedListMmf{T}.Verify(IProgress{double})"/>
    public void Verify(IProgress<double>? progress) => Keys.Verify(progress);

    /// <inheritdoc cref="ListMmf{T}.Truncate"/>
    public void Truncate(long newCount) => Keys.Truncate(newCount);

    /// <inheritdoc cref="ListMmf{T}.TrimExcess"/>
    public void TrimExcess() => Keys.TrimExcess();

    /// <inheritdoc cref="ListMmf{T}.TruncateBeginning"/>
    public void TruncateBeginning(long count) => Keys.TruncateBeginning(count);

    Type ITimeSeries.KeyType => typeof(TKey);

    void ITimeSeries.AddKeys<TStored>(ReadOnlySpan<TStored> keys)
    {
        if (typeof(TStored) != typeof(TKey))
        {
            throw new InvalidOperationException($"'{Path}' stores {typeof(TKey).Name} keys, not {typeof(TStored).Name}.");
        }

        Keys.AddRange(MemoryMarshal.Cast<TStored, TKey>(keys));
    }

    void ITimeSeries.StageKeys<TStored>(ReadOnlySpan<TStored> keys, long pending)
    {
        if (typeof(TStored) != typeof(TKey))
        {
            throw new InvalidOperationException($"'{Path}' stores {typeof(TKey).Name} keys, not {typeof(TStored).Name}.");
        }

        if (keys.IsEmpty)
        {
            return;
        }

        ListMmf<TKey> list = Keys.List;
        long count = list.Count;
        Span<TKey> staged = list.ReserveAfter(pending, keys.Length);
        MemoryMarshal.Cast<TStored, TKey>(keys).CopyTo(staged);

        // The last key before them is the last staged one, which no indexer reads: the reserved span's own item.
        Keys.CheckOrder(staged, count + pending, pending > 0 ? list.ReserveAfter(pending - 1, 1)[0] : null);
    }

    void ITimeSeries.PublishStaged(long count) => Keys.List.PublishReserved(count);

    /// <inheritdoc/>
    public override string ToString() => $"{GetType().Name}('{Path}', {Order}, Count = {Count:N0})";

    /// <summary>
    /// The bar of <paramref name="intervalTicks"/> (counted from <see cref="DateTime.MinValue"/>) that holds
    /// <paramref name="row"/>: its start, and its end, the first row before <paramref name="last"/> in a later bar (or
    /// <paramref name="last"/>). The end is found on the keys themselves, galloping from <paramref name="row"/> (1, 2,
    /// 4, ... rows ahead) and then binary searching the last step, since a bar is usually far smaller than the range.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    long ITimeColumn.EndOfBar(long row, long last, long intervalTicks, out DateTime start)
    {
        ReadOnlySpan<TKey> keys = Keys.AsSpan(new IndexRange(row, last));
        if (!TryToDateTime(keys[0], out DateTime time))
        {
            ThrowOutsideDateTime(row, keys[0]);
        }

        long ticks = time.Ticks - (time.Ticks % intervalTicks);
        start = Returned(new DateTime(ticks));
        return ticks <= DateTime.MaxValue.Ticks - intervalTicks && TryKeyAtOrAfter(new DateTime(ticks + intervalTicks), out TKey end)
            ? row + 1 + FirstAtOrAfter(keys[1..], end)
            : last;
    }

    /// <summary>The first index of the ascending <paramref name="keys"/> whose key is at least <paramref name="key"/>, or their length.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int FirstAtOrAfter(ReadOnlySpan<TKey> keys, TKey key)
    {
        int low = 0;
        int high = keys.Length;
        for (int step = 1; low < keys.Length; step <<= 1)
        {
            int probe = Math.Min(keys.Length, low + step) - 1;
            if (keys[probe] >= key)
            {
                high = probe;
                break;
            }

            low = probe + 1;
        }

        while (low < high)
        {
            int middle = low + ((high - low) >> 1);
            if (keys[middle] < key)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }

        return low;
    }

    /// <summary>
    /// Converts the times to keys a chunk at a time, searches each chunk as a batch, and answers the times past every
    /// key with the end: the smallest key at or after a time, searched with LowerBound, gives both bounds (for
    /// UpperBound, the smallest key after the time). Chunks of 64 on the stack, except a batch dense and ascending
    /// enough to be walked as one merge (<see cref="MergeSearch"/>), whose keys go into one pooled buffer.
    /// </summary>
    private void Bounds(ReadOnlySpan<DateTime> times, Span<long> results, bool after)
    {
        ThrowHelper.CheckResults(results.Length, times.Length, "times");

        const int StackChunk = 64;
        long count = Keys.Count;
        if (times.Length <= StackChunk || times.Length * MergeSearch.ItemsPerValue < count || !IsAscending(times))
        {
            Bounds(times, results, after, count, stackalloc TKey[StackChunk], stackalloc bool[StackChunk]);
            return;
        }

        TKey[] keys = ArrayPool<TKey>.Shared.Rent(times.Length);
        bool[] beyond = ArrayPool<bool>.Shared.Rent(times.Length);
        try
        {
            Bounds(times, results, after, count, keys.AsSpan(0, times.Length), beyond.AsSpan(0, times.Length));
        }
        finally
        {
            ArrayPool<TKey>.Shared.Return(keys);
            ArrayPool<bool>.Shared.Return(beyond);
        }
    }

    private static bool IsAscending(ReadOnlySpan<DateTime> times)
    {
        for (int i = 1; i < times.Length; i++)
        {
            if (times[i].Ticks < times[i - 1].Ticks)
            {
                return false;
            }
        }

        return true;
    }

    private void Bounds(ReadOnlySpan<DateTime> times, Span<long> results, bool after, long count, Span<TKey> keys, Span<bool> beyond)
    {
        for (int start = 0; start < times.Length; start += keys.Length)
        {
            int size = Math.Min(keys.Length, times.Length - start);
            for (int i = 0; i < size; i++)
            {
                DateTime time = times[start + i];
                beyond[i] = !(after ? TryKeyAfter(Stored(time), out keys[i]) : TryKeyAtOrAfter(Stored(time), out keys[i]));
            }

            Span<long> chunkResults = results.Slice(start, size);
            Keys.LowerBoundOfEach(keys[..size], chunkResults, count);
            for (int i = 0; i < size; i++)
            {
                if (beyond[i])
                {
                    chunkResults[i] = count;
                }
            }
        }
    }

    /// <summary>
    /// The first index in <c>[first, last)</c> whose key is not less than <paramref name="key"/>; when no key
    /// exists (<paramref name="exists"/> false: the time lies past every key), <paramref name="last"/>.
    /// </summary>
    private long SearchRange(bool exists, TKey key, long first, long last)
    {
        if (exists)
        {
            return Keys.LowerBound(key, first, last);
        }

        SortedSearch.CheckRange(first, last, Keys.Count);
        return last;
    }

    /// <summary>A time argument as the series compares it; see <see cref="StoredTimes.Of"/>.</summary>
    /// <exception cref="ArgumentException">A Local time where the series' times are not UTC, or an Unspecified one where they are.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private DateTime Stored(DateTime time) => StoredTimes.Of(time, TimesAreUtc, Path);

    // The throws of the appends and searches are out of line, so that their messages cost the hot paths no frame.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowNotExact(DateTime time) =>
        throw new ArgumentOutOfRangeException(nameof(time), time, $"'{Path}' stores {typeof(TKey).Name} keys, " +
            $"which cannot hold {time:O} exactly.");

    private DateTime Returned(DateTime time) => StoredTimes.Returned(time, TimesAreUtc);

    /// <exception cref="InvalidOperationException">The series' times are not UTC.</exception>
    private DateTime Utc(DateTimeOffset time) => StoredTimes.OfOffset(time, TimesAreUtc, Path);

    /// <summary>The smallest key whose time is at or after <paramref name="time"/>; false if every key's time is before it.</summary>
    private protected abstract bool TryKeyAtOrAfter(DateTime time, out TKey key);

    /// <summary>The smallest key whose time is after <paramref name="time"/>; false if no key's time is after it.</summary>
    private protected abstract bool TryKeyAfter(DateTime time, out TKey key);

    /// <summary>The key whose time is exactly <paramref name="time"/>; false if there is none.</summary>
    private protected abstract bool TryExactKey(DateTime time, out TKey key);

    private protected abstract bool TryToDateTime(TKey key, out DateTime time);

    /// <summary>A key for messages: the time it stands for, and the stored key when that differs.</summary>
    private string Describe(TKey key) => StoredTimes.Describe(key, TryToDateTime(key, out DateTime time), time);

    private void ThrowOutsideDateTime(long index, TKey key) => throw StoredTimes.OutsideDateTime(Path, index, key);

    /// <summary>Enumerates a series' timestamps as DateTimes; see <see cref="GetEnumerator"/>.</summary>
    [StructLayout(LayoutKind.Auto)]
    public struct Enumerator : IEnumerator<DateTime>
    {
        private readonly TimeSeriesMmf<TKey> _series;
        private ListMmf<TKey>.Enumerator _keys;
        private DateTime _current;

        internal Enumerator(TimeSeriesMmf<TKey> series, ListMmf<TKey>.Enumerator keys)
        {
            _series = series;
            _keys = keys;
            _current = default;
        }

        /// <inheritdoc/>
        public readonly DateTime Current => _current;

        readonly object IEnumerator.Current => Current;

        /// <inheritdoc cref="ListMmf{T}.Enumerator.MoveNext"/>
        /// <exception cref="ListMmfFormatException">A stored key is outside the range of DateTime.</exception>
        public bool MoveNext()
        {
            if (!_keys.MoveNext())
            {
                _current = default;
                return false;
            }

            if (!_series.TryToDateTime(_keys.Current, out _current))
            {
                _series.ThrowOutsideDateTime(_keys.Index, _keys.Current);
            }

            _current = _series.Returned(_current);

            return true;
        }

        /// <inheritdoc/>
        public void Reset()
        {
            _keys.Reset();
            _current = default;
        }

        /// <inheritdoc/>
        public readonly void Dispose()
        {
        }
    }
}
