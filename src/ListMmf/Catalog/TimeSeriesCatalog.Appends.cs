using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace ListMmf;

/// <summary>
/// A catalog's writes: each instrument's current partition of each kind, a new one at its period's boundary, and
/// the flush that makes every partition's appends durable before the index records them.
/// </summary>
public sealed partial class TimeSeriesCatalog
{
    /// <summary>The partitions this writer has open, by (kind rank, instrument ordinal): one a series.</summary>
    private readonly Dictionary<(int Kind, int Instrument), Writing> _writing = [];

    /// <summary>Partitions a series moved past, flushed, recorded and closed by the next <see cref="Flush()"/>.</summary>
    private readonly List<Writing> _closing = [];

    /// <summary>
    /// The table of <paramref name="instrument"/>'s <paramref name="kind"/> for the period that holds
    /// <paramref name="time"/>, opened for writing (created, with the instrument, where the catalog has none): add
    /// the row's values and the row to it as to any table. Rows of that period go to it; an instrument's rows of the
    /// next period go to the next partition, which this call opens when given a time of that period. The table
    /// stays open until the series moves to another period or the catalog is disposed; its rows are recorded by
    /// <see cref="Flush()"/>.
    /// </summary>
    /// <exception cref="ArgumentException">The catalog has no such kind, or the instrument is no portable folder
    /// name, or differs only in case from one the catalog has.</exception>
    /// <exception cref="ListMmfOrderException">The instrument's kind already has a partition of a later period
    /// (each series is appended in time order), or the time is before the recorded <see cref="Watermark"/>.</exception>
    /// <exception cref="ListMmfException">The partition of that period is sealed.</exception>
    /// <exception cref="NotSupportedException">The catalog was opened read-only.</exception>
    public TimeSeriesTable Partition(string kind, string instrument, DateTime time)
    {
        ThrowIfDisposed();
        if (!IsWritable)
        {
            throw new NotSupportedException($"The catalog '{Path}' was opened read-only.");
        }

        int rank = RankOf(kind);
        if (time.Ticks < _index.Watermark)
        {
            throw new ListMmfOrderException(Path, $"a row of {instrument}'s {kind} at {time:O} is before the watermark " +
                $"{new DateTime(_index.Watermark):O} the catalog recorded, before which every row is recorded", -1);
        }

        int ordinal = OrdinalOf(instrument);
        long period = CatalogPeriods.StartOf(time.Ticks, Schema.Period);
        if (_writing.TryGetValue((rank, ordinal), out Writing? open))
        {
            if (open.Period == period)
            {
                return open.Table;
            }

            ThrowIfBefore(kind, instrument, period, open.Period, open.Table.Path);
            _writing.Remove((rank, ordinal));
            _closing.Add(open);
        }

        _index.ReadNew();
        List<PartitionRecord>? series = _index.SeriesOf(rank, ordinal);
        PartitionRecord? latest = series is { Count: > 0 } ? series[^1] : null;
        string path = PathOf(kind, instrument, period);
        if (latest is { } last)
        {
            ThrowIfBefore(kind, instrument, period, last.PeriodStart, PathOf(kind, instrument, last.PeriodStart));
            if (last.PeriodStart == period && last.Sealed != 0)
            {
                throw new ListMmfException(path, $"the partition of {instrument}'s {kind} for {CatalogPeriods.NameOf(period, Schema.Period)} " +
                    "is sealed; unseal it (TimeSeriesTable.Unseal) to append to it.");
            }
        }

        // A folder the index does not record yet is a partition a killed writer created: it is adopted, rows and all.
        TimeSeriesTable table = File.Exists(System.IO.Path.Combine(path, TimeSeriesTable.ManifestFileName))
            ? TimeSeriesTable.Open(path, FileAccess.ReadWrite, _options)
            : TimeSeriesTable.Create(path, Schema.SchemaOf(kind), _options);
        var writing = new Writing(table, rank, ordinal, period, latest is { } recorded && recorded.PeriodStart == period ? recorded.Rows : 0);
        _writing.Add((rank, ordinal), writing);
        if (latest is not { } known || known.PeriodStart != period)
        {
            // Recorded empty at once, so that a crash cannot leave the partition outside the index: the next flush
            // makes the line durable with its rows.
            _instruments.MakeDurable();
            _index.Append(writing.Record(0, 0, 0));
        }

        return table;
    }

