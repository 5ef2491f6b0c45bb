using System;
using System.Collections.Generic;
using System.Linq;

namespace ListMmf;

/// <summary>The ASOF join across a catalog's kinds: each row of one kind with the last row of another at or before it.</summary>
public sealed partial class TimeSeriesCatalog
{
    /// <summary>
    /// The ASOF join of <paramref name="instrument"/>'s <paramref name="left"/> and <paramref name="right"/> kinds (a
    /// trade and the quote in force): for every recorded row of <paramref name="left"/> in [<paramref name="from"/>,
    /// <paramref name="to"/>), in time order, the last recorded row of <paramref name="right"/> at or before its time,
    /// whichever partition holds it (an earlier period's too), with the values of <paramref name="leftColumns"/> and
    /// <paramref name="rightColumns"/>. Each right partition is searched once for its left rows as a merge, and its
    /// values gathered once (a sealed block decoded once for the rows in it); partitions are borrowed from the
    /// catalog's cache (<see cref="PartitionCacheSize"/>).
    /// </summary>
    /// <exception cref="ArgumentException">A kind, the instrument or a column is not in the catalog, or one kind's times
    /// are UTC and the other's not.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The range holds more left rows than an array does; join it in parts.</exception>
    public CatalogAsOf AsOf(string left, string right, string instrument, DateTime from, DateTime to,
        IEnumerable<string>? leftColumns = null, IEnumerable<string>? rightColumns = null)
    {
        ThrowIfDisposed();
        (int leftRank, int rightRank) = (RankOf(left), RankOf(right));
        if (_timeKinds[leftRank] != _timeKinds[rightRank])
        {
            throw new ArgumentException($"Catalog '{Path}': the times of kind '{left}' are {_timeKinds[leftRank]} and those of " +
                $"'{right}' {_timeKinds[rightRank]}; an ASOF join compares times of one zone.", nameof(right));
        }

        string[] leftNames = Columns(leftColumns, [leftRank]);
        string[] rightNames = Columns(rightColumns, [rightRank]);
        int ordinal = KnownOrdinalOf(instrument);
        DateTimeKind zone = _timeKinds[leftRank];
        (long start, long end) = (TicksOf(from, zone == DateTimeKind.Utc), TicksOf(to, zone == DateTimeKind.Utc));
        _index.ReadNew();
        CatalogPartition[] lefts = (_index.SeriesOf(leftRank, ordinal) ?? [])
            .Where(record => Overlaps(record, start, end)).Select(record => PartitionOf(record)).ToArray();
        CatalogPartition[] rights = (_index.SeriesOf(rightRank, ordinal) ?? [])
            .Where(record => record.Rows > 0 && record.FirstTime < end).Select(record => PartitionOf(record)).ToArray();

        IndexRange[] ranges = lefts.Select(partition => WithTable(partition, table => partition.RecordedRows(table, start, end))).ToArray();
        long total = ranges.Sum(range => range.Length);
        if (total > Array.MaxLength)
        {
            throw new ArgumentOutOfRangeException(nameof(to), to, $"Catalog '{Path}': {total:N0} rows of {instrument}'s {left} lie in the " +
                "range, more than one join holds; join it in parts.");
        }

        int count = (int)total;
        var times = new DateTime[count];
        var matchedTimes = new DateTime[count];
        var matched = new bool[count];
        var leftValues = new CatalogValues(Path, left, Schema.SchemaOf(left), leftNames, count);
        var rightValues = new CatalogValues(Path, right, Schema.SchemaOf(right), rightNames, count);
        long[] rows = new long[count];
        int at = 0;
        for (int i = 0; i < lefts.Length; i++)
        {
            int length = (int)ranges[i].Length;
            IndexRange range = ranges[i];
            WithTable(lefts[i], table =>
            {
                table.CopyTimes(range, times.AsSpan(at, length));
                for (int row = 0; row < length; row++)
                {
                    rows[at + row] = range.Start + row;
                }

                leftValues.Gather(table, rows.AsSpan(at, length), at);
                return 0;
            });
            at += length;
        }

        Match(rights, times, rows, matched, matchedTimes, rightValues);
        return new CatalogAsOf(instrument, times, matchedTimes, matched, leftValues, rightValues);
    }

    /// <summary>
    /// Finds each of <paramref name="times"/>' (ascending) last row of <paramref name="rights"/> (a series' partitions in
    /// period order) at or before it, and gathers its time and values; <paramref name="rows"/> is scratch.
    /// </summary>
    private void Match(CatalogPartition[] rights, DateTime[] times, long[] rows, bool[] matched, DateTime[] matchedTimes, CatalogValues values)
    {
        int next = 0;
        for (int p = 0; p < rights.Length && next < times.Length; p++)
        {
            CatalogPartition partition = rights[p];
            long first = partition.FirstTime.Ticks;

            // The times before this partition's first row match the partition before (done), or nothing.
            while (next < times.Length && times[next].Ticks < first)
            {
                next++;
            }

            // This partition answers every time before the next partition's first row.
            int end = next;
            long limit = p + 1 < rights.Length ? rights[p + 1].FirstTime.Ticks : long.MaxValue;
            while (end < times.Length && times[end].Ticks < limit)
            {
                end++;
            }

            if (end == next)
            {
                continue;
            }

            (int from, int length) = (next, end - next);
            WithTable(partition, table =>
            {
                Span<long> found = rows.AsSpan(from, length);
                table.LastAtOrBefore(times.AsSpan(from, length), found);

                // Rows the writer added since its last flush come at or after the recorded last time: a time at or past
                // it has the last recorded row.
                long lastTime = partition.LastTime.Ticks;
                for (int i = 0; i < length; i++)
                {
                    if (times[from + i].Ticks >= lastTime)
                    {
                        found[i] = partition.RowCount - 1;
                    }
                }

                table.GatherTimes(found, matchedTimes.AsSpan(from, length));
                values.Gather(table, found, from);
                matched.AsSpan(from, length).Fill(true);
                return 0;
            });
            next = end;
        }
    }
}
