using System;
using System.Numerics;
using ListMmf.Search;

namespace ListMmf.Sealed;

/// <summary>
/// The time column of a sealed table, or a time file sealed: a sealed file of <typeparamref name="TKey"/> keys read as
/// times through the DateTime layer the appendable series use (<see cref="TimeQueries{TKey, TTimeKey, TKeys}"/>), so
/// that a table answers every time question the same before and after its seal. Read-only: a sealed file never changes.
/// </summary>
internal sealed class SealedTimeSeries<TKey, TTimeKey> : ITimeColumn
    where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    where TTimeKey : ITimeKey<TKey>
{
    private const int Chunk = SealedLayout.BlockValues;

    private readonly SortedOrder _order;

    /// <summary>The DateTime layer over the keys, written once for every form of times.</summary>
    private readonly TimeQueries<TKey, TTimeKey, SealedSortedKeys<TKey>> _times;

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
        _times = new(new SealedSortedKeys<TKey>(keys), keys, keys.TimesAreUtc);
    }

    public SealedListMmf<TKey> Keys { get; }

    public string Path => Keys.Path;

    public DataType DataType => Keys.DataType;

    public long Count => Keys.Count;

    public bool TimesAreUtc => Keys.TimesAreUtc;

    public DateTime this[long index] => _times[index];

    public long LowerBound(DateTime time) => _times.Bound(time, SearchBound.Lower);

    public long UpperBound(DateTime time) => _times.Bound(time, SearchBound.Upper);

    public void LowerBound(ReadOnlySpan<DateTime> times, Span<long> results) => _times.Bounds(times, results, SearchBound.Lower);

    public void UpperBound(ReadOnlySpan<DateTime> times, Span<long> results) => _times.Bounds(times, results, SearchBound.Upper);

    public long LowerBound(DateTimeOffset time) => _times.Bound(time, SearchBound.Lower);

    public long UpperBound(DateTimeOffset time) => _times.Bound(time, SearchBound.Upper);

    public IndexRange FindRange(DateTime from, DateTime to) => _times.FindRange(from, to);

    public IndexRange FindRange(DateTimeOffset from, DateTimeOffset to) => _times.FindRange(from, to);

    public long LastAtOrBefore(DateTime time) => UpperBound(time) - 1;

    public void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results) => _times.LastAtOrBefore(times, results);

    public long EndOfBar(long row, long last, long intervalTicks, out DateTime start) => _times.EndOfBar(row, last, intervalTicks, out start);

    public void CopyTo(IndexRange range, Span<DateTime> destination) => _times.CopyTo(range, destination);

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

    private static string Describe(TKey key) => TimeQueries<TKey, TTimeKey, SealedSortedKeys<TKey>>.Describe(key);
}
