using System;
using System.Collections.Generic;
using System.Linq;

namespace ListMmf;

/// <summary>The catalog's questions across instruments at one time.</summary>
public sealed partial class TimeSeriesCatalog
{
    /// <summary>The partitions a state must search before it searches them on every core.</summary>
    private const int ParallelStateInstruments = 64;

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
        int[] ordinals = instruments is null ? Enumerable.Range(0, InstrumentCount).ToArray() : instruments.Select(KnownOrdinalOf).ToArray();
        long ticks = TicksOf(time, _timeKinds[rank] == DateTimeKind.Utc);
        _index.ReadNew();
        var state = new CatalogState(Path, kind, new DateTime(ticks, _timeKinds[rank]),
            ordinals.Select(ordinal => _instruments.ValueOf((uint)ordinal, -1)).ToArray(), Schema.SchemaOf(kind), names);
        // The index answers first, on this thread; the partitions' searches, each on its own table, then run on every
        // core where there are enough of them to pay for the threads.
        var searches = new List<(int At, CatalogPartition Partition, PartitionRecord Record)>();
        for (int at = 0; at < ordinals.Length; at++)
        {
            if (LastAtOrBefore(_index.SeriesOf(rank, ordinals[at]), ticks) is not { } record)
            {
                continue;
            }

            CatalogPartition partition = PartitionOf(record);
            if (record.LastTime <= ticks && !state.ReadsColumns)
            {
                state.Set(at, partition, record.Rows - 1, partition.LastTime, table: null);
                continue;
            }

            searches.Add((at, partition, record));
        }

        // The cache's tables are taken in one lock and given back in one, not two locks a partition that the threads
        // would contend for; those it does not hold are opened by the thread that searches them, and given back at
        // once, so that a state holds no more tables than the cache's size and its threads.
        CatalogPartition[] partitions = searches.Select(search => search.Partition).ToArray();
        if (partitions.Length >= ParallelStateInstruments)
        {
            ReadAhead(partitions, names);
        }

        var tables = new TimeSeriesTable?[partitions.Length];
        _tables.RentHeld(partitions, tables);
        void Search(int i)
        {
            (int at, CatalogPartition partition, PartitionRecord record) = searches[i];
            TimeSeriesTable? held = tables[i];
            tables[i] = null;
            TimeSeriesTable table = RentTable(partition, held);
            tables[i] = held is null ? null : table;
            try
            {
                // Rows the writer added since its last flush are not recorded yet, and come at or after the recorded
                // last time: past it, the state is the last recorded row; before it, the search ends among recorded rows.
                long row = record.LastTime <= ticks ? record.Rows - 1 : table.LastAtOrBefore(new DateTime(ticks, _timeKinds[rank]));
                state.Set(at, partition, row, new DateTime(table.TimeAt(row).Ticks, _timeKinds[rank]), table);
            }
            finally
            {
                if (held is null)
                {
                    ReturnTable(partition, table);
                }
            }
        }

        try
        {
            if (partitions.Length < ParallelStateInstruments)
            {
                for (int i = 0; i < partitions.Length; i++)
                {
                    Search(i);
                }
            }
            else
            {
                EveryCore.For(partitions.Length, Search);
            }
        }
        finally
        {
            _tables.ReturnAll(partitions, tables);
        }

        return state;
    }

    /// <summary>
    /// OHLCV bars of <paramref name="interval"/> of every instrument (or of those given, in their order) over the
    /// recorded rows of <paramref name="kind"/> in [<paramref name="from"/>, <paramref name="to"/>), on every core:
    /// for each instrument, its bars in time order, as <see cref="TimeSeriesTable.Bars"/> gives them from one table.
    /// A bar's <see cref="OhlcvBar.Rows"/> are rows of the partition whose period holds its start. The interval
    /// divides a day (a second, a minute, an hour, a day), so that no bar straddles two partitions; build longer bars
    /// from daily ones. Partitions in the range are borrowed from the catalog's cache (<see cref="PartitionCacheSize"/>).
    /// </summary>
    /// <exception cref="ArgumentException">The kind, an instrument or a column is not in the catalog.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="interval"/> is not positive or does not divide a day.</exception>
    public IReadOnlyList<OhlcvBar[]> Bars(
        string kind, string price, string volume, DateTime from, DateTime to, TimeSpan interval, IEnumerable<string>? instruments = null)
    {
        ThrowIfDisposed();
        int rank = RankOf(kind);
        Columns([price, volume], [rank]);
        if (interval <= TimeSpan.Zero || TimeSpan.TicksPerDay % interval.Ticks != 0)
        {
            throw new ArgumentOutOfRangeException(nameof(interval), interval, $"Catalog '{Path}': a bar's interval must divide a day " +
                "(a second, a minute, an hour, a day), so that no bar straddles two partitions; build longer bars from daily ones.");
        }

        int[] ordinals = instruments is null ? Enumerable.Range(0, InstrumentCount).ToArray() : instruments.Select(KnownOrdinalOf).ToArray();
        bool utc = _timeKinds[rank] == DateTimeKind.Utc;
        (long start, long end) = (TicksOf(from, utc), TicksOf(to, utc));
        _index.ReadNew();
        CatalogPartition[][] chains = ordinals
            .Select(ordinal => (_index.SeriesOf(rank, ordinal) ?? [])
                .Where(record => Overlaps(record, start, end)).Select(record => PartitionOf(record)).ToArray())
            .ToArray();
        var bars = new OhlcvBar[chains.Length][];
        EveryCore.For(chains.Length, at => bars[at] = BarsOf(chains[at], price, volume, start, end, interval));

        return bars;
    }

    /// <summary>One instrument's bars over its partitions' recorded rows in [<paramref name="from"/>, <paramref name="to"/>).</summary>
    private OhlcvBar[] BarsOf(CatalogPartition[] chain, string price, string volume, long from, long to, TimeSpan interval)
    {
        var pieces = new OhlcvBar[chain.Length][];
        for (int i = 0; i < chain.Length; i++)
        {
            CatalogPartition partition = chain[i];
            pieces[i] = WithTable(partition, table => table.BarsOfRows(price, volume, partition.RecordedRows(table, from, to), interval));
        }

        return pieces.Length == 1 ? pieces[0] : pieces.SelectMany(piece => piece).ToArray();
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
