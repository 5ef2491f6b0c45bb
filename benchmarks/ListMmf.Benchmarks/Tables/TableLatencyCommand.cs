using System;
using System.Diagnostics;
using System.IO;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Ipc;

namespace ListMmf.Benchmarks.Tables;

/// <summary>
/// <c>table-latency</c>: the latency of adding one row to a four-column table (three values through the column
/// handles, then <see cref="TimeSeriesTable.AddRow(DateTime)"/>), each row timed on its own, as percentiles;
/// beside the same percentiles of an empty timed region, which is the clock's own cost. Per round, the table is
/// truncated and refilled, its pages already mapped; the capacity is faulted in up front
/// (<see cref="ListMmfOptions.PrefaultAhead"/>), as a live writer that wants steady latency would open it.
/// </summary>
internal static class TableLatencyCommand
{
    public static int Run(int rows, int rounds)
    {
        var data = new TickRows(rows);
        string directory = BenchmarkFiles.FreshDirectory("table-latency");
        var options = new ListMmfOptions { InitialCapacity = rows, PrefaultAhead = true };
        var rowTicks = new long[rows];
        var clockTicks = new long[rows];
        try
        {
            using TimeSeriesTable table = TimeSeriesTable.Create(directory, TickRows.Schema(), options);
            TableColumn<double> price = table.Column<double>("price");
            TableColumn<int> size = table.Column<int>("size");
            TableColumn<long> sequence = table.Column<long>("sequence");
            Console.WriteLine($"table-latency: {rows:N0} rows per round, {rounds} rounds; nanoseconds per row (count p50 p99 p99.9 max)");
            for (int round = 0; round < rounds; round++)
            {
                table.Truncate(0);
                for (int i = 0; i < rows; i++)
                {
                    long start = Stopwatch.GetTimestamp();
                    price.Add(data.Prices[i]);
                    size.Add(data.Sizes[i]);
                    sequence.Add(data.Sequences[i]);
                    table.AddRow(data.Times[i]);
                    rowTicks[i] = Stopwatch.GetTimestamp() - start;
                }

                for (int i = 0; i < rows; i++)
                {
                    long start = Stopwatch.GetTimestamp();
                    clockTicks[i] = Stopwatch.GetTimestamp() - start;
                }

                Console.WriteLine($"  round {round + 1}: add row {LatencyStats.FromTicks(rowTicks, rows)} | empty timed region {LatencyStats.FromTicks(clockTicks, rows)}");
            }
        }
        finally
        {
            BenchmarkFiles.DeleteDirectory(directory);
        }

        return 0;
    }
}