    /// <summary>
    /// Makes every partition's appends since the last flush durable, then records their rows in the index and makes
    /// the index durable: a reader, and a replay, see a partition's rows once they are recorded. Closes the
    /// partitions the writer moved past.
    /// </summary>
    /// <exception cref="ListMmfOrderException">A partition holds a row outside its period, or before the watermark
    /// recorded; nothing was recorded. The message names the partition and the row: truncate it
    /// (<see cref="TimeSeriesTable.Truncate"/>) and append the row where it belongs.</exception>
    /// <exception cref="ListMmfException">A file could not be flushed; nothing was recorded for the partitions not yet flushed.</exception>
    public void Flush() => Record(watermark: null);

    /// <summary>
    /// Flushes and records as <see cref="Flush()"/> does, and records <paramref name="watermark"/>: every row before
    /// it is now recorded, and the writer appends none before it from now on (a flush refuses one). Readers following
    /// the catalog (<see cref="Follow"/>) replay the rows before it, in the order a later replay gives them.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="watermark"/> is before the one recorded: a watermark only advances.</exception>
    /// <exception cref="ListMmfOrderException">A partition holds a row outside its period, or before the watermark
    /// recorded before; nothing was recorded.</exception>
    public void Flush(DateTime watermark)
    {
        ThrowIfDisposed();
        if (watermark.Ticks < _index.Watermark)
        {
            throw new ArgumentOutOfRangeException(nameof(watermark), watermark, $"The catalog '{Path}' recorded the watermark " +
                $"{new DateTime(_index.Watermark):O}; a watermark only advances.");
        }

        Record(watermark.Ticks);
    }

    private void Record(long? watermark)
    {
        ThrowIfDisposed();
        if (!IsWritable)
        {
            throw new NotSupportedException($"The catalog '{Path}' was opened read-only.");
        }

        Writing[] changed = _closing.Concat(_writing.Values).Where(writing => writing.Table.RowCount != writing.Recorded).ToArray();
        foreach (Writing writing in changed)
        {
            CheckPeriod(writing);
        }

        foreach (Writing writing in changed)
        {
            writing.Table.Flush();
        }

        _instruments.MakeDurable();
        foreach (Writing writing in changed)
        {
            long rows = writing.Table.RowCount;
            _index.Append(rows == 0
                ? writing.Record(0, 0, 0)
                : writing.Record(rows, writing.Table.TimeAt(0).Ticks, writing.Table.TimeAt(rows - 1).Ticks));
            writing.Recorded = rows;
        }

        if (watermark is { } ticks && ticks > _index.Watermark)
        {
            _index.Append(new PartitionRecord { Kind = CatalogIndex.WatermarkLine, Instrument = CatalogIndex.WatermarkLine, LastTime = ticks });
        }

        _index.Flush();
        foreach (Writing writing in _closing)
        {
            writing.Table.Dispose();
        }

        _closing.Clear();
    }

    /// <summary>
    /// Seals every recorded partition whose period ends at or before <paramref name="before"/> and that this writer
    /// does not hold open, after a <see cref="Flush()"/>: a table at a time (<see cref="TimeSeriesTable.Seal"/>),
    /// then recorded as sealed. Readers, and replays under way, follow each table into its sealed form.
    /// </summary>
    /// <returns>How many partitions were sealed.</returns>
    public int Seal(DateTime before)
    {
        Record(watermark: null);
        var sealable = _index.Series
            .Where(series => !_writing.ContainsKey(series.Key))
            .SelectMany(series => series.Value)
            .Where(record => record.Sealed == 0 && record.Rows > 0 && CatalogPeriods.EndOf(record.PeriodStart, Schema.Period) <= before.Ticks)
            .ToArray();
        foreach (PartitionRecord record in sealable)
        {
            TimeSeriesTable.Seal(PartitionOf(record).Path);
            _index.Append(record with { Sealed = 1 });
        }

        _index.Flush();
        return sealable.Length;
    }

