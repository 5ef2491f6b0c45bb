using System;

namespace ListMmf;

/// <summary>
/// The reads of a time column in either form, whichever key type it stores: an appendable series
/// (<see cref="TimeSeriesMmf{TKey}"/>) or a sealed one, asked in DateTimes through the same conversions and time-zone
/// rules. What a table, the tool and bars read; <see cref="ITimeSeries"/> adds the writes.
/// </summary>
internal interface IReadOnlyTimeSeries : IDisposable
{
    string Path { get; }

    DataType DataType { get; }

    long Count { get; }

    /// <summary>Whether the times are UTC: returned as <see cref="DateTimeKind.Utc"/>, and DateTimeOffsets taken.</summary>
    bool TimesAreUtc { get; }

    DateTime this[long index] { get; }

    long LowerBound(DateTime time);

    void LowerBound(ReadOnlySpan<DateTime> times, Span<long> results);

    long UpperBound(DateTime time);

    long LowerBound(DateTimeOffset time);

    long UpperBound(DateTimeOffset time);

    IndexRange FindRange(DateTime from, DateTime to);

    IndexRange FindRange(DateTimeOffset from, DateTimeOffset to);

    long LastAtOrBefore(DateTime time);

    void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results);

    /// <summary>The end of the bar of <paramref name="intervalTicks"/> that holds <paramref name="row"/>, at most <paramref name="last"/>.</summary>
    long EndOfBar(long row, long last, long intervalTicks, out DateTime start);

    void CopyTo(IndexRange range, Span<DateTime> destination);

    /// <summary>The file checked as it is on disk, then the order of its times.</summary>
    void Verify(IProgress<double>? progress);
}
