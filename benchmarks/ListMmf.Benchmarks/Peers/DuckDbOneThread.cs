using System;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// The same DuckDB database queried with <c>threads = 1</c>: what its queries cost where no core is spare for it
/// (a backtest running one process per core). Loading, appending and disk are the <see cref="DuckDbPeer"/>'s.
/// </summary>
internal sealed class DuckDbOneThread(DuckDbPeer database) : IPeerQueries
{
    public string Name => "DuckDB, 1 thread";

    public bool HasBatch => database.HasBatch;

    public bool HasQueryLanguage => database.HasQueryLanguage;

    public IDisposable ReadScope() => database.OneThread();

    public long Echo(int value) => database.Echo(value);

    public long FirstAtOrAfter(int time) => database.FirstAtOrAfter(time);

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results) => database.FirstAtOrAfter(times, results);

    public void LastAtOrBefore(ReadOnlySpan<int> times, Span<long> results) => database.LastAtOrBefore(times, results);

    public bool HasAnalytics => database.HasAnalytics;

    public OhlcvBar[] MinuteBars() => database.MinuteBars();

    public double Turnover(int from, int to) => database.Turnover(from, to);

    public HourVwap[] HourlyVwap() => database.HourlyVwap();

    public long CountWhere(double price, int size) => database.CountWhere(price, size);
}
