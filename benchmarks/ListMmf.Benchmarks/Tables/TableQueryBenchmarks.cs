using System;
using System.IO;
using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Tables;

/// <summary>
/// A time-range query that sums a column: find the rows of one hour (10,800 rows) at a random time, then add up
/// their sizes; through a table, beside the same work over the same files opened one by one as parallel files (a
/// seconds series and a list), the way the existing library's users do it. 1,000 queries per operation.
/// </summary>
[MedianColumn]
public class TableQueryBenchmarks
{
    private const int Queries = 1000;
    private readonly DateTime[] _from = new DateTime[Queries];
    private string _directory = "";
    private TimeSeriesTable? _table;
    private ListMmfTimeSeriesDateTimeSeconds? _times;
    private ListMmf<int>? _sizes;

    [Params(10_000_000)]
    public int Rows { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkFiles.FreshDirectory("table-query");
        var rows = new TickRows(Rows);
        using (TimeSeriesTable writer = TimeSeriesTable.Create(_directory, TickRows.Schema()))
        {
            writer.Column<double>("price").AddRange(rows.Prices);
            writer.Column<int>("size").AddRange(rows.Sizes);
            writer.Column<long>("sequence").AddRange(rows.Sequences);
            writer.AddRows(rows.Seconds);
        }

        _table = TimeSeriesTable.Open(_directory, FileAccess.Read);
        _times = ListMmfTimeSeriesDateTimeSeconds.OpenRead(Path.Combine(_directory, "time.mmf"), TimeSeriesOrder.AscendingOrEqual);
        _sizes = new ListMmf<int>(Path.Combine(_directory, "size.mmf"), FileAccess.Read);
        var random = new SplitMix64(42);
        long span = (Rows / 3) - 3600;
        for (int i = 0; i < Queries; i++)
        {
            _from[i] = TickRows.Start.AddSeconds((long)(random.Next() % (ulong)span));
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _table?.Dispose();
        _times?.Dispose();
        _sizes?.Dispose();
        BenchmarkFiles.DeleteDirectory(_directory);
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Queries)]
    public long ParallelFiles()
    {
        long total = 0;
        foreach (DateTime from in _from)
        {
            long start = _times!.LowerBound(from);
            long end = _times.LowerBound(from.AddHours(1));
            total += Sum(_sizes!.AsSpan(start, (int)(end - start)));
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Queries)]
    public long Table()
    {
        TableColumn<int> sizes = _table!.Column<int>("size");
        long total = 0;
        foreach (DateTime from in _from)
        {
            total += Sum(sizes.AsSpan(_table.FindRange(from, from.AddHours(1))));
        }

        return total;
    }

    private static long Sum(ReadOnlySpan<int> values)
    {
        long sum = 0;
        foreach (int value in values)
        {
            sum += value;
        }

        return sum;
    }
}
