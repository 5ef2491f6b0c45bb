using System;
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
/// <para>The stored keys are clock times. A series whose times are UTC (<see cref="ListMmfOptions.TimesAreUtc"/>,
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
        keys.DescribeKey = TimeQueries<TKey, TimeKeyOf<TKey>, CoreKeys<TKey, TKey, ItemKey<TKey>>>.Describe;
        try
        {
            _times = new(keys.SortedKeys, keys.List, StoredTimes.AreUtc(keys.List.Description, options, Path));
        }
        catch
        {
            keys.Dispose();
            throw;
        }
    }

    /// <summary>The DateTime layer over the keys, written once for every form of times.</summary>
    private readonly TimeQueries<TKey, TimeKeyOf<TKey>, CoreKeys<TKey, TKey, ItemKey<TKey>>> _times;

    /// <summary>
    /// Whether the series' times are UTC: recorded in its description when it was created with
    /// <see cref="ListMmfOptions.TimesAreUtc"/>, or said by that option for a file that records none.
    /// </summary>
    public bool TimesAreUtc => _times.TimesAreUtc;

    /// <summary>The stored keys, with the same searches keyed by <typeparamref name="TKey"/>.</summary>
    public SortedListMmf<TKey> Keys { get; }

    /// <summary>
    /// Disposes the keys' searches with the series: their page index's fence file is written on the thread pool, and
    /// without this a write could still land in the folder after the series was disposed (a test's folder removal
    /// met one). The list under both is one, and is disposed once.
    /// </summary>
    private protected override void Release() => Keys.Dispose();

    /// <summary>A writer's flush writes the fences a cold start reads, as the keys' own flush does.</summary>
    private protected override void Flushed() => Keys.KeepFencesForColdReaders();

    /// <summary>The order the series keeps.</summary>
    public TimeSeriesOrder Order => Keys.Order;

    /// <summary>The timestamp at <paramref name="index"/>.</summary>
    /// <exception cref="ListMmfFormatException">The stored key is outside the range of DateTime.</exception>
    public DateTime this[long index] => _times[index];

    /// <summary>Appends <paramref name="time"/>, which the key type must hold exactly.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The key type cannot hold <paramref name="time"/> exactly.</exception>
    /// <exception cref="ListMmfOrderException">The time would break the order; nothing was written.</exception>
    public void Add(DateTime time)
    {
        if (!_times.TryExact(time, out TKey key))
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
            if (!_times.TryExact(times[i], out keys[i]))
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
    public long LowerBound(DateTime time) => _times.Bound(time, SearchBound.Lower);

    /// <summary>The first index in <c>[first, last)</c> whose timestamp is at or after <paramref name="time"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long LowerBound(DateTime time, long first, long last) => _times.Bound(time, first, last, SearchBound.Lower);

    /// <summary>The first index whose timestamp is after <paramref name="time"/>, or <see cref="ListMmfView{T}.Count"/>.</summary>
    public long UpperBound(DateTime time) => _times.Bound(time, SearchBound.Upper);

    /// <summary>The first index in <c>[first, last)</c> whose timestamp is after <paramref name="time"/>, or <paramref name="last"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long UpperBound(DateTime time, long first, long last) => _times.Bound(time, first, last, SearchBound.Upper);

    /// <summary>
    /// The <see cref="LowerBound(DateTime)"/> of every time in <paramref name="times"/>, into
    /// <paramref name="results"/>, searched together so that their memory misses overlap; see
    /// <see cref="SortedListMmf{T}.LowerBound(ReadOnlySpan{T}, Span{long})"/>. No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void LowerBound(ReadOnlySpan<DateTime> times, Span<long> results) => _times.Bounds(times, results, SearchBound.Lower);

    /// <summary>
    /// The <see cref="UpperBound(DateTime)"/> of every time in <paramref name="times"/>; see
    /// <see cref="LowerBound(ReadOnlySpan{DateTime}, Span{long})"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void UpperBound(ReadOnlySpan<DateTime> times, Span<long> results) => _times.Bounds(times, results, SearchBound.Upper);

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
    public void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results) => _times.LastAtOrBefore(times, results);

    /// <summary>The indices of the timestamps equal to <paramref name="time"/>; empty where it would be inserted.</summary>
    public IndexRange EqualRange(DateTime time) => _times.EqualRange(time);

    /// <summary>
    /// The index of the first timestamp equal to <paramref name="time"/>, or the bitwise complement of the index
    /// where it would be inserted.
    /// </summary>
    public long BinarySearch(DateTime time) => _times.BinarySearch(time);

    /// <summary>The indices of the timestamps in <c>[from, to)</c>; empty if <paramref name="to"/> is not after <paramref name="from"/>.</summary>
    public IndexRange FindRange(DateTime from, DateTime to) => _times.FindRange(from, to);

    /// <summary>Appends <paramref name="time"/>, as UTC; see <see cref="Add(DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The series' times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    public void Add(DateTimeOffset time) => Add(Utc(time));

    /// <summary>The first index whose timestamp is at or after <paramref name="time"/>; see <see cref="LowerBound(DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The series' times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    public long LowerBound(DateTimeOffset time) => _times.Bound(time, SearchBound.Lower);

    /// <summary>The first index whose timestamp is after <paramref name="time"/>; see <see cref="UpperBound(DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The series' times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    public long UpperBound(DateTimeOffset time) => _times.Bound(time, SearchBound.Upper);

    /// <summary>The indices of the timestamps in <c>[from, to)</c>; see <see cref="FindRange(DateTime, DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The series' times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    public IndexRange FindRange(DateTimeOffset from, DateTimeOffset to) => _times.FindRange(from, to);

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
    public void CopyTo(IndexRange range, Span<DateTime> destination) => _times.CopyTo(range, destination);

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

    void ITimeSeries.KeepFencesForColdReaders() => Keys.KeepFencesForColdReaders();

    /// <inheritdoc/>
    public override string ToString() => $"{GetType().Name}('{Path}', {Order}, Count = {Count:N0})";

    /// <summary>The end of the bar that holds <paramref name="row"/>, found galloping from it; see <see cref="ITimeColumn.EndOfBar"/>.</summary>
    long ITimeColumn.EndOfBar(long row, long last, long intervalTicks, out DateTime start) =>
        _times.EndOfBar(row, last, intervalTicks, out start);

    // Out of line, so that the message costs the append no frame.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowNotExact(DateTime time) =>
        throw new ArgumentOutOfRangeException(nameof(time), time, $"'{Path}' stores {typeof(TKey).Name} keys, " +
            $"which cannot hold {time:O} exactly.");

    /// <exception cref="InvalidOperationException">The series' times are not UTC.</exception>
    private DateTime Utc(DateTimeOffset time) => StoredTimes.OfOffset(time, TimesAreUtc, Path);

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

            _current = _series._times.TimeOf(_keys.Index, _keys.Current);
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
