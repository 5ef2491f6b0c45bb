using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Csv;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// The last price of each of many instruments at a time T, as a backtest asks it at every step: the first ticks dealt
/// to <see cref="Count"/> instruments in turn. ListMmf keeps a table per instrument and asks each its
/// <see cref="TimeSeriesTable.LastAtOrBefore(DateTime)"/>; DuckDB keeps one table with a symbol column and asks
/// <c>arg_max(price, row) ... where time &lt;= T group by symbol</c>. Rounds as <see cref="QueryRounds"/>' are: a
/// fresh T each, the two in a new order each, round 0 not counted, every answer compared.
/// </summary>
internal static class Instruments
{
    public const int Count = 1_000;

    /// <summary>The operation's row.</summary>
    public static string Operation(long rows) => $"Last price of {Count:N0} instruments at T ({rows:N0} ticks, a table each; DuckDB: arg_max by symbol), per T";

    public static void Run(PeersRequest request, string folder, ListMmfPeer ours, DuckDbPeer duckDb, PeersResults results, List<string> failures)
    {
        long rows = Math.Min(request.Rows, 10_000_000);
        Console.Error.WriteLine($"peers: dealing {rows:N0} ticks to {Count:N0} instruments");
        duckDb.PrepareInstruments(Count, rows);
        TimeSeriesTable[] tables = Deal(ours.Folder, folder, rows);
        TableColumn<double>[] columns = tables.Select(table => table.Column<double>("price")).ToArray();
        try
        {
            var random = new SplitMix64(77);
            var order = new Random(19);
            var timings = new List<Timing>[] { [], [] };
            var ourPrices = new double[Count];
            var duckPrices = new double[Count];
            int first = TickCsv.TimeOf(0);
            int last = TickCsv.TimeOf(rows - 1);
            for (int round = 0; round <= request.Rounds; round++)
            {
                int time = QueryRounds.Targets(random, 1, first, last)[0];
                foreach (int store in order.Next(2) == 0 ? new[] { 0, 1 } : [1, 0])
                {
                    CpuCaches.Evict();
                    Timing timing = store == 0
                        ? Timing.Once(1, () => LastPrices(tables, columns, ListMmfTimeSeriesDateTimeSeconds.ToDateTime(time), ourPrices))
                        : Timing.Once(1, () => duckDb.LastPrices(time, duckPrices));
                    if (round > 0)
                    {
                        timings[store].Add(timing);
                    }
                }

                int wrong = Enumerable.Range(0, Count).FirstOrDefault(i => !ourPrices[i].Equals(duckPrices[i]), -1);
                failures.Check(wrong < 0, wrong < 0 ? "" : $"instrument {wrong}'s last price at {time}: ListMmf {ourPrices[wrong]}, DuckDB {duckPrices[wrong]}");
            }

            string operation = Operation(rows);
            results.Add(operation, ours.Name, Timing.Median(timings[0]).WallNanoseconds, $"{Count:N0} searches", unit: "ns");
            results.Add(operation, duckDb.Name, Timing.Median(timings[1]).WallNanoseconds, "one query on every core", unit: "ns");
        }
        finally
        {
            foreach (TimeSeriesTable table in tables)
            {
                table.Dispose();
            }

            BenchmarkFiles.DeleteDirectory(folder);
        }
    }

    /// <summary>Each instrument's last price at or before <paramref name="time"/>, NaN where it has none.</summary>
    private static void LastPrices(TimeSeriesTable[] tables, TableColumn<double>[] columns, DateTime time, Span<double> prices)
    {
        for (int i = 0; i < tables.Length; i++)
        {
            long row = tables[i].LastAtOrBefore(time);
            prices[i] = row < 0 ? double.NaN : columns[i][row];
        }
    }

    /// <summary>A table per instrument in <paramref name="folder"/>, from the first <paramref name="rows"/> ticks of the loaded table.</summary>
    private static TimeSeriesTable[] Deal(string loaded, string folder, long rows)
    {
        using TimeSeriesTable source = TimeSeriesTable.Open(loaded, FileAccess.Read);
        ReadOnlySpan<int> times = source.Column<int>(source.Schema.Time.Name).AsSpan(0, (int)rows);
        ReadOnlySpan<double> prices = source.Column<double>("price").AsSpan(0, (int)rows);
        var tables = new TimeSeriesTable[Count];
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual).Add<double>("price");
        int length = (int)((rows + Count - 1) / Count);
        var instrumentTimes = new int[length];
        var instrumentPrices = new double[length];
        for (int instrument = 0; instrument < Count; instrument++)
        {
            int n = 0;
            for (int row = instrument; row < rows; row += Count, n++)
            {
                instrumentTimes[n] = times[row];
                instrumentPrices[n] = prices[row];
            }

            tables[instrument] = TimeSeriesTable.Create(Path.Combine(folder, $"i{instrument:D4}"), schema);
            tables[instrument].Column<double>("price").AddRange(instrumentPrices.AsSpan(0, n));
            tables[instrument].AddRows(instrumentTimes.AsSpan(0, n));
        }

        return tables;
    }
}
