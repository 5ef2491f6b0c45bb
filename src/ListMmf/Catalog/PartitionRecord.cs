using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>
/// One line of a catalog's index of partitions: what a partition held when its writer recorded it. The index only
/// grows; the last line of a partition (kind, instrument, period) is what it holds, so a reader lists, finds and
/// bounds partitions without opening their column files. A line of kind -1 records instead the writer's watermark,
/// in <see cref="LastTime"/>: every row before it is recorded (<see cref="TimeSeriesCatalog.Flush(System.DateTime)"/>).
/// </summary>
[StructLayout(LayoutKind.Sequential)]
internal struct PartitionRecord
{
    /// <summary>The instrument's ordinal: its code in the catalog's file of instrument names.</summary>
    public int Instrument;

    /// <summary>The kind's position in the catalog's schema; -1 for a watermark line.</summary>
    public int Kind;

    /// <summary>The start of the partition's period, in ticks.</summary>
    public long PeriodStart;

    /// <summary>The first row's time, in ticks; 0 while <see cref="Rows"/> is 0.</summary>
    public long FirstTime;

    /// <summary>The last row's time, in ticks; 0 while <see cref="Rows"/> is 0.</summary>
    public long LastTime;

    /// <summary>The rows the partition held, all made durable before this line was written.</summary>
    public long Rows;

    /// <summary>1 when the partition's files are sealed, 0 when they are appendable.</summary>
    public int Sealed;

    /// <summary>0; kept so that the line is a whole number of 8-byte words.</summary>
    public int Reserved;
}
