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
    /// <summary>The partitions this writer has open, by (kind rank, instrument ordinal): one a series, its latest.</summary>
    private readonly Dictionary<(int Kind, int Instrument), Writing> _writing = [];

    /// <summary>
    /// The table of <paramref name="instrument"/>'s <paramref name="kind"/> for the period that holds
    /// <paramref name="time"/>, opened for writing (created, with the instrument, where the catalog has none): add
    /// the row's values and the row to it as to any table. Rows of that period go to it; an instrument's rows of the
    /// next period go to the next partition, which this call opens when given a time of that period, after checking,
    /// flushing and recording the one before and closing it. The table stays open until then or until the catalog is
    /// disposed; its rows are recorded by <see cref="Flush()"/>.
    /// </summary>
    /// <exception cref="ArgumentException">The catalog has no such kind, or the instrument is no portable folder
    /// name, or differs only in case from one the catalog has.</exception>
    /// <exception cref="ListMmfOrderException">The instrument's kind already has a partition of a later period
    /// (each series is appended in time order), or the time is before the recorded <see cref="Watermark"/>, or the
    /// partition the series leaves holds a row outside its period (nothing was recorded; the message says which).</exception>
    /// <exception cref="ListMmfException">The partition of that period is sealed.</exception>
    /// <exception cref="NotSupportedException">The catalog was opened read-only.</exception>
    public TimeSeriesTable Partition(string kind, string instrument, DateTime time)
    {
        ThrowIfWriterGone();
        int rank = RankOf(kind);
        long ticks = TicksOf(time, _timeKinds[rank] == DateTimeKind.Utc);
        if (ticks < _index.Watermark)
        {
            throw new ListMmfOrderException(Path, $"a row of {instrument}'s {kind} at {time:O} is before the watermark " +
                $"{new DateTime(_index.Watermark):O} the catalog recorded, before which every row is recorded", -1);
        }

        int ordinal = OrdinalOf(instrument);
        long period = CatalogPeriods.StartOf(ticks, Schema.Period);
        if (_writing.TryGetValue((rank, ordinal), out Writing? open))
        {
            if (open.Period == period)
            {
                return open.Table;
            }

            ThrowIfBefore(kind, instrument, period, open.Period, open.Table.Path);

            // The series moves on: the partition it leaves is checked while the caller can still mend it, then made
            // durable and recorded now, so that no row of a period a series left is ever outside the index.
            Record([open]);
            _index.Flush();
            _writing.Remove((rank, ordinal));
            open.Table.Dispose();
        }

        _index.ReadNew();
        List<PartitionRecord>? series = _index.SeriesOf(rank, ordinal);
        PartitionRecord? latest = series is { Count: > 0 } ? series[^1] : null;
        string path = PathOf(kind, instrument, period);
        if (latest is { } last)
        {
            ThrowIfBefore(kind, instrument, period, last.PeriodStart, PathOf(kind, instrument, last.PeriodStart));
            if (open is null && last.PeriodStart != period)
            {
                Reconcile(last);
            }
        }

        PartitionRecord? same = latest is { } known && known.PeriodStart == period ? known : null;
        TimeSeriesTable table = OpenForWriting(path, kind, same);
        var writing = new Writing(table, rank, ordinal, period, same ?? default);
        _writing.Add((rank, ordinal), writing);
        if (same is not { Sealed: 0 })
        {
            // Recorded at once (empty, or no longer sealed), so that a crash cannot leave the partition outside the
            // index: the next flush makes the line durable with its rows.
            _instruments.MakeDurable();
            AppendLine(writing.Line(writing.Recorded));
        }

        return table;
    }

    /// <summary>
    /// Makes every partition's appends since the last flush durable, then records their rows in the index and makes
    /// the index durable: a reader, and a replay, see a partition's rows once they are recorded.
    /// </summary>
    /// <exception cref="ListMmfOrderException">A partition holds a row outside its period, or before the watermark
    /// recorded, or fewer of the rows recorded; nothing was recorded. The message names the partition and the row.</exception>
    /// <exception cref="ListMmfException">A file could not be flushed; nothing was recorded for the partitions not yet flushed.</exception>
    public void Flush() => FlushAndRecord(watermark: null);

    /// <summary>
    /// Flushes and records as <see cref="Flush()"/> does, and records <paramref name="watermark"/>: every row before
    /// it is now recorded, and the writer appends none before it from now on (a flush refuses one). Readers following
    /// the catalog (<see cref="Follow"/>) replay the rows before it, in the order a later replay gives them. Readers
    /// see the watermark as it is written; a power loss before this call returns may take it back.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="watermark"/> is before the one recorded: a watermark only advances.</exception>
    /// <exception cref="ListMmfOrderException">A partition holds a row outside its period, or before the watermark
    /// recorded before; nothing was recorded.</exception>
    public void Flush(DateTime watermark)
    {
        ThrowIfWriterGone();
        long ticks = TicksOf(watermark, _allUtc);
        if (ticks < _index.Watermark)
        {
            throw new ArgumentOutOfRangeException(nameof(watermark), watermark, $"The catalog '{Path}' recorded the watermark " +
                $"{new DateTime(_index.Watermark):O}; a watermark only advances.");
        }

        FlushAndRecord(ticks);
    }

    /// <summary>
    /// Seals every recorded partition whose period ends at or before <paramref name="before"/> and that is not the
    /// one this writer appends to for its series, after a <see cref="Flush()"/>: a table at a time
    /// (<see cref="TimeSeriesTable.Seal"/>), its rows recorded first if a killed writer left some unrecorded, then
    /// recorded as sealed. Readers, and replays under way, follow each table into its sealed form.
    /// </summary>
    /// <returns>How many partitions were sealed.</returns>
    /// <exception cref="ListMmfOrderException">A partition holds unrecorded rows outside its period; those before it were sealed.</exception>
    public int Seal(DateTime before)
    {
        long end = TicksOf(before, _allUtc);
        Flush();
        PartitionRecord[] sealable = _index.Series
            .SelectMany(series => series.Value)
            .Where(record => record.Sealed == 0 && CatalogPeriods.EndOf(record.PeriodStart, Schema.Period) <= end
                && !(_writing.TryGetValue((record.Kind, record.Instrument), out Writing? open) && open.Period == record.PeriodStart))
            .ToArray();
        int sealedCount = 0;
        foreach (PartitionRecord candidate in sealable)
        {
            PartitionRecord record = Reconcile(candidate);
            if (record.Rows > 0)
            {
                TimeSeriesTable.Seal(PartitionOf(record).Path);
                AppendLine(record with { Sealed = 1 });
                sealedCount++;
            }
        }

        _index.Flush();
        return sealedCount;
    }

    /// <summary>
    /// Adds the instruments the catalog does not have yet, in the order given, so that their ordinals (the replay's
    /// order of equal times) do not depend on which of several threads appends first.
    /// </summary>
    internal void AddInstruments(IEnumerable<string> instruments)
    {
        ThrowIfWriterGone();
        foreach (string instrument in instruments)
        {
            OrdinalOf(instrument);
        }

        _instruments.MakeDurable();
    }

    /// <summary>
    /// Records and closes <paramref name="instrument"/>'s open partition of <paramref name="kind"/>, if this writer
    /// holds one: a writer done with a series (an import of thousands of instruments) gives its files back rather
    /// than holding every series' latest partition open until it is disposed. A later <see cref="Partition"/> opens
    /// it again.
    /// </summary>
    internal void CloseSeries(string kind, string instrument)
    {
        ThrowIfWriterGone();
        (int Kind, int Instrument) series = (RankOf(kind), _instruments.Find(instrument));
        if (series.Instrument < 0 || !_writing.TryGetValue(series, out Writing? open))
        {
            return;
        }

        Record([open]);
        _index.Flush();
        _writing.Remove(series);
        open.Table.Dispose();
    }

    private void FlushAndRecord(long? watermark)
    {
        ThrowIfWriterGone();
        Record(_writing.Values.ToArray());
        if (watermark is { } ticks && ticks > _index.Watermark)
        {
            AppendLine(new PartitionRecord { Kind = CatalogIndex.WatermarkLine, Instrument = CatalogIndex.WatermarkLine, LastTime = ticks });
        }

        _index.Flush();
    }

    /// <summary>
    /// Checks every partition's rows since its last line, makes them durable (together, see
    /// <see cref="TimeSeriesTable.FlushAll"/>), then appends their lines: every check before
    /// any flush, every flush before any line. The caller makes the index durable.
    /// </summary>
    private void Record(Writing[] partitions)
    {
        Writing[] changed = partitions.Where(writing => writing.HasChanged).ToArray();
        foreach (Writing writing in changed)
        {
            CheckNewRows(writing);
        }

        // All partitions at once: two rounds of barriers for every table, not two for each.
        TimeSeriesTable.FlushAll(changed.Select(writing => writing.Table).ToArray());
        _instruments.MakeDurable();
        foreach (Writing writing in changed)
        {
            AppendLine(writing.Line(writing.Table.RowCount));
        }
    }

    /// <summary>
    /// The series' latest partition as its files hold it: a writer killed after appending to it may have left rows
    /// the index does not record, which are checked, made durable and recorded here. A sealed partition is as recorded.
    /// </summary>
    private PartitionRecord Reconcile(PartitionRecord record)
    {
        string path = PartitionOf(record).Path;
        if (record.Sealed != 0 || !File.Exists(System.IO.Path.Combine(path, TimeSeriesTable.ManifestFileName)))
        {
            return record;
        }

        using TimeSeriesTable table = TimeSeriesTable.Open(path, FileAccess.ReadWrite, _options);
        var writing = new Writing(table, record.Kind, record.Instrument, record.PeriodStart, record);
        if (!writing.HasChanged)
        {
            return record;
        }

        Record([writing]);
        _index.Flush();
        return writing.Line(table.RowCount);
    }

    /// <summary>Opens the partition's table for appending, adopting a folder a killed writer left, or creates it.</summary>
    private TimeSeriesTable OpenForWriting(string path, string kind, PartitionRecord? recorded)
    {
        if (!File.Exists(System.IO.Path.Combine(path, TimeSeriesTable.ManifestFileName)))
        {
            return TimeSeriesTable.Create(path, Schema.SchemaOf(kind), _options);
        }

        try
        {
            return TimeSeriesTable.Open(path, FileAccess.ReadWrite, _options);
        }
        catch (ListMmfException exception) when (recorded is { Sealed: not 0 } && exception is not ListMmfLockedException)
        {
            throw new ListMmfException(path, $"the partition is sealed; unseal it (TimeSeriesTable.Unseal) to append to it. " +
                $"({exception.Message})", exception);
        }
    }

    /// <summary>Appends an index line the writer made, checked as a reader checks it first, so that no reader ever meets a line it refuses.</summary>
    private void AppendLine(in PartitionRecord line)
    {
        if (_index.ProblemWith(line) is { } problem)
        {
            throw new ListMmfException(_index.Path, $"the catalog's writer made an index line that it would refuse ({problem}); " +
                "nothing was appended.");
        }

        _index.Append(line);
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

    /// <summary>
    /// The rows a partition holds past its last line: the recorded ones still there, unchanged, and the new ones in
    /// its period and not before the watermark. Checked before anything is flushed or recorded.
    /// </summary>
    private void CheckNewRows(Writing writing)
    {
        TimeSeriesTable table = writing.Table;
        long rows = table.RowCount;
        long recorded = writing.Recorded;
        if (rows < recorded || (recorded > 0 && table.TimeAt(recorded - 1).Ticks != writing.RecordedLast))
        {
            throw new ListMmfOrderException(table.Path, $"the partition holds {rows:N0} rows, and the {recorded:N0} the catalog " +
                "recorded are no longer all there as recorded (truncated or rewritten); recorded rows may have been replayed, " +
                    "so a catalog's partitions only grow: append the rows back; nothing was recorded", Math.Min(rows, recorded));
        }

        if (rows == recorded)
        {
            return;
        }

        long end = CatalogPeriods.EndOf(writing.Period, Schema.Period);
        DateTime first = table.TimeAt(recorded);
        DateTime last = table.TimeAt(rows - 1);
        (long row, DateTime time, string problem)? refused =
            first.Ticks < _index.Watermark ? (recorded, first, $"is before the watermark {new DateTime(_index.Watermark):O} the catalog " +
                "recorded, before which every row was recorded")
            : first.Ticks < writing.Period
                ? (recorded, first, $"lies before the partition's period {CatalogPeriods.NameOf(writing.Period, Schema.Period)}")
            : last.Ticks >= end ? (rows - 1, last, $"lies outside the partition's period {CatalogPeriods.NameOf(writing.Period, Schema.Period)}")
            : null;
        if (refused is { } found)
        {
            throw new ListMmfOrderException(table.Path, $"row {found.row:N0} at {found.time:O} {found.problem}; nothing was recorded. " +
                "Truncate the partition before it and append the row where it belongs", found.row);
        }
    }

    private void ThrowIfWriterGone()
    {
        ThrowIfDisposed();
        if (!IsWritable)
        {
            throw new NotSupportedException($"The catalog '{Path}' was opened read-only.");
        }
    }

    private void CloseWriting()
    {
        List<Exception>? failures = null;
        foreach (Writing writing in _writing.Values)
        {
            try
            {
                writing.Table.Dispose();
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
            {
                (failures ??= []).Add(exception);
            }
        }

        _writing.Clear();
        if (failures is not null)
        {
            throw new AggregateException($"Closing the partitions of catalog '{Path}' failed.", failures);
        }
    }

    /// <summary>A partition the writer holds open, and what the index records of it.</summary>
    private sealed class Writing(TimeSeriesTable table, int kind, int instrument, long period, PartitionRecord recorded)
    {
        public TimeSeriesTable Table { get; } = table;

        public long Period { get; } = period;

        /// <summary>The rows the index records.</summary>
        public long Recorded { get; private set; } = recorded.Rows;

        /// <summary>The time of the last row the index records, in ticks.</summary>
        public long RecordedLast { get; private set; } = recorded.LastTime;

        private long _recordedFirst = recorded.FirstTime;

        /// <summary>Whether the table holds other rows than the index records: more, or the recorded ones truncated.</summary>
        public bool HasChanged => Table.RowCount != Recorded || (Recorded > 0 && Table.TimeAt(Recorded - 1).Ticks != RecordedLast);

        /// <summary>The index line of the partition's first <paramref name="rows"/> rows (appendable), which the index now records.</summary>
        public PartitionRecord Line(long rows)
        {
            long first = rows == 0 ? 0 : Recorded > 0 ? _recordedFirst : Table.TimeAt(0).Ticks;
            long last = rows == 0 ? 0 : rows == Recorded ? RecordedLast : Table.TimeAt(rows - 1).Ticks;
            (Recorded, RecordedLast, _recordedFirst) = (rows, last, first);
            return new PartitionRecord
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
}
