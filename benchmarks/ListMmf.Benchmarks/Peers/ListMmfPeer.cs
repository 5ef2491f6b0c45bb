using System;
using System.Collections.Generic;
using System.IO;
using ListMmf.Tool.Csv;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// ListMmf: a table folder loaded by <c>listmmf import csv</c>'s code; lookups on the time column's sorted list,
/// sums and scans over the column spans (<see cref="ColumnMath"/>), each hour of the VWAP found by its lookups.
/// </summary>
internal sealed class ListMmfPeer(string folder) : IPeerStore
{
    private TimeSeriesTable? _table;
    private SortedListMmf<int>? _times;

    public string Name => "ListMmf";

    public string Folder => folder;

    public bool HasBatch => true;

    public bool HasQueryLanguage => false;

    /// <summary>How long the last <see cref="Append"/>'s flush took, of its whole time: where an append's time goes.</summary>
    public TimeSpan LastFlush { get; private set; }

    public long Load(string csv)
    {
        long rows = CsvImporter.Run(new ImportRequest(csv, folder, "time", TimeFormat.Unix, [("price", "double"), ("size", "int")], TicksTime: false, TimeSeriesOrder.AscendingOrEqual));
        // As a backtest opens its time files: populated at open, so that the first searches take no page faults.
        OpenTable(populate: true);
        return rows;
    }

    public void Close()
    {
        _times?.Dispose();
        _table?.Dispose();
        _times = null;
        _table = null;
    }

    public void Open() => OpenTable(populate: false);

    public IDisposable ReadScope() => NoScope.Instance;

    public long Echo(int value) => throw new NotSupportedException("ListMmf has no query language.");

    public long FirstAtOrAfter(int time) => _times!.LowerBound(time);

    /// <summary>The rows of the time column the lookups search.</summary>
    public long Rows => _times!.Count;

    /// <summary>The time at <paramref name="row"/>, read from the time column the lookups search.</summary>
    public int TimeAt(long row) => _times![row];

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results) => _times!.LowerBound(times, results);

    public double Turnover(int from, int to)
    {
        IndexRange rows = _times!.FindRange(from, to);
        return ColumnMath.Dot(Prices(rows), Sizes(rows));
    }

    public HourVwap[] HourlyVwap()
    {
        SortedListMmf<int> times = _times!;
        var hours = new List<HourVwap>();
        if (times.Count == 0)
        {
            return [];
        }

        int last = Hour(times[times.Count - 1]);
        for (int hour = Hour(times[0]); hour <= last; hour++)
        {
            IndexRange rows = times.FindRange(hour * 3600, (hour + 1) * 3600);
            if (rows.End > rows.Start)
            {
                ReadOnlySpan<int> sizes = Sizes(rows);
                hours.Add(new HourVwap(hour, ColumnMath.Dot(Prices(rows), sizes) / ColumnMath.Sum(sizes)));
            }
        }

        return hours.ToArray();
    }

    public long CountWhere(double price, int size)
    {
        long count = 0;
        long rows = _table!.RowCount;
        for (long start = 0; start < rows; start += ColumnMath.Chunk)
        {
            var chunk = new IndexRange(start, Math.Min(rows, start + ColumnMath.Chunk));
            count += ColumnMath.CountAtLeast(Prices(chunk), price, Sizes(chunk), size);
        }

        return count;
    }

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

    public void Dispose() => Close();

    private static int Hour(int time) => (int)Math.Floor(time / 3600.0);

    private ReadOnlySpan<double> Prices(IndexRange rows) => _table!.Column<double>("price").AsSpan(rows);

    private ReadOnlySpan<int> Sizes(IndexRange rows) => _table!.Column<int>("size").AsSpan(rows);

    private void OpenTable(bool populate)
    {
        // Set up as a live writer that flushes at checkpoints: its next pages faulted in ahead of it, and write-behind.
        ListMmfOptions writer = ListMmfOptions.Default with { PrefaultCapacity = true, WriteBehind = true };
        _table = TimeSeriesTable.Open(folder, FileAccess.ReadWrite, writer);
        ListMmfOptions options = ListMmfOptions.Default with { PopulateOnOpen = populate };
        _times = ListMmfTimeSeriesDateTimeSeconds.OpenRead(Path.Combine(folder, _table.Schema.Time.FileName), TimeSeriesOrder.AscendingOrEqual, options).Keys;
    }
}
