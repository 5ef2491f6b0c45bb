using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using DuckDB.NET.Data;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Peers;

namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// The last price of every instrument at a time T, as a backtest asks at each step: the catalog's
/// <see cref="TimeSeriesCatalog.StateAt"/> warm (its partitions in the catalog's cache), on a catalog just opened
/// (every partition opened, pages in the page cache), and on a catalog just opened with the folder's pages dropped
/// (Linux); beside DuckDB's <c>arg_max(price, seq) ... where time &lt;= T group by instrument</c> over one table of
/// the same rows, warm. A fresh T each round, round 0 not counted, every answer compared with the arrays'.
/// </summary>
internal static class StateAtRounds
{
    public static void Run(CatalogMarket market, string folder, DuckDBConnection duck, int rounds)
    {
        var random = new Random(4);
        var times = new Dictionary<string, List<double>>();
        var expected = new double[market.Names.Length];
        var duckPrices = new double[market.Names.Length];
        using var warm = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        long first = market.Times.Min(series => series[0]);
        long last = market.Times.Max(series => series[^1]);
        for (int round = 0; round <= rounds; round++)
        {
            var time = new DateTime(first + (long)(random.NextDouble() * (last - first)));
            LastPrices(market, time.Ticks, expected);
            void Check(string name, ReadOnlySpan<double> got)
            {
                for (int i = 0; i < expected.Length; i++)
                {
                    if (!expected[i].Equals(got[i]))
                    {
                        throw new InvalidOperationException($"{name}: instrument {i}'s last price at {time:O} is {got[i]}, not {expected[i]}");
                    }
                }
            }

            Time(times, round, "StateAt, warm", () => Check("warm", warm.StateAt("trades", time, ["price"]).Values<double>(0)));
            Time(times, round, "open + StateAt, pages cached", () => Check("opened", OpenAndAsk(folder, time)));
            if (PageCache.CanDrop)
            {
                PageCache.Drop(folder);
                Time(times, round, "open + StateAt, pages dropped", () => Check("cold", OpenAndAsk(folder, time)));
            }

            Time(times, round, "DuckDB arg_max by instrument, warm", () =>
            {
                DuckLastPrices(duck, time.Ticks, duckPrices);
                Check("DuckDB", duckPrices);
            });
        }

        double duckMedian = Medians.Of(times["DuckDB arg_max by instrument, warm"]);
        Console.WriteLine($"| last price of {market.Names.Length:N0} instruments at T ({market.Rows:N0} trades) | median ms | DuckDB / this |");
        Console.WriteLine("|---|---:|---:|");
        foreach ((string name, List<double> timed) in times)
        {
            double median = Medians.Of(timed);
            Console.WriteLine($"| {name} | {median * 1e3:N3} | {duckMedian / median:N1}x |");
        }
    }

    private static double[] OpenAndAsk(string folder, DateTime time)
    {
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        return catalog.StateAt("trades", time, ["price"]).Values<double>(0).ToArray();
    }

    /// <summary>Each instrument's last price at or before <paramref name="ticks"/> by a search of its arrays; NaN where none.</summary>
    private static void LastPrices(CatalogMarket market, long ticks, double[] prices)
    {
        for (int i = 0; i < prices.Length; i++)
        {
            int at = Array.BinarySearch(market.Times[i], ticks + 1);
            at = (at < 0 ? ~at : at) - 1;
            while (at + 1 < market.Times[i].Length && market.Times[i][at + 1] <= ticks)
            {
                at++;
            }

            prices[i] = at < 0 ? 0 : market.Prices[i][at];
        }
    }

    private static void DuckLastPrices(DuckDBConnection connection, long ticks, double[] prices)
    {
        Array.Clear(prices);
        using DuckDBCommand command = connection.CreateCommand();
        command.CommandText = $"select instrument, arg_max(price, seq) from trades where time <= {ticks} group by instrument";
        using DuckDBDataReader reader = command.ExecuteReader();
        while (reader.Read())
        {
            prices[reader.GetInt32(0)] = reader.GetDouble(1);
        }
    }

    private static void Time(Dictionary<string, List<double>> times, int round, string name, Action ask)
    {
        var clock = Stopwatch.StartNew();
        ask();
        double seconds = clock.Elapsed.TotalSeconds;
        if (round == 0)
        {
            return;
        }

        if (!times.TryGetValue(name, out List<double>? list))
        {
            times.Add(name, list = []);
        }

        list.Add(seconds);
    }
}
