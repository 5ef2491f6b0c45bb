using System;

namespace ListMmf;

/// <summary>
/// One partition of a <see cref="TimeSeriesCatalog"/>, as its index records it: one instrument's rows of one kind
/// over one period, an ordinary <see cref="TimeSeriesTable"/> in <see cref="Path"/>. Listing and finding
/// partitions reads the index alone; no column file is opened until a partition is.
/// </summary>
public sealed class CatalogPartition
{
    internal CatalogPartition(string kind, int kindRank, string instrument, int instrumentOrdinal, string path, DateTimeKind timeKind,
        CatalogPeriod period, in PartitionRecord record)
    {
        Kind = kind;
        KindRank = kindRank;
        Instrument = instrument;
        InstrumentOrdinal = instrumentOrdinal;
        Path = path;
        PeriodStart = new DateTime(record.PeriodStart, timeKind);
        PeriodEnd = new DateTime(Math.Min(CatalogPeriods.EndOf(record.PeriodStart, period), DateTime.MaxValue.Ticks), timeKind);
        FirstTime = new DateTime(record.FirstTime, timeKind);
        LastTime = new DateTime(record.LastTime, timeKind);
        RowCount = record.Rows;
        IsSealed = record.Sealed != 0;
        _record = record;
    }

    private readonly PartitionRecord _record;

    /// <summary>The kind of data (a kind of the catalog's schema).</summary>
    public string Kind { get; }

    /// <summary>The kind's position in the catalog's schema: its rank among rows of one time in a replay.</summary>
    public int KindRank { get; }

    /// <summary>The instrument.</summary>
    public string Instrument { get; }

    /// <summary>The instrument's ordinal: the order it first came to the catalog in, which ranks it among rows of one time and kind.</summary>
    public int InstrumentOrdinal { get; }

    /// <summary>The full path of the partition's table folder.</summary>
    public string Path { get; }

    /// <summary>The start of the partition's period: every row is at or after it.</summary>
    public DateTime PeriodStart { get; }

    /// <summary>
    /// The end of the partition's period: every row is before it (the last period of the calendar ends at
    /// <see cref="DateTime.MaxValue"/>, included).
    /// </summary>
    public DateTime PeriodEnd { get; }

    /// <summary>The first row's time; <see cref="DateTime.MinValue"/> while the partition records no rows.</summary>
    public DateTime FirstTime { get; }

    /// <summary>The last recorded row's time; <see cref="DateTime.MinValue"/> while the partition records no rows.</summary>
    public DateTime LastTime { get; }

    /// <summary>
    /// The rows the index records: every one made durable by the catalog's writer before it recorded them. A writer
    /// may have added rows since, which its next <see cref="TimeSeriesCatalog.Flush()"/> records.
    /// </summary>
    public long RowCount { get; }

    /// <summary>Whether the partition's files are sealed.</summary>
    public bool IsSealed { get; }

    /// <summary>
    /// The partition's recorded rows with times in [<paramref name="from"/>, <paramref name="to"/>) ticks, searched in
    /// <paramref name="table"/>, the partition's table, only where the range cuts them: rows its writer added since
    /// its last flush are not recorded yet, so the rows end where the index does.
    /// </summary>
    internal IndexRange RecordedRows(TimeSeriesTable table, long from, long to)
    {
        DateTimeKind kind = FirstTime.Kind;
        long start = from <= FirstTime.Ticks ? 0 : table.LowerBound(new DateTime(from, kind));
        long end = to > LastTime.Ticks ? RowCount : Math.Min(RowCount, table.LowerBound(new DateTime(to, kind)));
        return new IndexRange(start, Math.Max(start, end));
    }

    /// <summary>The partition's kind rank, instrument ordinal and period start: which of the catalog's partitions it is.</summary>
    internal (int Kind, int Instrument, long PeriodStart) Key => (_record.Kind, _record.Instrument, _record.PeriodStart);

    /// <summary>Whether this partition is what <paramref name="record"/>, a line of its own, records.</summary>
    internal bool Records(in PartitionRecord record) =>
        record.Rows == _record.Rows && record.FirstTime == _record.FirstTime && record.LastTime == _record.LastTime
        && record.Sealed == _record.Sealed;

    /// <inheritdoc/>
    public override string ToString() => $"{Kind}/{Instrument}/{PeriodStart:yyyy-MM-dd}: {RowCount:N0} rows{(IsSealed ? ", sealed" : "")}";
}
