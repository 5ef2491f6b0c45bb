using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A catalog's index of partitions (<c>partitions.mmf</c>): a list of <see cref="PartitionRecord"/> that only grows,
/// read as far as its writer has published it, each partition's last line kept in its series' list in period order.
/// A reader starts from the index's checkpoint where there is a valid one (<see cref="CatalogCheckpoint"/>): it reads
/// the lines after it, and each series the checkpoint holds when that series is first asked for.
/// </summary>
internal sealed class CatalogIndex : IDisposable
{
    private readonly ListMmf<PartitionRecord> _records;
    private readonly int _kinds;
    private readonly CatalogPeriod _period;
    private readonly Func<int> _instruments;
    private readonly Dictionary<(int Kind, int Instrument), List<PartitionRecord>> _series = [];
    private long _read;

    /// <summary>The series of the last line read: a writer's lines come in runs of one series.</summary>
    private (int Kind, int Instrument) _lastKey;
    private List<PartitionRecord>? _lastSeries;

    /// <summary>The checkpoint this reader started from, whose series are in <see cref="_unread"/> until asked for; else null.</summary>
    private readonly CatalogCheckpoint? _checkpoint;

    /// <summary>The series of <see cref="_checkpoint"/> not read yet.</summary>
    private readonly HashSet<(int Kind, int Instrument)> _unread = [];

    private readonly bool _owns;

    /// <summary>The lines the last checkpoint a writer left holds (this writer's, or the one it found); 0 before any.</summary>
    private long _checkpointLines;

    /// <summary>The lines this index reads at most: a snapshot's; otherwise every line.</summary>
    private readonly long _lineLimit;

    /// <summary>
    /// The kind of a line that records the writer's watermark, in its <see cref="PartitionRecord.LastTime"/>, rather
    /// than a partition.
    /// </summary>
    public const int WatermarkLine = -1;

    /// <summary>The most lines one span over the index holds.</summary>
    private const int LinesPerLook = 1 << 20;

    /// <summary>The fewest lines past its checkpoint after which a writer's flush writes a new one (as it does at its close).</summary>
    private const long CheckpointLag = 4096;

    /// <param name="records">The index file, open for reading or writing.</param>
    /// <param name="kinds">How many kinds the catalog has: a line of another kind is damage.</param>
    /// <param name="period">The catalog's period: a line whose period start is not one is damage.</param>
    /// <param name="instruments">How many instruments the catalog holds now: a line of another is damage.</param>
    /// <param name="lineLimit">The lines to read at most (a snapshot's), or <see cref="long.MaxValue"/> for all.</param>
    /// <param name="fromCheckpoint">Whether a reader starts from the index's checkpoint, where it holds no more than
    /// <paramref name="lineLimit"/> lines.</param>
    /// <param name="owns">Whether disposing the index disposes <paramref name="records"/>.</param>
    /// <exception cref="ListMmfFormatException">A line is damaged, or the index holds fewer lines than <paramref name="lineLimit"/>
    /// where one is given.</exception>
    public CatalogIndex(ListMmf<PartitionRecord> records, int kinds, CatalogPeriod period, Func<int> instruments, long lineLimit = long.MaxValue,
        bool fromCheckpoint = false, bool owns = true)
    {
        _owns = owns;
        _records = records;
        _kinds = kinds;
        _period = period;
        _instruments = instruments;
        _lineLimit = lineLimit;
        if (lineLimit != long.MaxValue && records.Count < lineLimit)
        {
            throw new ListMmfFormatException(Path, $"a snapshot of the catalog takes its index's first {lineLimit:N0} lines, " +
                $"but the index holds {records.Count:N0}: the index was replaced or damaged since the snapshot was taken");
        }

        if (fromCheckpoint && CatalogCheckpoint.Open(records, kinds) is { } checkpoint && checkpoint.Lines <= lineLimit)
        {
            _checkpoint = checkpoint;
            _unread.UnionWith(checkpoint.Series.Keys);
            _read = checkpoint.Lines;
            Watermark = checkpoint.Watermark;
        }
        else if (records.IsWritable)
        {
            // A writer writes its first checkpoint when the index has grown enough past the one it found.
            _checkpointLines = CatalogCheckpoint.Open(records, kinds)?.Lines ?? 0;
        }

        ReadNew();
    }

