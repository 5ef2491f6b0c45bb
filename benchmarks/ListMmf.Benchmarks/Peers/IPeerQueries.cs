using System;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// The questions every store in the peers comparison answers over the same ticks (time in Unix seconds, equal times
/// allowed; price; size). A row's index is its place in the CSV, from 0.
/// </summary>
internal interface IPeerQueries
{
    string Name { get; }

    /// <summary>Whether <see cref="FirstAtOrAfter(ReadOnlySpan{int}, Span{long})"/> is one call to the store rather than a loop of single lookups.</summary>
    bool HasBatch { get; }

    /// <summary>Whether the store has a query language, whose fixed cost per query <see cref="Echo"/> measures.</summary>
    bool HasQueryLanguage { get; }

    /// <summary>Starts what the store's expert wraps a loop of queries in (a read transaction, a setting); disposing it ends that.</summary>
    IDisposable ReadScope();

    /// <summary>The cheapest query there is (<c>select $1</c>): what every query costs before it reads anything.</summary>
    long Echo(int value);

    /// <summary>The index of the first tick at or after <paramref name="time"/>, or the row count when there is none.</summary>
    long FirstAtOrAfter(int time);

    /// <summary>The same for each of <paramref name="times"/>.</summary>
    void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results);

    /// <summary>
    /// The ASOF join of ascending trade times to the ticks: for each, the index of the last tick at or before it, or
    /// -1. Only where <see cref="HasBatch"/>: one call to the store.
    /// </summary>
    void LastAtOrBefore(ReadOnlySpan<int> times, Span<long> results) => throw new NotSupportedException($"{Name} has no batch API.");

    /// <summary>Whether the store answers a backtest's analytic questions in one call of its own: <see cref="MinuteBars"/>.</summary>
    bool HasAnalytics => false;

    /// <summary>
    /// The one-minute OHLCV bars of the whole table (<c>time / 60</c>), in time order, each with its rows, the first and
    /// last row's prices, the high and low, sum(size) and sum(price * size). Only where <see cref="HasAnalytics"/>.
    /// </summary>
    OhlcvBar[] MinuteBars() => throw new NotSupportedException($"{Name} has no bars.");

    /// <summary>The sum of price times size over the ticks with times in [<paramref name="from"/>, <paramref name="to"/>).</summary>
    double Turnover(int from, int to);

    /// <summary>
    /// The volume-weighted average price of every hour (<c>time / 3600</c>) that has ticks, over the whole table, in
    /// hour order: sum(price * size) / sum(size).
    /// </summary>
    HourVwap[] HourlyVwap();

    /// <summary>How many ticks of the whole table have a price of at least <paramref name="price"/> and a size of at least <paramref name="size"/>.</summary>
    long CountWhere(double price, int size);
}

/// <summary>One hour's volume-weighted average price.</summary>
internal readonly record struct HourVwap(int Hour, double Vwap);

/// <summary>A scope that does nothing, for stores whose reads need none.</summary>
internal sealed class NoScope : IDisposable
{
    public static readonly NoScope Instance = new();

    public void Dispose()
    {
    }
}
