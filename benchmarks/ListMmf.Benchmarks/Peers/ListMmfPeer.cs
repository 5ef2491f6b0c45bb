using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Tool.Csv;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// ListMmf: a table folder loaded by <c>listmmf import csv</c>'s code; lookups on the time column's sorted list,
/// one hour's sum over the column spans (<see cref="ColumnMath"/>), the VWAP and the bars by the table's own
/// <see cref="TimeSeriesTable.Bars"/>, the filtered count by <see cref="TimeSeriesTable.Aggregate"/> on every core.
/// </summary>
internal sealed class ListMmfPeer(string folder) : IPeerStore
{
    private TimeSeriesTable? _table;
    private string? _timeFile;
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
        using (TimeSeriesTable table = TimeSeriesTable.Open(folder, FileAccess.Read))
        {
            _timeFile = table.Schema.Time.FileName;
        }

        // As a backtest opens its time files: populated at open, so that the first searches take no page faults.
        OpenTimes(populate: true);
        return rows;
    }

    public void Close()
    {
        _times?.Dispose();
        _table?.Dispose();
        _times = null;
        _table = null;
    }

    /// <summary>What a process that starts to search opens: the time column, read-only; the table waits for a question that needs it.</summary>
    public void Open() => OpenTimes(populate: false);

    /// <summary>The page index a cold start builds on the thread pool, and the fence file it writes after it.</summary>
    public void Settle() => _times!.WhenIdle().Wait();

    public IDisposable ReadScope() => NoScope.Instance;

    public long Echo(int value) => throw new NotSupportedException("ListMmf has no query language.");

    public long FirstAtOrAfter(int time) => _times!.LowerBound(time);

    /// <summary>The rows of the time column the lookups search.</summary>
    public long Rows => _times!.Count;

    /// <summary>The time at <paramref name="row"/>, read from the time column the lookups search.</summary>
    public int TimeAt(long row) => _times![row];

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results) => _times!.LowerBound(times, results);

    public void LastAtOrBefore(ReadOnlySpan<int> times, Span<long> results) => _times!.LastAtOrBefore(times, results);

    public bool HasAnalytics => true;

    public OhlcvBar[] MinuteBars() => Table.Bars("price", "size", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromMinutes(1));

    public double Turnover(int from, int to)
    {
        IndexRange rows = _times!.FindRange(from, to);
        return ColumnMath.Dot(Prices(rows), Sizes(rows));
    }

    public HourVwap[] HourlyVwap() =>
        Table.Bars("price", "size", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromHours(1))
            .Select(bar => new HourVwap((int)((bar.Start - DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerHour), bar.Vwap))
            .ToArray();

    public long CountWhere(double price, int size) =>
        Table.Aggregate(new IndexRange(0, Table.RowCount), rows => ColumnMath.CountAtLeast(Prices(rows), price, Sizes(rows), size), (left, right) => left + right);

    public void Append(TickRow[] rows)
    {
        TableColumn<double> price = Table.Column<double>("price");
        TableColumn<int> size = Table.Column<int>("size");
        foreach (TickRow row in rows)
        {
            price.Add(row.Price);
            size.Add(row.Size);
            Table.AddRow(ListMmfTimeSeriesDateTimeSeconds.ToDateTime(row.Time));
        }

        long start = System.Diagnostics.Stopwatch.GetTimestamp();
        Table.Flush();
        LastFlush = System.Diagnostics.Stopwatch.GetElapsedTime(start);
    }

    public long DiskBytes() => Disk.AllocatedBytes(folder);

    public void Dispose() => Close();

    /// <summary>The table, opened on first use as a live writer that flushes at checkpoints: its next pages faulted in ahead of it, and write-behind.</summary>
    private TimeSeriesTable Table =>
        _table ??= TimeSeriesTable.Open(folder, FileAccess.ReadWrite, ListMmfOptions.Default with { PrefaultAhead = true, WriteBehind = true });

    private ReadOnlySpan<double> Prices(IndexRange rows) => Table.Column<double>("price").AsSpan(rows);

    private ReadOnlySpan<int> Sizes(IndexRange rows) => Table.Column<int>("size").AsSpan(rows);

    private void OpenTimes(bool populate)
    {
        ListMmfOptions options = ListMmfOptions.Default with { PopulateOnOpen = populate };
        _times = ListMmfTimeSeriesDateTimeSeconds.OpenRead(Path.Combine(folder, _timeFile!), TimeSeriesOrder.AscendingOrEqual, options).Keys;
    }
}
