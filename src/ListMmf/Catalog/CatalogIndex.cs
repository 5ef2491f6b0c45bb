using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A catalog's index of partitions (<c>partitions.mmf</c>): a list of <see cref="PartitionRecord"/> that only grows,
/// read as far as its writer has published it, each partition's last line kept in its series' list in period order.
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

    /// <summary>Each line naming an instrument past every line before it, and how many instruments the lines to it name.</summary>
    private readonly List<(long Line, int Instruments)> _instrumentsFrom = [];

    /// <summary>The lines this index reads at most: a snapshot's; otherwise every line.</summary>
    private readonly long _lineLimit;

    /// <summary>
    /// The kind of a line that records the writer's watermark, in its <see cref="PartitionRecord.LastTime"/>, rather
    /// than a partition.
    /// </summary>
    public const int WatermarkLine = -1;

    /// <summary>The most lines one span over the index holds.</summary>
    private const int LinesPerLook = 1 << 20;

    /// <param name="records">The index file, open for reading or writing.</param>
    /// <param name="kinds">How many kinds the catalog has: a line of another kind is damage.</param>
    /// <param name="period">The catalog's period: a line whose period start is not one is damage.</param>
    /// <param name="instruments">How many instruments the catalog holds now: a line of another is damage.</param>
    /// <param name="lineLimit">The lines to read at most (a snapshot's), or <see cref="long.MaxValue"/> for all.</param>
    /// <exception cref="ListMmfFormatException">A line is damaged, or the index holds fewer lines than <paramref name="lineLimit"/>
    /// where one is given.</exception>
    public CatalogIndex(ListMmf<PartitionRecord> records, int kinds, CatalogPeriod period, Func<int> instruments, long lineLimit = long.MaxValue)
    {
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

        ReadNew();
    }

    public string Path => _records.Path;

    /// <summary>The time, in ticks, before which the writer has recorded every row: the last watermark line's; 0 before any.</summary>
    public long Watermark { get; private set; }

    /// <summary>Every series (kind, instrument) the index holds, with its partitions' last lines in period order.</summary>
    public IReadOnlyDictionary<(int Kind, int Instrument), List<PartitionRecord>> Series => _series;

    /// <summary>The partitions of one series in period order, or null when the index holds none.</summary>
    public List<PartitionRecord>? SeriesOf(int kind, int instrument) =>
        _series.TryGetValue((kind, instrument), out List<PartitionRecord>? partitions) ? partitions : null;

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
    /// How many instruments the first <paramref name="lines"/> lines hold rows of: one past the highest ordinal they
    /// name, or 0.
    /// </summary>
    public int InstrumentsBefore(long lines)
    {
        int instruments = 0;
        foreach ((long line, int count) in _instrumentsFrom)
        {
            if (line >= lines)
            {
                break;
            }

            instruments = count;
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

    /// <summary>Makes every line appended so far durable.</summary>
    public void Flush() => _records.Flush();

    public void Dispose() => _records.Dispose();

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
        if (ProblemWith(record, instruments) is { } problem)
        {
            throw new ListMmfFormatException(Path, $"line {line:N0} of the catalog's index is damaged: {problem}.");
        }

        if (record.Kind == WatermarkLine)
        {
            Watermark = record.LastTime;
            return;
        }

        (int Kind, int Instrument) key = (record.Kind, record.Instrument);
        List<PartitionRecord>? partitions = _lastSeries;
        if (key != _lastKey || partitions is null)
        {
            partitions = SeriesFor(key, line);
            (_lastKey, _lastSeries) = (key, partitions);
        }

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

    /// <summary>The list of series <paramref name="key"/>, made when <paramref name="line"/> is its first.</summary>
    private List<PartitionRecord> SeriesFor((int Kind, int Instrument) key, long line)
    {
        if (!_series.TryGetValue(key, out List<PartitionRecord>? partitions))
        {
            _series.Add(key, partitions = []);
            if (_instrumentsFrom.Count == 0 || key.Instrument >= _instrumentsFrom[^1].Instruments)
            {
                _instrumentsFrom.Add((line, key.Instrument + 1));
            }
        }

        return partitions;
    }
}