    public string Path => _records.Path;

    /// <summary>The time, in ticks, before which the writer has recorded every row: the last watermark line's; 0 before any.</summary>
    public long Watermark { get; private set; }

    /// <summary>Every series (kind, instrument) the index holds, with its partitions' last lines in period order.</summary>
    public IReadOnlyDictionary<(int Kind, int Instrument), List<PartitionRecord>> Series
    {
        get
        {
            if (_unread.Count > 0)
            {
                foreach ((int Kind, int Instrument) series in _unread.Order().ToArray())
                {
                    SeriesFor(series);
                }
            }

            return _series;
        }
    }

    /// <summary>The partitions of one series in period order, or null when the index holds none.</summary>
    public List<PartitionRecord>? SeriesOf(int kind, int instrument) =>
        _unread.Contains((kind, instrument)) ? SeriesFor((kind, instrument))
            : _series.TryGetValue((kind, instrument), out List<PartitionRecord>? partitions) ? partitions : null;

    /// <summary>Reads the lines the writer published since the last look.</summary>
    /// <exception cref="ListMmfFormatException">A line is damaged; the lines before it are kept.</exception>
    public void ReadNew()
    {
        long count = Math.Min(_records.Count, _lineLimit);
        if (_read >= count)
        {
            return;
        }

        // The instruments are counted once a look, not once a line: counting reads what the writer added.
        int instruments = _instruments();
        while (_read < count)
        {
            ReadOnlySpan<PartitionRecord> lines = _records.AsSpan(_read, (int)Math.Min(count - _read, LinesPerLook));
            foreach (ref readonly PartitionRecord line in lines)
            {
                if (line.Instrument >= instruments && line.Kind != WatermarkLine)
                {
                    instruments = _instruments();
                }

                Apply(line, _read, instruments);
                _read++;
            }
        }
    }

    /// <summary>Appends <paramref name="record"/>, seen at once by this index and by readers once published.</summary>
    public void Append(in PartitionRecord record)
    {
        _records.Add(record);
        ReadNew();
    }

    /// <summary>
    /// How many instruments the first <paramref name="lines"/> lines (lines this index has read) hold rows of: one
    /// past the highest ordinal they name, or 0. Reads those lines.
    /// </summary>
    public int InstrumentsBefore(long lines)
    {
        int instruments = 0;
        for (long at = 0; at < lines; at += LinesPerLook)
        {
            foreach (ref readonly PartitionRecord line in _records.AsSpan(at, (int)Math.Min(lines - at, LinesPerLook)))
            {
                instruments = line.Kind == WatermarkLine ? instruments : Math.Max(instruments, line.Instrument + 1);
            }
        }

        return instruments;
    }

    /// <summary>
    /// The lines this index read that a power loss keeps from now on: those below the durable count read now (the
    /// count itself in a version 1 file), with the file then made durable, so that a count its writer stored but had
    /// not yet made durable (or a version 1 count) is kept too. What a snapshot taken now holds.
    /// </summary>
    public long SyncedLines()
    {
        long lines = Math.Min(_read, _records.DurableCount);
        _records.SyncFile();
        return lines;
    }

    /// <summary>
    /// The writer's flush: makes every line appended so far durable, then leaves a new checkpoint once the lines past
    /// the last one are many (an eighth of the index, and at least <see cref="CheckpointLag"/>).
    /// </summary>
    public void Flush()
    {
        _records.Flush();
        long lag = _records.Count - _checkpointLines;
        if (lag >= CheckpointLag && lag >= _records.Count / 8)
        {
            WriteCheckpoint();
        }
    }

