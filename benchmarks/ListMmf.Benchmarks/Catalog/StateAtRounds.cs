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
/// <see cref="TimeSeriesCatalog.StateAt"/> on a catalog just opened with the folder's pages dropped (Linux), on a
/// catalog just opened (every partition opened, pages in the page cache), and warm (its partitions in the catalog's
/// cache, as a backtest's later steps of a day find them); beside DuckDB's <c>arg_max(price, seq) ... where time
/// &lt;= T group by instrument</c> over one table of the same rows, warm, and opened again before the question (its
/// connection closed, which closes its database and its buffers, and opened), with the file's pages dropped and
/// cached, as the catalog is. T is a fresh time of the first day each round, round 0 not counted, every answer
/// compared with the arrays'; the warm rounds after calls enough for the runtime to have optimized the code they run.
/// The cold rounds come first, while nothing maps the catalog's files, since pages a process maps cannot be dropped.
/// </summary>
internal static class StateAtRounds
{
    private const string Duck = "DuckDB arg_max by instrument, warm";

    /// <summary>Calls before the warm rounds: more than the runtime's tiered compilation takes to optimize the calls' code.</summary>
    private const int WarmUpCalls = 60;

    public static void Run(CatalogMarket market, string folder, DuckDBConnection duck, string duckPath, int rounds)
    {
        var random = new Random(4);
        var times = new Dictionary<string, List<double>>();
        var expected = new double[market.Names.Length];
        var duckPrices = new double[market.Names.Length];
        long open = CatalogMarket.FirstDay.AddHours(9.5).Ticks;
        DateTime NextTime()
        {
            var time = new DateTime(open + (long)(random.NextDouble() * TimeSpan.FromHours(6.5).Ticks));
            LastPrices(market, time.Ticks, expected);
            return time;
        }

        void Check(string name, DateTime time, ReadOnlySpan<double> got)
        {
            for (int i = 0; i < expected.Length; i++)
            {
                if (!expected[i].Equals(got[i]))
                {
                    throw new InvalidOperationException($"{name}: instrument {i}'s last price at {time:O} is {got[i]}, not {expected[i]}");
                }
            }
        }

        void AskDuck(int round, DateTime time) => Time(times, round, Duck, () =>
        {
            DuckLastPrices(duck, time.Ticks, duckPrices);
            Check("DuckDB", time, duckPrices);
        });

        void ReopenAndAskDuck(int round, DateTime time, string name, bool drop)
        {
            duck.Close();
            if (drop)
            {
                PageCache.DropFile(duckPath);
            }

            Time(times, round, name, () =>
            {
                duck.Open();
                DuckLastPrices(duck, time.Ticks, duckPrices);
                Check(name, time, duckPrices);
            });
        }

        for (int round = 0; round <= rounds; round++)
        {
            DateTime time = NextTime();
            if (PageCache.CanDrop)
            {
                PageCache.Drop(folder);
                Time(times, round, "open + StateAt, pages dropped", () => Check("cold", time, OpenAndAsk(folder, time)));
                ReopenAndAskDuck(round, time, "DuckDB open + arg_max, pages dropped", drop: true);
            }

            Time(times, round, "open + StateAt, pages cached", () => Check("opened", time, OpenAndAsk(folder, time)));
            ReopenAndAskDuck(round, time, "DuckDB open + arg_max, pages cached", drop: false);
            AskDuck(round, time);
        }

        using (var warm = TimeSeriesCatalog.Open(folder, FileAccess.Read))
        {
            // Warm as a backtest's later steps find it: its code optimized by the runtime too, which a handful of calls
            // leaves unoptimized (each one then costs several times as much), as it does DuckDB's managed side.
            for (int call = 0; call < WarmUpCalls; call++)
            {
                DateTime time = NextTime();
                Check("warm", time, warm.StateAt("trades", time, ["price"]).Values<double>(0));
                DuckLastPrices(duck, time.Ticks, duckPrices);
            }

            for (int round = 0; round <= rounds; round++)
            {
                DateTime time = NextTime();
                Time(times, round, "StateAt, warm", () => Check("warm", time, warm.StateAt("trades", time, ["price"]).Values<double>(0)));
                AskDuck(round, time);
            }
        }

        // Each of the catalog's rows beside DuckDB's in the same state: opened with the pages dropped, opened with them
        // cached, warm.
        string DuckBeside(string name) => name switch
        {
            "open + StateAt, pages dropped" => "DuckDB open + arg_max, pages dropped",
            "open + StateAt, pages cached" => "DuckDB open + arg_max, pages cached",
            _ => Duck,
        };
        Console.WriteLine($"| last price of {market.Names.Length:N0} instruments at T ({market.Rows:N0} trades) | median ms | DuckDB in the same state / this |");
        Console.WriteLine("|---|---:|---:|");
        foreach ((string name, List<double> timed) in times)
        {
            double median = Medians.Of(timed);
            string ratio = name.StartsWith("DuckDB", StringComparison.Ordinal) ? "1.0x" : $"{Medians.Of(times[DuckBeside(name)]) / median:N1}x";
            Console.WriteLine($"| {name} | {median * 1e3:N3} | {ratio} |");
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
