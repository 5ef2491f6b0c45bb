using System;
using System.IO;
using System.Numerics;
using System.Runtime.InteropServices;
using ListMmf.Tool.Csv;

namespace ListMmf.Benchmarks.Peers;

/// <summary>ListMmf: a table folder loaded by <c>listmmf import csv</c>'s code; lookups on the time column's sorted list, sums over the column spans.</summary>
internal sealed class ListMmfPeer(string folder) : IPeerStore
{
    private TimeSeriesTable? _table;
    private SortedListMmf<int>? _times;

    public string Name => "ListMmf";

    public bool HasBatch => true;

    public long Load(string csv)
    {
        long rows = CsvImporter.Run(new ImportRequest(csv, folder, "time", TimeFormat.Unix, [("price", "double"), ("size", "int")], TicksTime: false, TimeSeriesOrder.AscendingOrEqual));
        _table = TimeSeriesTable.Open(folder);
        // As a backtest opens its time files: populated at open, so that the first searches take no page faults.
        _times = ListMmfTimeSeriesDateTimeSeconds.OpenRead(Path.Combine(folder, _table.Schema.Time.FileName), TimeSeriesOrder.AscendingOrEqual, ListMmfOptions.Default with { PopulateOnOpen = true }).Keys;
        return rows;
    }

    public long FirstAtOrAfter(int time) => _times!.LowerBound(time);

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results) => _times!.LowerBound(times, results);

    public double Turnover(int from, int to)
    {
        IndexRange rows = _times!.FindRange(from, to);
        return Dot(_table!.Column<double>("price").AsSpan(rows), _table.Column<int>("size").AsSpan(rows));
    }

    /// <summary>How long the last <see cref="Append"/>'s flush took, of its whole time: where an append's time goes.</summary>
    public TimeSpan LastFlush { get; private set; }

    public void Append(TickRow[] rows)
    {
        TableColumn<double> price = _table!.Column<double>("price");
        TableColumn<int> size = _table.Column<int>("size");
        foreach (TickRow row in rows)
        {
            price.Add(row.Price);
            size.Add(row.Size);
            _table.AddRow(ListMmfTimeSeriesDateTimeSeconds.ToDateTime(row.Time));
        }

        long start = System.Diagnostics.Stopwatch.GetTimestamp();
        _table.Flush();
        LastFlush = System.Diagnostics.Stopwatch.GetElapsedTime(start);
    }

    public long DiskBytes() => Disk.AllocatedBytes(folder);

    public void Dispose()
    {
        _times?.Dispose();
        _table?.Dispose();
    }

    /// <summary>Sum of price times size, a vector of doubles at a time (sizes widened from int).</summary>
    private static double Dot(ReadOnlySpan<double> prices, ReadOnlySpan<int> sizes)
    {
        var sum = Vector<double>.Zero;
        int i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            ReadOnlySpan<Vector<double>> priceVectors = MemoryMarshal.Cast<double, Vector<double>>(prices);
            ReadOnlySpan<Vector<int>> sizeVectors = MemoryMarshal.Cast<int, Vector<int>>(sizes);
            for (int v = 0; v < sizeVectors.Length && (2 * v) + 1 < priceVectors.Length; v++)
            {
                Vector.Widen(sizeVectors[v], out Vector<long> low, out Vector<long> high);
                sum += (priceVectors[2 * v] * Vector.ConvertToDouble(low)) + (priceVectors[(2 * v) + 1] * Vector.ConvertToDouble(high));
                i += Vector<int>.Count;
            }
        }

        double total = Vector.Sum(sum);
        for (; i < prices.Length; i++)
        {
            total += prices[i] * sizes[i];
        }

        return total;
    }
}
