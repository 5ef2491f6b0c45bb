using System;
using System.Buffers;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// ListMmf's table columns sealed (<see cref="SealedListMmf.Seal"/>): copies of the loaded table's three column files,
/// each sealed, read through <see cref="SealedListMmf{T}"/>. Lookups search the sealed time column in place; the hour's
/// sum, the VWAP and the count decode the blocks they need into pooled buffers and run the same arithmetic as the
/// appendable table over the same spans (pieces of <see cref="RowChunks.Size"/> rows), so their answers agree to the bit.
/// </summary>
internal sealed class SealedPeer : IPeerQueries, IDisposable
{
    public const string StoreName = "ListMmf sealed";

    private readonly SealedListMmf<int> _times;
    private readonly SealedListMmf<double> _prices;
    private readonly SealedListMmf<int> _sizes;

    private SealedPeer(string folder, string time, string price, string size)
    {
        Folder = folder;
        // As the appendable peer opens its time column: read in at the open, so that the first searches take no faults.
        var populated = ListMmfOptions.Default with { PopulateOnOpen = true };
        _times = new SealedListMmf<int>(Path.Combine(folder, time), populated);
        _prices = new SealedListMmf<double>(Path.Combine(folder, price), populated);
        _sizes = new SealedListMmf<int>(Path.Combine(folder, size), populated);
    }

    public string Name => StoreName;

    public string Folder { get; }

    public bool HasBatch => true;

    public bool HasQueryLanguage => false;

    /// <summary>
    /// Copies the table at <paramref name="table"/> into <paramref name="folder"/> and seals its three columns; tells
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

        long raw = 0;
        double seconds = 0;
        var notes = new List<string>();
        foreach (TableColumnInfo column in columns)
        {
            string copy = Path.Combine(folder, column.FileName);
            File.Copy(Path.Combine(table, column.FileName), copy);
            PageCache.Read(copy);
            long count = ListMmfFileInfo.Read(copy).Count;
            long bytes = count * DataTypeInfo.Of(column.DataType).Size;
            Console.Error.WriteLine($"peers: sealing {column.Name}");
            long start = Stopwatch.GetTimestamp();
            SealedListMmf.Seal(copy);
            seconds += Stopwatch.GetElapsedTime(start).TotalSeconds;
            raw += bytes;
            notes.Add($"{column.Name} {new FileInfo(copy).Length / (double)Math.Max(1, count):N3} B/value");
        }