    /// <summary>The writer's close, after its last <see cref="Flush"/>: leaves a checkpoint of every line, unless the last one holds them.</summary>
    public void Close()
    {
        if (_records.Count > _checkpointLines)
        {
            WriteCheckpoint();
        }
    }

    public void Dispose()
    {
        if (_owns)
        {
            _records.Dispose();
        }
    }

    /// <summary>
    /// What makes <paramref name="checkpoint"/> hold other series than the first lines of <paramref name="records"/>
    /// it covers leave, each read and checked as a reader reads the index, or null where it holds them.
    /// </summary>
    /// <exception cref="ListMmfFormatException">A line of the index is damaged.</exception>
    public static string? ProblemWithCheckpoint(
        CatalogCheckpoint checkpoint, ListMmf<PartitionRecord> records, int kinds, CatalogPeriod period, Func<int> instruments)
    {
        using var lines = new CatalogIndex(records, kinds, period, instruments, checkpoint.Lines, owns: false);
        if (lines.Watermark != checkpoint.Watermark)
        {
            return $"records the watermark {checkpoint.Watermark} ticks where its {checkpoint.Lines:N0} lines record {lines.Watermark}";
        }

        if (lines._series.Count != checkpoint.Series.Count)
        {
            return $"holds {checkpoint.Series.Count:N0} series where its {checkpoint.Lines:N0} lines hold {lines._series.Count:N0}";
        }

        foreach (((int Kind, int Instrument) key, List<PartitionRecord> partitions) in lines._series)
        {
            PartitionRecord[]? held = checkpoint.ReadSeries(key);
            if (held is null || !MemoryMarshal.AsBytes(held.AsSpan()).SequenceEqual(MemoryMarshal.AsBytes(CollectionsMarshal.AsSpan(partitions))))
            {
                return $"holds other partitions of kind {key.Kind}, instrument {key.Instrument} than its {checkpoint.Lines:N0} lines do";
            }
        }

        return null;
    }

    /// <summary>What makes <paramref name="record"/> no line this index takes after the lines it read, or null.</summary>
    public string? ProblemWith(in PartitionRecord record) => ProblemWith(record, _instruments());

    private string? ProblemWith(in PartitionRecord record, int instruments)
    {
        if (record.Kind == WatermarkLine)
        {
            return record.Instrument != WatermarkLine || record.LastTime < Watermark || record.LastTime > DateTime.MaxValue.Ticks
                ? $"its watermark {record.LastTime} ticks is before the one before it ({Watermark}) or past the calendar"
                : null;
        }

        return record.Kind < 0 || record.Kind >= _kinds ? $"kind {record.Kind} is not one of the catalog's {_kinds}"
            : record.Instrument < 0 || record.Instrument >= instruments ? $"instrument {record.Instrument} is not one of the catalog's"
            : record.Rows < 0 ? $"{record.Rows} rows is negative"
            : record.Sealed is not (0 or 1) ? $"its sealed flag {record.Sealed} is neither 0 nor 1"
            : record.PeriodStart < 0 || record.PeriodStart > DateTime.MaxValue.Ticks
                || CatalogPeriods.StartOf(record.PeriodStart, _period) != record.PeriodStart ? $"{record.PeriodStart} ticks starts no {_period}"
            : record.Rows > 0 && (record.FirstTime < record.PeriodStart || record.LastTime < record.FirstTime
                || record.LastTime >= CatalogPeriods.EndOf(record.PeriodStart, _period))
                ? "its first and last times do not lie in its period in order"
            : null;
    }

    private void Apply(in PartitionRecord record, long line, int instruments)
    {
        ThrowIfDamaged(record, line, instruments);
        if (record.Kind == WatermarkLine)
        {
            Watermark = record.LastTime;
            return;
        }

        (int Kind, int Instrument) key = (record.Kind, record.Instrument);
        List<PartitionRecord>? partitions = _lastSeries;
        if (key != _lastKey || partitions is null)
        {
            partitions = SeriesFor(key);
            (_lastKey, _lastSeries) = (key, partitions);
        }

        Place(partitions, record);
    }

