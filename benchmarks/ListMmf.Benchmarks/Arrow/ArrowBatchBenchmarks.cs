using System;
using System.IO;
using Apache.Arrow;
using BenchmarkDotNet.Attributes;
using ListMmf.Arrow;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Tables;

namespace ListMmf.Benchmarks.Arrow;

/// <summary>
/// Handing a whole four-column tick table (time, price, size, sequence; 24 bytes a row) to Arrow as one record batch:
/// every column over the mapping (<see cref="ArrowTimeColumn.Stored"/>), the same with the time column converted to
/// an Arrow timestamp, and, as the baseline, what an API that copies would cost: the four columns copied into new
/// arrays. The zero-copy batch should cost the same at 1M and 100M rows.
/// </summary>
[MedianColumn]
[MemoryDiagnoser]
[SimpleJob(launchCount: 1, warmupCount: 3, iterationCount: 10)]
public class ArrowBatchBenchmarks
{
    private string _directory = "";
    private TimeSeriesTable? _table;

    [Params(1_000_000, 100_000_000)]
    public int Rows { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkFiles.FreshDirectory("arrow-batch");
        const int Chunk = 1 << 20;
        var seconds = new int[Chunk];
        var prices = new double[Chunk];
        var sizes = new int[Chunk];
        var sequences = new long[Chunk];
        int startSeconds = (int)((TickRows.Start - DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerSecond);
        using (TimeSeriesTable writer = TimeSeriesTable.Create(_directory, TickRows.Schema()))
        {
            for (int first = 0; first < Rows; first += Chunk)
            {
                int count = Math.Min(Chunk, Rows - first);
                for (int i = 0; i < count; i++)
                {
                    int row = first + i;
                    seconds[i] = startSeconds + (row / 3);
                    prices[i] = 4500 + ((row % 1000) * 0.25);
                    sizes[i] = (row % 97) + 1;
                    sequences[i] = row;
                }

                writer.Column<double>("price").AddRange(prices.AsSpan(0, count));
                writer.Column<int>("size").AddRange(sizes.AsSpan(0, count));
                writer.Column<long>("sequence").AddRange(sequences.AsSpan(0, count));
                writer.AddRows(seconds.AsSpan(0, count));
            }
        }

        _table = TimeSeriesTable.Open(_directory, FileAccess.Read);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _table?.Dispose();
        BenchmarkFiles.DeleteDirectory(_directory);
    }

    [Benchmark(Baseline = true)]
    public long CopyColumnsToArrays()
    {
        var rows = new IndexRange(0, _table!.RowCount);
        int[] times = _table.Column<int>("time").AsSpan(rows).ToArray();
        double[] prices = _table.Column<double>("price").AsSpan(rows).ToArray();
        int[] sizes = _table.Column<int>("size").AsSpan(rows).ToArray();
        long[] sequences = _table.Column<long>("sequence").AsSpan(rows).ToArray();
        return times.Length + prices.Length + sizes.Length + sequences.Length;
    }

    [Benchmark]
    public int RecordBatchOverTheMapping()
    {
        using RecordBatch batch = _table!.ToRecordBatch(ArrowTimeColumn.Stored);
        return batch.Length;
    }

    [Benchmark]
    public int RecordBatchWithTimestamps()
    {
        using RecordBatch batch = _table!.ToRecordBatch(ArrowTimeColumn.Timestamp);
        return batch.Length;
    }
}