        results.Add(PeersCommand.Seal, StoreName, seconds, $"{raw / seconds / 1e6:N0} MB/s of raw columns, one core; {string.Join(", ", notes)}", unit: "s");
        var peer = new SealedPeer(folder, columns[0].FileName, columns.Single(c => c.Name == "price").FileName, columns.Single(c => c.Name == "size").FileName);
        results.Add(PeersCommand.DiskUsed, StoreName, Disk.AllocatedBytes(folder), $"files' lengths {Disk.LengthBytes(folder) / 1e6:N0} MB", unit: "bytes");
        return peer;
    }

    public IDisposable ReadScope() => NoScope.Instance;

    public long Echo(int value) => throw new NotSupportedException("ListMmf has no query language.");

    public long FirstAtOrAfter(int time) => _times.LowerBound(time);

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results)
    {
        for (int i = 0; i < times.Length; i++)
        {
            results[i] = _times.LowerBound(times[i]);
        }
    }

    public void LastAtOrBefore(ReadOnlySpan<int> times, Span<long> results)
    {
        for (int i = 0; i < times.Length; i++)
        {
            results[i] = _times.UpperBound(times[i]) - 1;
        }
    }

    public double Turnover(int from, int to)
    {
        long start = _times.LowerBound(from);
        int length = (int)(_times.LowerBound(to) - start);
        double[] prices = ArrayPool<double>.Shared.Rent(length);
        int[] sizes = ArrayPool<int>.Shared.Rent(length);
        try
        {
            _prices.CopyTo(start, prices.AsSpan(0, length));
            _sizes.CopyTo(start, sizes.AsSpan(0, length));
            return ColumnMath.Dot(prices.AsSpan(0, length), sizes.AsSpan(0, length));
        }
        finally
        {
            ArrayPool<double>.Shared.Return(prices);
            ArrayPool<int>.Shared.Return(sizes);
        }
    }

    /// <summary>The hour bars of each piece, joined where an hour spans two pieces, as <see cref="TimeSeriesTable.Bars"/> joins them.</summary>
    public HourVwap[] HourlyVwap()
    {
        List<OhlcvBar>[] pieces = RowChunks.Map(new IndexRange(0, _times.Count), rows => Decoded(rows, HourBars));
        var bars = new List<OhlcvBar>();
        foreach (List<OhlcvBar> piece in pieces)
        {
            int first = 0;
            if (bars.Count > 0 && piece.Count > 0 && bars[^1].Start == piece[0].Start)
            {
                bars[^1] = bars[^1].Then(piece[0]);
                first = 1;
            }

            bars.AddRange(piece.Skip(first));
        }

        return bars.Select(bar => new HourVwap((int)((bar.Start - DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerHour), bar.Vwap)).ToArray();
    }

    public long CountWhere(double price, int size) =>
        RowChunks.Aggregate(
            new IndexRange(0, _times.Count),
            rows => Decoded(rows, (_, _, prices, sizes) => ColumnMath.CountAtLeast(prices, price, sizes, size)),
            (left, right) => left + right);

    /// <summary>Closes the sealed columns and unseals them, timed: the appendable files back.</summary>
    public void Unseal(PeersResults results)
    {
        Dispose();
        string[] files = [_times.Path, _prices.Path, _sizes.Path];
        long raw = 0;
        double seconds = 0;
        foreach (string file in files)
        {
            PageCache.Read(file);
            long start = Stopwatch.GetTimestamp();
            SealedListMmf.Unseal(file);
            seconds += Stopwatch.GetElapsedTime(start).TotalSeconds;
            ListMmfFileInfo info = ListMmfFileInfo.Read(file);
            raw += info.Count * info.ItemSize;
        }

        results.Add(PeersCommand.Unseal, StoreName, seconds, $"{raw / seconds / 1e6:N0} MB/s of raw columns, one core, into new files made durable", unit: "s");
    }

    public void Dispose()
    {
        _times.Dispose();
        _prices.Dispose();
        _sizes.Dispose();
    }

    private static List<OhlcvBar> HourBars(IndexRange rows, ReadOnlySpan<int> times, ReadOnlySpan<double> prices, ReadOnlySpan<int> sizes)
    {
        var bars = new List<OhlcvBar>();
        for (int row = 0; row < times.Length;)
        {
            int hour = times[row] / 3600;
            int end = row + 1;
            while (end < times.Length && times[end] / 3600 == hour)
            {
                end++;
            }

            DateTime start = DateTime.UnixEpoch.AddHours(hour);
            bars.Add(BarMath.Summarize(start, new IndexRange(rows.Start + row, rows.Start + end), prices[row..end], sizes[row..end]));
            row = end;
        }

        return bars;
    }

    /// <summary>The three columns of <paramref name="rows"/> decoded into pooled buffers, handed to <paramref name="work"/>.</summary>
    private TResult Decoded<TResult>(IndexRange rows, DecodedWork<TResult> work)
    {
        int length = (int)rows.Length;
        int[] times = ArrayPool<int>.Shared.Rent(length);
        double[] prices = ArrayPool<double>.Shared.Rent(length);
        int[] sizes = ArrayPool<int>.Shared.Rent(length);
        try
        {
            _times.CopyTo(rows.Start, times.AsSpan(0, length));
            _prices.CopyTo(rows.Start, prices.AsSpan(0, length));
            _sizes.CopyTo(rows.Start, sizes.AsSpan(0, length));
            return work(rows, times.AsSpan(0, length), prices.AsSpan(0, length), sizes.AsSpan(0, length));
        }
        finally
        {
            ArrayPool<int>.Shared.Return(times);
            ArrayPool<double>.Shared.Return(prices);
            ArrayPool<int>.Shared.Return(sizes);
        }
    }

    private delegate TResult DecodedWork<TResult>(IndexRange rows, ReadOnlySpan<int> times, ReadOnlySpan<double> prices, ReadOnlySpan<int> sizes);
}