    /// <summary>Puts a partition's line, checked, in its series' list, in period order, over the line of the same period before it.</summary>
    private static void Place(List<PartitionRecord> partitions, in PartitionRecord record)
    {
        Span<PartitionRecord> known = CollectionsMarshal.AsSpan(partitions);
        int at = known.Length - 1;
        while (at >= 0 && known[at].PeriodStart > record.PeriodStart)
        {
            at--;
        }

        if (at >= 0 && known[at].PeriodStart == record.PeriodStart)
        {
            known[at] = record;
        }
        else
        {
            partitions.Insert(at + 1, record);
        }
    }

    private void ThrowIfDamaged(in PartitionRecord record, long line, int instruments)
    {
        if (ProblemWith(record, instruments) is { } problem)
        {
            throw new ListMmfFormatException(Path, $"line {line:N0} of the catalog's index is damaged: {problem}.");
        }
    }

    /// <summary>
    /// The list of series <paramref name="key"/>: made where the index has no line of it yet, or read from the
    /// checkpoint where it holds the series and no line has asked for it.
    /// </summary>
    private List<PartitionRecord> SeriesFor((int Kind, int Instrument) key)
    {
        if (!_series.TryGetValue(key, out List<PartitionRecord>? partitions))
        {
            _series.Add(key, partitions = []);
            if (_unread.Remove(key))
            {
                ReadCheckpointed(key, partitions);
            }
        }

        return partitions;
    }

    /// <summary>
    /// Reads into <paramref name="partitions"/> the lines of <paramref name="key"/> the checkpoint holds, each checked
    /// as a line of the index is. Where the checkpoint's lines cannot be used (they cannot be read, fail a check, or the
    /// writer has left a newer checkpoint since), this series and every other not read yet are read from the index's
    /// first lines instead, in one pass.
    /// </summary>
    /// <exception cref="ListMmfFormatException">A line of the index is damaged.</exception>
    private void ReadCheckpointed((int Kind, int Instrument) key, List<PartitionRecord> partitions)
    {
        CatalogCheckpoint checkpoint = _checkpoint!;
        int instruments = _instruments();
        if (checkpoint.ReadSeries(key) is { } lines)
        {
            foreach (PartitionRecord line in lines)
            {
                if (line.Kind != key.Kind || line.Instrument != key.Instrument || ProblemWith(line, instruments) is not null
                    || (partitions.Count > 0 && partitions[^1].PeriodStart >= line.PeriodStart))
                {
                    partitions.Clear();
                    break;
                }

                partitions.Add(line);
            }

            if (partitions.Count == lines.Length)
            {
                return;
            }
        }

        var unread = new Dictionary<(int Kind, int Instrument), List<PartitionRecord>> { [key] = partitions };
        foreach ((int Kind, int Instrument) series in _unread)
        {
            _series.Add(series, unread[series] = []);
        }

        _unread.Clear();
        for (long at = 0; at < checkpoint.Lines; at += LinesPerLook)
        {
            ReadOnlySpan<PartitionRecord> look = _records.AsSpan(at, (int)Math.Min(checkpoint.Lines - at, LinesPerLook));
            for (int i = 0; i < look.Length; i++)
            {
                if (look[i].Kind != WatermarkLine && unread.TryGetValue((look[i].Kind, look[i].Instrument), out List<PartitionRecord>? list))
                {
                    ThrowIfDamaged(look[i], at + i, instruments);
                    Place(list, look[i]);
                }
            }
        }
    }

    /// <summary>Writes the checkpoint of every line, all of them the writer's and durable.</summary>
    private void WriteCheckpoint()
    {
        long lines = _records.Count;
        try
        {
            CatalogCheckpoint.Write(Path, _kinds, Series, lines, Watermark, _records[lines - 1]);
            _checkpointLines = lines;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ListMmfException)
        {
            // Derived data: without it readers read the whole index, as before the first checkpoint. The writer's
            // next flush past the lag tries again.
        }
    }
}