    /// <summary>The ordinal of <paramref name="instrument"/>, added to the catalog's instruments if it is new.</summary>
    private int OrdinalOf(string instrument)
    {
        ArgumentNullException.ThrowIfNull(instrument);
        int ordinal = _instruments.Find(instrument);
        if (ordinal >= 0)
        {
            return ordinal;
        }

        if (Storage.PortableFileName.ProblemWith(instrument) is { } problem)
        {
            throw new ArgumentException($"The instrument '{instrument}' {problem}; it names a folder of the catalog.", nameof(instrument));
        }

        if (Instruments.FirstOrDefault(known => string.Equals(known, instrument, StringComparison.OrdinalIgnoreCase)) is { } twin)
        {
            throw new ArgumentException($"The instrument '{instrument}' differs only in case from '{twin}', which the catalog " +
                "has: both would be one folder where names are compared ignoring case (Windows, macOS).", nameof(instrument));
        }

        Span<uint> code = stackalloc uint[1];
        _instruments.CodesOf(new ReadOnlySpan<string>(ref instrument), code);
        return (int)code[0];
    }

    private void ThrowIfBefore(string kind, string instrument, long period, long current, string currentPath)
    {
        if (period < current)
        {
            throw new ListMmfOrderException(currentPath, $"a row of {instrument}'s {kind} in " +
                $"{CatalogPeriods.NameOf(period, Schema.Period)} comes before its partition of " +
                    $"{CatalogPeriods.NameOf(current, Schema.Period)}: each instrument's rows of a kind are appended in time order", -1);
        }
    }

    /// <summary>The rows appended since the last record all lie in the partition's period.</summary>
    private void CheckPeriod(Writing writing)
    {
        long rows = writing.Table.RowCount;
        long end = CatalogPeriods.EndOf(writing.Period, Schema.Period);
        if (rows == 0)
        {
            return;
        }

        long firstNew = Math.Min(writing.Recorded, rows - 1);
        if (writing.Table.TimeAt(firstNew).Ticks < _index.Watermark)
        {
            throw new ListMmfOrderException(writing.Table.Path, $"row {firstNew:N0} at {writing.Table.TimeAt(firstNew):O} is before " +
                $"the watermark {new DateTime(_index.Watermark):O} the catalog recorded, before which every row was recorded; " +
                    "nothing was recorded. Truncate the partition before it", firstNew);
        }

        foreach (long row in new[] { firstNew, rows - 1 })
        {
            long ticks = writing.Table.TimeAt(row).Ticks;
            if (ticks < writing.Period || ticks >= end)
            {
                throw new ListMmfOrderException(writing.Table.Path, $"row {row:N0} at {writing.Table.TimeAt(row):O} lies outside the " +
                    $"partition's period {CatalogPeriods.NameOf(writing.Period, Schema.Period)}; nothing was recorded. Truncate the " +
                        "partition before it and append the row to the partition of its period (TimeSeriesCatalog.Partition)", row);
            }
        }
    }

    private void CloseWriting()
    {
        foreach (Writing writing in _closing.Concat(_writing.Values))
        {
            writing.Table.Dispose();
        }

        _closing.Clear();
        _writing.Clear();
    }

    /// <summary>A partition the writer holds open, and the rows the index records of it.</summary>
    private sealed class Writing(TimeSeriesTable table, int kind, int instrument, long period, long recorded)
    {
        public TimeSeriesTable Table { get; } = table;

        public long Period { get; } = period;

        public long Recorded { get; set; } = recorded;

        public PartitionRecord Record(long rows, long first, long last) => new()
        {
            Kind = kind,
            Instrument = instrument,
            PeriodStart = Period,
            Rows = rows,
            FirstTime = first,
            LastTime = last,
        };
    }
}
