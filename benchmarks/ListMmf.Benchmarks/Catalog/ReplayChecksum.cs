using System;
using System.Collections.Generic;
using System.Diagnostics;

namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// What every way of replaying the market must agree on: a hash of the order the rows came in (each row's time and
/// instrument), and the sum of price times size over them, which makes every way read the values.
/// </summary>
internal struct ReplayChecksum
{
    private const ulong Prime = 1099511628211UL;

    public ulong Order;
    public double Turnover;
    public long Rows;

    public ReplayChecksum()
    {
        Order = 14695981039346656037UL;
    }

    public void Add(long ticks, int instrument, double price, int size)
    {
        Order = (Order ^ (ulong)ticks) * Prime;
        Order = (Order ^ (ulong)instrument) * Prime;
        Turnover += price * size;
        Rows++;
    }

    public override readonly string ToString() => $"{Order:x16}/{Rows}";

    /// <summary>Whether this is <paramref name="expected"/>'s order and rows, and its turnover to a rounding.</summary>
    public readonly bool Matches(ReplayChecksum expected) =>
        Order == expected.Order && Rows == expected.Rows && Math.Abs(Turnover - expected.Turnover) <= 1e-6 * Math.Abs(expected.Turnover);

    /// <summary>
    /// Runs <paramref name="replay"/> and adds its seconds to <paramref name="times"/> under <paramref name="name"/>,
    /// after checking that it gave <paramref name="expected"/>'s order, rows and turnover (to a rounding).
    /// </summary>
    /// <exception cref="InvalidOperationException">The replay gave another checksum.</exception>
    public static void Timed(Dictionary<string, List<double>> times, string name, ReplayChecksum expected, Func<ReplayChecksum> replay)
    {
        var clock = Stopwatch.StartNew();
        ReplayChecksum got = replay();
        double seconds = clock.Elapsed.TotalSeconds;
        if (!got.Matches(expected))
        {
            throw new InvalidOperationException($"{name} gave checksum {got} (turnover {got.Turnover}), not {expected} ({expected.Turnover})");
        }

        if (!times.TryGetValue(name, out List<double>? list))
        {
            times.Add(name, list = []);
        }

        list.Add(seconds);
    }
}
