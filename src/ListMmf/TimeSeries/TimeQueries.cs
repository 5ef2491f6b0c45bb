using System;
using System.Buffers;
using System.Numerics;
using System.Runtime.CompilerServices;
using ListMmf.Search;

namespace ListMmf;

/// <summary>
/// The DateTime layer, written once over every sorted form of time keys (<see cref="ISortedKeys{T}"/>): a time
/// argument placed by the file's zone rule (<see cref="StoredTimes"/>), converted to a key (<typeparamref name="TTimeKey"/>)
/// and searched; stored keys turned back into the times readers are given. The appendable series
/// (<see cref="TimeSeriesMmf{TKey}"/>), a sealed time file or table time column (<c>SealedTimeSeries</c>) and the
/// sealed lists' time searches each hold one, so that a time question has one answer in every form.
/// </summary>
/// <remarks>
/// A bound searches the smallest key at or after the time (for an upper bound, after it) with a lower bound; a time
/// past every key the type holds is past the end. A DateTime the key type cannot hold exactly still gets the right index.
/// </remarks>
/// <typeparam name="TKey">The stored key.</typeparam>
/// <typeparam name="TTimeKey">The conversions between DateTimes and keys.</typeparam>
/// <typeparam name="TKeys">The sorted form searched.</typeparam>
[SkipLocalsInit]
internal readonly struct TimeQueries<TKey, TTimeKey, TKeys>
    where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    where TTimeKey : ITimeKey<TKey>
    where TKeys : struct, ISortedKeys<TKey>
{
    /// <summary>Times converted to keys at a time on the stack, unless a batch is walked as one merge.</summary>
    private const int StackChunk = 64;

    /// <summary>Keys read at a time by a ranged copy of times, on the stack where the form decodes them.</summary>
    private const int CopyChunk = 1024;

    private readonly TKeys _keys;
    private readonly IReadOnlyListMmf<TKey> _list;
    private readonly string _path;

    /// <summary>The times of <paramref name="keys"/>, whose file is <paramref name="list"/>.</summary>
    public TimeQueries(TKeys keys, IReadOnlyListMmf<TKey> list, bool timesAreUtc)
    {
        _keys = keys;
        _list = list;
        _path = list.Path;
        TimesAreUtc = timesAreUtc;
    }

    /// <summary>Whether the times are UTC: arguments are placed, and times returned, by that rule.</summary>
    public bool TimesAreUtc { get; }

    /// <summary>The time at <paramref name="index"/>, as readers are given it.</summary>
    public DateTime this[long index] => TimeOf(index, _keys.KeyAt(index));

    /// <summary>The bound of <paramref name="time"/> among every item.</summary>
    public long Bound(DateTime time, SearchBound bound) =>
        TryKey(Stored(time), bound, out TKey key) ? _keys.Bound(key, SearchBound.Lower) : _keys.Count;

    /// <summary>The bound of <paramref name="time"/> within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long Bound(DateTime time, long first, long last, SearchBound bound)
    {
        if (TryKey(Stored(time), bound, out TKey key))
        {
            return _keys.Bound(key, first, last, SearchBound.Lower);
        }

        SortedSearch.CheckRange(first, last, _keys.Count);
        return last;
    }

    /// <summary>The bound of <paramref name="time"/> by its UTC time, which only a file of UTC times can place.</summary>
    /// <exception cref="InvalidOperationException">The times are not UTC.</exception>
    public long Bound(DateTimeOffset time, SearchBound bound) => Bound(StoredTimes.OfOffset(time, TimesAreUtc, _path), bound);

    /// <summary>
    /// The bound of every time in <paramref name="times"/>, into <paramref name="results"/>, against one count: converted
    /// to keys a stack chunk at a time and searched together by the form, except a batch dense and ascending enough
    /// to be walked as one merge (as <see cref="MergeSearch.Suits"/> tells), whose keys go into one pooled buffer.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void Bounds(ReadOnlySpan<DateTime> times, Span<long> results, SearchBound bound)
    {
        ThrowHelper.CheckResults(results.Length, times.Length, "times");
        long count = _keys.Count;
        if (times.Length <= StackChunk || times.Length * MergeSearch.ItemsPerValue < count || !IsAscending(times))
        {
            Bounds(times, results, bound, count, stackalloc TKey[StackChunk], stackalloc bool[StackChunk]);
            return;
        }

        TKey[] keys = ArrayPool<TKey>.Shared.Rent(times.Length);
        bool[] beyond = ArrayPool<bool>.Shared.Rent(times.Length);
        try
        {
            Bounds(times, results, bound, count, keys.AsSpan(0, times.Length), beyond.AsSpan(0, times.Length));
        }
        finally
        {
            ArrayPool<TKey>.Shared.Return(keys);
            ArrayPool<bool>.Shared.Return(beyond);
        }
    }

    /// <summary>The ASOF join: for each time, the index of the last item at or before it, or -1.</summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results)
    {
        Bounds(times, results, SearchBound.Upper);
        foreach (ref long result in results[..times.Length])
        {
            result--;
        }
    }

    /// <summary>The indices of the items at <paramref name="time"/>; empty where it would be inserted.</summary>
    public IndexRange EqualRange(DateTime time)
    {
        long start = Bound(time, SearchBound.Lower);
        return new IndexRange(start, Math.Max(start, Bound(time, SearchBound.Upper)));
    }

    /// <summary>
    /// The indices of the items in <c>[from, to)</c>: empty where <paramref name="to"/> is not after
    /// <paramref name="from"/>. Both are searched, so that both are checked and placed by the zone rule before they
    /// are compared: as given, a Local time and a Utc one compare their clock readings.
    /// </summary>
    public IndexRange FindRange(DateTime from, DateTime to)
    {
        long start = Bound(from, SearchBound.Lower);
        return new IndexRange(start, Math.Max(start, Bound(to, SearchBound.Lower)));
    }

    /// <summary>The indices of the items in <c>[from, to)</c> by their UTC times.</summary>
    /// <exception cref="InvalidOperationException">The times are not UTC.</exception>
    public IndexRange FindRange(DateTimeOffset from, DateTimeOffset to) =>
        FindRange(StoredTimes.OfOffset(from, TimesAreUtc, _path), StoredTimes.OfOffset(to, TimesAreUtc, _path));

    /// <summary>
    /// The index of the first item at <paramref name="time"/>, or the bitwise complement of the index where it would
    /// be inserted.
    /// </summary>
    public long BinarySearch(DateTime time) =>
        TryExact(time, out TKey key) ? SortedQueries.BinarySearch(_keys, key, 0, _keys.Count) : ~Bound(time, SearchBound.Lower);

    /// <summary>The key that stands for <paramref name="time"/>, placed by the zone rule, exactly; false where the key type cannot hold it.</summary>
    /// <exception cref="ArgumentException">A time of a kind the file cannot place.</exception>
    public bool TryExact(DateTime time, out TKey key) => TTimeKey.TryExact(Stored(time), out key);

    /// <summary>
    /// The bar of <paramref name="intervalTicks"/> (counted from <see cref="DateTime.MinValue"/>) that holds
    /// <paramref name="row"/>: its start, and its end, the first row before <paramref name="last"/> in a later bar (or
    /// <paramref name="last"/>), found near <paramref name="row"/>, since a bar is usually far smaller than the range.
    /// </summary>
    public long EndOfBar(long row, long last, long intervalTicks, out DateTime start)
    {
        DateTime time = TimeAt(row, _keys.KeyAt(row));
        long ticks = time.Ticks - (time.Ticks % intervalTicks);
        start = StoredTimes.Returned(new DateTime(ticks), TimesAreUtc);
        return ticks <= DateTime.MaxValue.Ticks - intervalTicks && TTimeKey.TryAtOrAfter(new DateTime(ticks + intervalTicks), out TKey end)
            ? _keys.BoundNear(end, row + 1, last, SearchBound.Lower)
            : last;
    }

    /// <summary>
    /// The times of <paramref name="range"/> into <paramref name="destination"/>, converted once from the keys: read
    /// over the mapping where the form has them there, else decoded a chunk at a time.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the items.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    /// <exception cref="ListMmfFormatException">A stored key is outside the range of DateTime.</exception>
    public void CopyTo(IndexRange range, Span<DateTime> destination)
    {
        ThrowHelper.SpanLength(range.Start, range.Length, _keys.Count);
        ThrowHelper.CheckDestination(destination.Length, range.Length);
        Span<TKey> buffer = stackalloc TKey[CopyChunk];
        for (long at = range.Start; at < range.End; at += CopyChunk)
        {
            int size = (int)Math.Min(CopyChunk, range.End - at);
            ReadOnlySpan<TKey> keys = _list.Read(new IndexRange(at, at + size), buffer[..size]);
            Span<DateTime> times = destination.Slice((int)(at - range.Start), size);
            for (int i = 0; i < keys.Length; i++)
            {
                times[i] = TimeOf(at + i, keys[i]);
            }
        }
    }

    /// <summary>The time <paramref name="key"/>, at <paramref name="index"/>, stands for, as readers are given it.</summary>
    /// <exception cref="ListMmfFormatException">The key is outside the range of DateTime.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public DateTime TimeOf(long index, TKey key) => StoredTimes.Returned(TimeAt(index, key), TimesAreUtc);

    /// <summary>A key as messages name it: the time it stands for, and the stored key where that differs.</summary>
    public static string Describe(TKey key) => StoredTimes.Describe(key, TTimeKey.TryToDateTime(key, out DateTime time), time);

    /// <summary>A time argument as the file compares it; see <see cref="StoredTimes.Of"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private DateTime Stored(DateTime time) => StoredTimes.Of(time, TimesAreUtc, _path);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryKey(DateTime stored, SearchBound bound, out TKey key) =>
        bound == SearchBound.Lower ? TTimeKey.TryAtOrAfter(stored, out key) : TTimeKey.TryAfter(stored, out key);

    /// <summary>
    /// The bounds of a batch, its times converted into <paramref name="keys"/> a chunk of their length at a time, every
    /// chunk against <paramref name="count"/>. A time past every key the type holds answers the end; its key is the
    /// one before it, which keeps an ascending batch ascending, and so a merge.
    /// </summary>
    private void Bounds(ReadOnlySpan<DateTime> times, Span<long> results, SearchBound bound, long count, Span<TKey> keys, Span<bool> beyond)
    {
        for (int start = 0; start < times.Length; start += keys.Length)
        {
            int size = Math.Min(keys.Length, times.Length - start);
            for (int i = 0; i < size; i++)
            {
                beyond[i] = !TryKey(Stored(times[start + i]), bound, out keys[i]);
                if (beyond[i] && i > 0)
                {
                    keys[i] = keys[i - 1];
                }
            }

            Span<long> chunk = results.Slice(start, size);
            _keys.Bounds(keys[..size], chunk, SearchBound.Lower, count);
            for (int i = 0; i < size; i++)
            {
                if (beyond[i])
                {
                    chunk[i] = count;
                }
            }
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

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private DateTime TimeAt(long index, TKey key)
    {
        if (!TTimeKey.TryToDateTime(key, out DateTime time))
        {
            ThrowOutsideDateTime(index, key);
        }

        return time;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowOutsideDateTime(long index, TKey key) => throw StoredTimes.OutsideDateTime(_path, index, key);
}
