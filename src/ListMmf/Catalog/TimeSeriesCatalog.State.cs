using System;
using System.Collections.Generic;
using System.Linq;

namespace ListMmf;

/// <summary>The catalog's questions across instruments at one time.</summary>
public sealed partial class TimeSeriesCatalog
{
    /// <summary>
    /// The state of every instrument (or of those given, in their order) at <paramref name="time"/>: each one's last
    /// recorded row of <paramref name="kind"/> at or before it, with the values of <paramref name="columns"/>. The
    /// index picks each instrument's one partition holding that row, so a call opens at most one partition an
    /// instrument, and none where no column is asked for and the row is its partition's last; partitions stay in the
    /// catalog's cache (<see cref="PartitionCacheSize"/>) for the next call.
    /// </summary>
    /// <exception cref="ArgumentException">The kind, an instrument or a column is not in the catalog.</exception>
    public CatalogState StateAt(string kind, DateTime time, IEnumerable<string>? columns = null, IEnumerable<string>? instruments = null)
    {
        ThrowIfDisposed();
        int rank = RankOf(kind);
        string[] names = Columns(columns, [rank]);
        int[] ordinals = instruments is null ? Enumerable.Range(0, _instruments.Count).ToArray() : instruments.Select(KnownOrdinalOf).ToArray();
        long ticks = TicksOf(time, _allUtc);
        _index.ReadNew();
        var state = new CatalogState(Path, kind, new DateTime(ticks, _timeKinds[rank]),
            ordinals.Select(ordinal => _instruments.ValueOf((uint)ordinal, -1)).ToArray(), Schema.SchemaOf(kind), names);
        for (int at = 0; at < ordinals.Length; at++)
        {
            if (LastAtOrBefore(_index.SeriesOf(rank, ordinals[at]), ticks) is not { } record)
            {
                continue;
            }

            CatalogPartition partition = PartitionOf(record);
            bool last = record.LastTime <= ticks;
            if (last && !state.ReadsColumns)
            {
                state.Set(at, partition, record.Rows - 1, partition.LastTime, table: null);
                continue;
            }

            TimeSeriesTable table = RentTable(partition);
            try
            {
                // Rows the writer added since its last flush are not recorded yet: the state ends where the index does.
                long row = last ? record.Rows - 1 : Math.Min(table.LastAtOrBefore(new DateTime(ticks, _timeKinds[rank])), record.Rows - 1);
                state.Set(at, partition, row, new DateTime(table.TimeAt(row).Ticks, _timeKinds[rank]), table);
            }
            finally
            {
                ReturnTable(partition, table);
            }
        }

        return state;
    }

    /// <summary>The last of <paramref name="series"/>' partitions with a recorded row at or before <paramref name="ticks"/>, or null.</summary>
    private static PartitionRecord? LastAtOrBefore(List<PartitionRecord>? series, long ticks)
    {
        if (series is null)
        {
            return null;
        }

        // Periods do not overlap and come in order, so the row is in the last period starting at or before the time
        // that has rows, or in one before it when that period's rows all come later.
        int low = 0;
        int high = series.Count;
        while (low < high)
        {
            int middle = (low + high) >>> 1;
            if (series[middle].PeriodStart <= ticks)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }

        for (int at = low - 1; at >= 0; at--)
        {
            if (series[at].Rows > 0 && series[at].FirstTime <= ticks)
            {
                return series[at];
            }
        }

        return null;
    }
}
