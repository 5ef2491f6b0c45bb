using System;

namespace ListMmf;

/// <summary>
/// What a table needs of its time column, whichever key type the series stores: the DateTime members that
/// <see cref="TimeSeriesMmf{TKey}"/> offers publicly.
/// </summary>
internal interface ITimeSeries : IListMmf
{
    DateTime this[long index] { get; }

    void Add(DateTime time);

    void AddRange(ReadOnlySpan<DateTime> times);

    long LowerBound(DateTime time);

    void LowerBound(ReadOnlySpan<DateTime> times, Span<long> results);

    void Add(DateTimeOffset time);

    long LowerBound(DateTimeOffset time);

    long UpperBound(DateTimeOffset time);

    IndexRange FindRange(DateTimeOffset from, DateTimeOffset to);

    long UpperBound(DateTime time);

    long LastAtOrBefore(DateTime time);

    void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results);

    long EndOfBar(long row, long last, long intervalTicks, out DateTime start);

    IndexRange FindRange(DateTime from, DateTime to);

    void CopyTo(IndexRange range, Span<DateTime> destination);

    void Truncate(long newCount);

    void Verify();

    /// <summary>The stored key type: <see cref="int"/> for Unix seconds, <see cref="long"/> for DateTime ticks.</summary>
    Type KeyType { get; }

    /// <summary>Appends stored keys, whose type is <see cref="KeyType"/>.</summary>
    void AddKeys<TKey>(ReadOnlySpan<TKey> keys)
        where TKey : unmanaged;

    /// <summary>
    /// Writes stored keys after the published ones and the <paramref name="pending"/> keys staged before, checked
    /// against the order, without publishing them: no reader sees them until <see cref="PublishStaged"/>.
    /// </summary>
    void StageKeys<TKey>(ReadOnlySpan<TKey> keys, long pending)
        where TKey : unmanaged;

    /// <summary>Publishes the <paramref name="count"/> staged keys with one count update.</summary>
    void PublishStaged(long count);
}
