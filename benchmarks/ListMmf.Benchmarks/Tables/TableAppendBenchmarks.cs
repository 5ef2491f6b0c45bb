using System;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Core;

namespace ListMmf.Benchmarks.Tables;

/// <summary>
/// Appending four million rows to a four-column table (24 bytes a row, 96 MB) whose pages are already mapped (the table is
/// truncated to 0 before each operation), beside the memcpy of the same 96 MB into mapped pages of a file that was
/// filled once: the baseline the issue sets (at least 0.5x its speed for the batch). Batches go in with a span per
/// column and the times as Unix-second keys (a copy) or as DateTimes (a conversion per row); rows also one at a
/// time, through the column handles. One operation per iteration, because each needs its table truncated.
/// </summary>
[InvocationCount(1)]
[MedianColumn]
public class TableAppendBenchmarks
{
    private TickRows _rows = new(0);
    private string _directory = "";
    private string _copyPath = "";
    private TimeSeriesTable? _table;
    private ListMmf<byte>? _copyTarget;

    [Params(4_000_000)]
    public int Rows { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _rows = new TickRows(Rows);
        _directory = BenchmarkFiles.FreshDirectory("table-append");
        _table = TimeSeriesTable.Create(_directory, TickRows.Schema());
        AddBatch(_rows.Seconds);
        _copyPath = BenchmarkFiles.Fresh("table-append-memcpy");
        _copyTarget = new ListMmf<byte>(_copyPath);
        _copyTarget.AddRange(new byte[Rows * TickRows.BytesPerRow]);
    }

    [IterationSetup(Targets = [nameof(AddRowsWithSecondKeys), nameof(AddRowsWithDateTimes), nameof(AddRowByRow)])]
    public void Truncate() => _table!.Truncate(0);

    [GlobalCleanup]
    public void Cleanup()
    {
        _table?.Dispose();
        _copyTarget?.Dispose();
        BenchmarkFiles.DeleteDirectory(_directory);
        BenchmarkFiles.Delete(_copyPath);
    }

    [Benchmark(Baseline = true)]
    public void MemcpyIntoMappedPages()
    {
        ReadOnlySpan<byte> mapped = _copyTarget!.AsSpan(0, Rows * TickRows.BytesPerRow);
        Span<byte> target = MemoryMarshal.CreateSpan(ref MemoryMarshal.GetReference(mapped), mapped.Length);
        target = Copy(MemoryMarshal.AsBytes(_rows.Prices.AsSpan()), target);
        target = Copy(MemoryMarshal.AsBytes(_rows.Sizes.AsSpan()), target);
        target = Copy(MemoryMarshal.AsBytes(_rows.Sequences.AsSpan()), target);
        Copy(MemoryMarshal.AsBytes(_rows.Seconds.AsSpan()), target);
    }

    [Benchmark]
    public void AddRowsWithSecondKeys() => AddBatch(_rows.Seconds);

    [Benchmark]
    public void AddRowsWithDateTimes()
    {
        AddValues();
        _table!.AddRows(_rows.Times);
    }

    [Benchmark]
    public void AddRowByRow()
    {
        TimeSeriesTable table = _table!;
        TableColumn<double> price = table.Column<double>("price");
        TableColumn<int> size = table.Column<int>("size");
        TableColumn<long> sequence = table.Column<long>("sequence");
        TickRows rows = _rows;
        for (int i = 0; i < rows.Times.Length; i++)
        {
            price.Add(rows.Prices[i]);
            size.Add(rows.Sizes[i]);
            sequence.Add(rows.Sequences[i]);
            table.AddRow(rows.Times[i]);
        }
    }

    private void AddBatch(int[] seconds)
    {
        AddValues();
        _table!.AddRows(seconds);
    }

    private void AddValues()
    {
        _table!.Column<double>("price").AddRange(_rows.Prices);
        _table.Column<int>("size").AddRange(_rows.Sizes);
        _table.Column<long>("sequence").AddRange(_rows.Sequences);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Span<byte> Copy(ReadOnlySpan<byte> source, Span<byte> target)
    {
        source.CopyTo(target);
        return target[source.Length..];
    }
}
