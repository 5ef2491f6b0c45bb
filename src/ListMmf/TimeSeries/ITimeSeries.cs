using System;

namespace ListMmf;

/// <summary>
/// What a table's writer needs of its time column, whichever key type the series stores: the reads, and the DateTime
/// and stored-key writes that <see cref="TimeSeriesMmf{TKey}"/> offers. Only an appendable series is one.
/// </summary>
internal interface ITimeSeries : ITimeColumn
{
    bool IsWritable { get; }

    void Flush();

    /// <summary>
    /// The writer's part in a cold start after its rows are durable (see
    /// <see cref="Search.SortedCore{T, TItem, TKeyOf}.KeepFencesForColdReaders"/>), for a flush that made them durable
    /// without <see cref="Flush"/>.
    /// </summary>
    void KeepFencesForColdReaders();

    void Add(DateTime time);

    void AddRange(ReadOnlySpan<DateTime> times);

    void Add(DateTimeOffset time);

    void Truncate(long newCount);

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
