using System;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// One store in the peers comparison, holding the same ticks (time in Unix seconds, equal times allowed; price;
/// size) and answering the same questions. A row's index is its place in the CSV, from 0.
/// </summary>
internal interface IPeerStore : IDisposable
{
    string Name { get; }

    /// <summary>Whether <see cref="FirstAtOrAfter(ReadOnlySpan{int}, Span{long})"/> is one call to the store rather than a loop of single lookups.</summary>
    bool HasBatch { get; }

    /// <summary>Loads the generated CSV into a new store; returns the rows loaded.</summary>
    long Load(string csv);

    /// <summary>The index of the first tick at or after <paramref name="time"/>, or the row count when there is none.</summary>
    long FirstAtOrAfter(int time);

    /// <summary>The same for each of <paramref name="times"/>.</summary>
    void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results);

    /// <summary>The sum of price times size over the ticks with times in [<paramref name="from"/>, <paramref name="to"/>).</summary>
    double Turnover(int from, int to);

    /// <summary>Appends the rows one at a time, then makes them durable, the store's fastest way.</summary>
    void Append(TickRow[] rows);

    /// <summary>The bytes the store's files take on disk (allocated blocks).</summary>
    long DiskBytes();
}

/// <summary>One tick.</summary>
internal readonly record struct TickRow(int Time, double Price, int Size);
