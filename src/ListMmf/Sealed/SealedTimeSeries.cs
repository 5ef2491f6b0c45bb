using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using ListMmf.Search;

namespace ListMmf.Sealed;

/// <summary>
/// The time column of a sealed table: a sealed file of <typeparamref name="TKey"/> keys read as times, through the
/// conversions (<typeparamref name="TTimeKey"/>) and time-zone rules (<see cref="StoredTimes"/>) of the appendable
/// series, so that a table answers every time question the same before and after its seal. Read-only: a sealed file
/// never changes.
/// </summary>
[SkipLocalsInit]
internal sealed class SealedTimeSeries<TKey, TTimeKey> : ITimeColumn
    where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    where TTimeKey : ITimeKey<TKey>
{
    private const int Chunk = SealedLayout.BlockValues;

    /// <summary>The times of a batch converted to keys at once, on the stack.</summary>
    private const int BatchChunk = 256;

    private readonly SortedOrder _order;

    /// <summary>
    /// The sealed time file <paramref name="keys"/> read in <paramref name="order"/>: a table's time column (its file
    /// records none, the manifest does), or a series sealed, whose recorded order is checked as the appendable series checks it.
    /// </summary>
    public SealedTimeSeries(SealedListMmf<TKey> keys, TimeSeriesOrder order)
    {
        if (keys.DataType != TTimeKey.DataType)
        {
            keys.Dispose();
            throw new ListMmfDataTypeException(keys.Path, $"it holds {DataTypeInfo.Of(keys.DataType).Describe()}, not " +
                $"{TTimeKey.DataType} times.");
        }

        Keys = keys;
        _order = SortedOrder.Of(order, keys.RecordedOrder);
    }

    public SealedListMmf<TKey> Keys { get; }

    public string Path => Keys.Path;

    public DataType DataType => Keys.DataType;

    public long Count => Keys.Count;

    public bool TimesAreUtc => Keys.TimesAreUtc;

    public DateTime this[long index] => StoredTimes.Returned(TimeAt(index, Keys[index]), TimesAreUtc);

    public long LowerBound(DateTime time) => SealedListMmfSearch.TimeBound<TKey, TTimeKey>(Keys, time, SearchBound.Lower);

    public long UpperBound(DateTime time) => SealedListMmfSearch.TimeBound<TKey, TTimeKey>(Keys, time, SearchBound.Upper);

    public void LowerBound(ReadOnlySpan<DateTime> times, Span<long> results) => Bounds(times, results, SearchBound.Lower);

    public long LowerBound(DateTimeOffset time) => LowerBound(StoredTimes.OfOffset(time, TimesAreUtc, Path));

    public long UpperBound(DateTimeOffset time) => UpperBound(StoredTimes.OfOffset(time, TimesAreUtc, Path));

    public IndexRange FindRange(DateTime from, DateTime to) => StoredTimes.Between(this, from, to);

    public IndexRange FindRange(DateTimeOffset from, DateTimeOffset to) =>
        FindRange(StoredTimes.OfOffset(from, TimesAreUtc, Path), StoredTimes.OfOffset(to, TimesAreUtc, Path));

    public long LastAtOrBefore(DateTime time) => UpperBound(time) - 1;

    public void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results)
    {
        Bounds(times, results, SearchBound.Upper);
        foreach (ref long result in results[..times.Length])
        {
            result--;
        }
    }

    /// <summary>
    /// The end of the bar that holds <paramref name="row"/>: the first row in <c>(row, last)</c> at or after the next
    /// interval's start, found by one search of the whole file (its keys are in order), or <paramref name="last"/>.
    /// </summary>
    public long EndOfBar(long row, long last, long intervalTicks, out DateTime start)
    {
        DateTime time = TimeAt(row, Keys[row]);
        long ticks = time.Ticks - (time.Ticks % intervalTicks);
        start = StoredTimes.Returned(new DateTime(ticks), TimesAreUtc);
        return ticks <= DateTime.MaxValue.Ticks - intervalTicks && TTimeKey.TryAtOrAfter(new DateTime(ticks + intervalTicks), out TKey end)
            ? Math.Clamp(Keys.Bound(end, SearchBound.Lower), row + 1, last)
            : last;
    }

    public void CopyTo(IndexRange range, Span<DateTime> destination)
    {
        ThrowHelper.SpanLength(range.Start, range.Length, Count);
        ThrowHelper.CheckDestination(destination.Length, range.Length);
        Span<TKey> keys = stackalloc TKey[Chunk];
        for (long at = range.Start; at < range.End; at += Chunk)
        {
            int size = (int)Math.Min(Chunk, range.End - at);
            Keys.CopyTo(at, keys[..size]);
            Span<DateTime> times = destination.Slice((int)(at - range.Start), size);
            for (int i = 0; i < size; i++)
            {
                times[i] = StoredTimes.Returned(TimeAt(at + i, keys[i]), TimesAreUtc);
            }
        }
    }

    /// <summary>Every block's checksum, then the order of the times, a block at a time.</summary>
    public void Verify(IProgress<double>? progress)
    {
        Keys.Verify(progress is null ? null : new ScaledProgress(progress, 0, 0.5));
        Span<TKey> keys = stackalloc TKey[Chunk];
        TKey previous = default;
        for (long at = 0; at < Count; at += Chunk)
        {
            int size = (int)Math.Min(Chunk, Count - at);
            Keys.CopyTo(at, keys[..size]);
            for (int i = at == 0 ? 1 : 0; i < size; i++)
            {
                TKey before = i == 0 ? previous : keys[i - 1];
                if (!_order.Verified.Allows(before, keys[i]))
                {
                    throw _order.Corrupt(Path, "time", at + i, Describe(keys[i]), Describe(before));
                }
            }

            previous = keys[size - 1];
            progress?.Report(0.5 + (0.5 * (at + size) / Count));
        }

        if (Count == 0)
        {
            progress?.Report(1);
        }
    }

    public void Dispose() => Keys.Dispose();

    /// <summary>
    /// The bounds of <paramref name="times"/>, converted to keys a stack chunk at a time and searched together (ascending
    /// ones as a merge, <see cref="SealedListMmf{T}.Bounds"/>); a time past every key the type holds is past the end.
    /// </summary>
    private void Bounds(ReadOnlySpan<DateTime> times, Span<long> results, SearchBound bound)
    {
        ThrowHelper.CheckResults(results.Length, times.Length, "times");
        Span<TKey> keys = stackalloc TKey[BatchChunk];
        Span<bool> beyond = stackalloc bool[BatchChunk];
        long count = Count;
        for (int start = 0; start < times.Length; start += BatchChunk)
        {
            int size = Math.Min(BatchChunk, times.Length - start);
            for (int i = 0; i < size; i++)
            {
                DateTime stored = StoredTimes.Of(times[start + i], TimesAreUtc, Path);
                beyond[i] = !(bound == SearchBound.Lower ? TTimeKey.TryAtOrAfter(stored, out keys[i]) : TTimeKey.TryAfter(stored, out keys[i]));
                if (beyond[i] && i > 0)
                {
                    // Its answer is the end whatever the key; the one before keeps an ascending batch a merge.
                    keys[i] = keys[i - 1];
                }
            }

            Span<long> chunk = results.Slice(start, size);
            Keys.Bounds(keys[..size], chunk, SearchBound.Lower);
            for (int i = 0; i < size; i++)
            {
                if (beyond[i])
                {
                    chunk[i] = count;
                }
            }
        }
    }

    private static string Describe(TKey key) => StoredTimes.Describe(key, TTimeKey.TryToDateTime(key, out DateTime time), time);

    private DateTime TimeAt(long index, TKey key) =>
        TTimeKey.TryToDateTime(key, out DateTime time) ? time : throw StoredTimes.OutsideDateTime(Path, index, key);
}
