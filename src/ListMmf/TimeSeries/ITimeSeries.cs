using System;

namespace ListMmf;

/// <summary>
/// What a table needs of its time column, whichever key type the series stores: the DateTime members that
/// <see cref="TimeSeriesMmf{TKey}"/> offers publicly.
/// </summary>
internal interface ITimeSeries : IDisposable
{
    string Path { get; }

    long Count { get; }

    DataType DataType { get; }

    DateTime this[long index] { get; }

    void Add(DateTime time);

    void AddRange(ReadOnlySpan<DateTime> times);

    long LowerBound(DateTime time);

    long UpperBound(DateTime time);

    IndexRange FindRange(DateTime from, DateTime to);

    void CopyTo(IndexRange range, Span<DateTime> destination);

    void Truncate(long newCount);

    void Flush();

    void Verify();
}
