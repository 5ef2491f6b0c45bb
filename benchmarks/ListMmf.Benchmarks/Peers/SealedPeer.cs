using System;
using System.Buffers;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// ListMmf's table sealed (<see cref="TimeSeriesTable.Seal"/>): a copy of the loaded table, sealed and opened read-only,
/// answering through the table's own calls as a backtest would. Lookups search the sealed time column in place; the
/// VWAP is the table's <see cref="TimeSeriesTable.Bars"/>, which decodes a bar at a time; the hour's sum and the count
/// decode the rows they need with <see cref="TableColumn{T}.Read"/> and run the appendable table's arithmetic over the
/// same spans (the count in cache-sized runs, as integers), so their answers agree to the bit.
/// </summary>
internal sealed class SealedPeer : IPeerQueries, IDisposable
{
    public const string StoreName = "ListMmf sealed";

    /// <summary>The rows a count decodes at a time: 192 KiB of prices and sizes, which stay in the core's cache.</summary>
    private const int CountRun = 16_384;

    private readonly TimeSeriesTable _table;
    private readonly SealedListMmf<int> _times;
    private readonly TableColumn<double> _prices;
    private readonly TableColumn<int> _sizes;

    private SealedPeer(string folder)
    {
        Folder = folder;
        // As the appendable peer opens its time column: read in at the open, so that the first searches take no faults.
        var populated = ListMmfOptions.Default with { PopulateOnOpen = true };
        _table = TimeSeriesTable.Open(folder, FileAccess.Read, populated);
        _times = new SealedListMmf<int>(_table.Columns[0].Path, populated);
        _prices = _table.Column<double>("price");
        _sizes = _table.Column<int>("size");
    }

    public string Name => StoreName;

    public string Folder { get; }

    public bool HasBatch => true;

    public bool HasQueryLanguage => false;

    /// <summary>
    /// Copies the table at <paramref name="table"/> into <paramref name="folder"/> and seals it; tells
    /// <paramref name="results"/> the seal's time and each column's bytes a value.
    /// </summary>
    public static SealedPeer Create(string table, string folder, PeersResults results)
    {
        Directory.CreateDirectory(folder);
        TableColumnInfo[] columns;
        using (TimeSeriesTable opened = TimeSeriesTable.Open(table, FileAccess.Read))
        {
            columns = [opened.Schema.Time, .. opened.Schema.Columns];
        }

        File.Copy(Path.Combine(table, TimeSeriesTable.ManifestFileName), Path.Combine(folder, TimeSeriesTable.ManifestFileName));
        long raw = 0;
        long[] counts = new long[columns.Length];
        for (int c = 0; c < columns.Length; c++)
        {
            string copy = Path.Combine(folder, columns[c].FileName);
            File.Copy(Path.Combine(table, columns[c].FileName), copy);
            PageCache.Read(copy);
            counts[c] = ListMmfFileInfo.Read(copy).Count;
            raw += counts[c] * DataTypeInfo.Of(columns[c].DataType).Size;
        }

        Console.Error.WriteLine("peers: sealing the table");
        long start = Stopwatch.GetTimestamp();
        TimeSeriesTable.Seal(folder);
        double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;

        // The lengths, not a read of the sealed files' headers: a read before the readers map a file would leave its
        // start in small page-cache folios (SealedFile.IsSealedAt).
        var notes = columns.Select((column, c) =>
            $"{column.Name} {new FileInfo(Path.Combine(folder, column.FileName)).Length / (double)Math.Max(1, counts[c]):N3} B/value");
        results.Add(PeersCommand.Seal, StoreName, seconds, $"{raw / seconds / 1e6:N0} MB/s of raw columns, one core; {string.Join(", ", notes)}", unit: "s");
        var peer = new SealedPeer(folder);
        results.Add(PeersCommand.DiskUsed, StoreName, Disk.AllocatedBytes(folder), $"files' lengths {Disk.LengthBytes(folder) / 1e6:N0} MB", unit: "bytes");
        return peer;
    }

    public IDisposable ReadScope() => NoScope.Instance;

    public long Echo(int value) => throw new NotSupportedException("ListMmf has no query language.");

    public long FirstAtOrAfter(int time) => _times.LowerBound(time);

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results) => _times.LowerBound(times, results);

    public void LastAtOrBefore(ReadOnlySpan<int> times, Span<long> results) => _times.LastAtOrBefore(times, results);

    public double Turnover(int from, int to)
    {
        long start = _times.LowerBound(from);
        var rows = new IndexRange(start, _times.LowerBound(to));
        double[] prices = ArrayPool<double>.Shared.Rent((int)rows.Length);
        int[] sizes = ArrayPool<int>.Shared.Rent((int)rows.Length);
        try
        {
            return ColumnMath.Dot(_prices.Read(rows, prices), _sizes.Read(rows, sizes));
        }
        finally
        {
            ArrayPool<double>.Shared.Return(prices);
            ArrayPool<int>.Shared.Return(sizes);
        }
    }

    public HourVwap[] HourlyVwap() =>
        _table.Bars("price", "size", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromHours(1))
            .Select(bar => new HourVwap((int)((bar.Start - DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerHour), bar.Vwap))
            .ToArray();

    public long CountWhere(double price, int size) =>
        _table.Aggregate(new IndexRange(0, _table.RowCount), rows => CountIn(rows, price, size), (left, right) => left + right);

    /// <summary>Closes the sealed table and unseals it, timed: the appendable files back.</summary>
    public void Unseal(PeersResults results)
    {
        Dispose();
        long raw = 0;
        foreach (TableColumnInfo column in (TableColumnInfo[])[_table.Schema.Time, .. _table.Schema.Columns])
        {
            string file = Path.Combine(Folder, column.FileName);
            PageCache.Read(file);
            raw += ListMmfFileInfo.Read(file).Count * DataTypeInfo.Of(column.DataType).Size;
        }

        long start = Stopwatch.GetTimestamp();
        TimeSeriesTable.Unseal(Folder);
        double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        results.Add(PeersCommand.Unseal, StoreName, seconds, $"{raw / seconds / 1e6:N0} MB/s of raw columns, one core, into new files made durable", unit: "s");
    }

    public void Dispose()
    {
        _times.Dispose();
        _table.Dispose();
    }

    /// <summary>The rows of <paramref name="rows"/> at or above both bounds, decoded and counted a run of <see cref="CountRun"/> at a time.</summary>
    private long CountIn(IndexRange rows, double price, int size)
    {
        double[] prices = ArrayPool<double>.Shared.Rent(CountRun);
        int[] sizes = ArrayPool<int>.Shared.Rent(CountRun);
        try
        {
            long count = 0;
            for (long at = rows.Start; at < rows.End; at += CountRun)
            {
                var run = new IndexRange(at, Math.Min(rows.End, at + CountRun));
                count += ColumnMath.CountAtLeast(_prices.Read(run, prices), price, _sizes.Read(run, sizes), size);
            }

            return count;
        }
        finally
        {
            ArrayPool<double>.Shared.Return(prices);
            ArrayPool<int>.Shared.Return(sizes);
        }
    }
}
