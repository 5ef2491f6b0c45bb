using System;
using System.Linq;

namespace ListMmf;

/// <summary>
/// A table's reads by time: the searches of its time column, the rows of a range, and the bars and aggregates over them.
/// </summary>
public sealed partial class TimeSeriesTable
{
    /// <summary>The time of <paramref name="row"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="row"/> is not below <see cref="RowCount"/>.</exception>
    public DateTime TimeAt(long row) => _time[row];

    /// <summary>The times of <paramref name="range"/>, converted once into <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    public void CopyTimes(IndexRange range, Span<DateTime> destination) => _time.CopyTo(range, destination);

    /// <summary>
    /// The times of <paramref name="rows"/> into <paramref name="destination"/>, as <see cref="TimeAt"/> gives them;
    /// -1 gives <see cref="DateTime.MinValue"/>. A time column of ticks is gathered (a sealed block decoded once for
    /// the ascending rows in it); one of seconds is read row by row.
    /// </summary>
    internal void GatherTimes(ReadOnlySpan<long> rows, Span<DateTime> destination)
    {
        if (_columns[0] is TableColumn<long> { DataType: DataType.DateTime } ticks)
        {
            TableColumn<DateTime>.DateTimesOf(ticks).Gather(rows, destination);
            if (Schema.TimesAreUtc)
            {
                for (int i = 0; i < rows.Length; i++)
                {
                    destination[i] = rows[i] == -1 ? default : DateTime.SpecifyKind(destination[i], DateTimeKind.Utc);
                }
            }

            return;
        }

        for (int i = 0; i < rows.Length; i++)
        {
            destination[i] = rows[i] == -1 ? default : _time[rows[i]];
        }
    }

    /// <summary>The first row whose time is at or after <paramref name="time"/>, or <see cref="RowCount"/>; the time series' rules apply.</summary>
    public long LowerBound(DateTime time) => _time.LowerBound(time);

    /// <summary>The first row whose time is after <paramref name="time"/>, or <see cref="RowCount"/>.</summary>
    public long UpperBound(DateTime time) => _time.UpperBound(time);

    /// <summary>
    /// The rows with times in <c>[from, to)</c>; give the range to <see cref="TableColumn{T}.AsSpan(IndexRange)"/>
    /// for each column's values.
    /// </summary>
    public IndexRange FindRange(DateTime from, DateTime to) => _time.FindRange(from, to);

    /// <summary>
    /// The <see cref="LowerBound(DateTime)"/> of every time in <paramref name="times"/>, into
    /// <paramref name="results"/>, searched together so that their memory misses overlap. No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void LowerBound(ReadOnlySpan<DateTime> times, Span<long> results) => _time.LowerBound(times, results);

    /// <summary>
    /// The <see cref="UpperBound(DateTime)"/> of every time in <paramref name="times"/>, into
    /// <paramref name="results"/>; see <see cref="LowerBound(ReadOnlySpan{DateTime}, Span{long})"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void UpperBound(ReadOnlySpan<DateTime> times, Span<long> results) => _time.UpperBound(times, results);

    /// <summary>
    /// The last row whose time is at or before <paramref name="time"/>, or -1 when every row is after it: an
    /// instrument's state at <paramref name="time"/>. For many instruments, one table each, ask each table; each
    /// answer is one search.
    /// </summary>
    public long LastAtOrBefore(DateTime time) => _time.LastAtOrBefore(time);

    /// <summary>
    /// The ASOF join: for every time in <paramref name="times"/>, the last row at or before it, or -1, into
    /// <paramref name="results"/>. Ascending times at least one per 64 rows are walked as a merge (each search starts
    /// from the answer before it; a sealed time column merges every ascending batch, a block decoded once for the times
    /// in it); other batches are searched together. No allocation beyond a pooled buffer.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results) => _time.LastAtOrBefore(times, results);

    /// <summary>
    /// OHLCV bars of <paramref name="interval"/> over the rows with times in <c>[from, to)</c>: one
    /// <see cref="OhlcvBar"/> for each interval that holds rows, in time order. Intervals are counted from
    /// <see cref="DateTime.MinValue"/>, so a minute, an hour or a day starts on the clock's own boundary, whatever
    /// <paramref name="from"/> is (the first bar may start before it). The two columns may hold any number types;
    /// their values are read as doubles. Large ranges are cut into pieces of a fixed size (1,048,576 rows) worked
    /// on every core; the result does not depend on the number of cores.
    /// </summary>
    /// <param name="price">The column whose values open, close and give the high and low of each bar.</param>
    /// <param name="volume">The column whose values are summed into each bar's volume, and weight its turnover.</param>
    /// <param name="from">The first time of the range.</param>
    /// <param name="to">The end of the range, not included.</param>
    /// <param name="interval">The length of a bar.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="interval"/> is not positive.</exception>
    /// <exception cref="ArgumentException">The table has no column of one of the names.</exception>
    /// <exception cref="ListMmfDataTypeException">One of the columns holds text.</exception>
    public OhlcvBar[] Bars(string price, string volume, DateTime from, DateTime to, TimeSpan interval)
    {
        if (interval <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(interval), interval, $"Table '{Path}': a bar's interval must be positive.");
        }

        return BarsOfRows(price, volume, FindRange(from, to), interval);
    }

    /// <summary>The bars of <paramref name="rows"/>, as <see cref="Bars(string, string, DateTime, DateTime, TimeSpan)"/> gives them.</summary>
    internal OhlcvBar[] BarsOfRows(string price, string volume, IndexRange rows, TimeSpan interval)
    {
        TableColumn priceColumn = NumbersNamed(price, nameof(price));
        TableColumn volumeColumn = NumbersNamed(volume, nameof(volume));
        return rows.IsEmpty ? [] : new BarBuilder(_time, interval.Ticks).Build(priceColumn, volumeColumn, rows);
    }

    /// <summary>
    /// A scan of <paramref name="rows"/> on every core: <paramref name="map"/> is given consecutive pieces of the
    /// range (1,048,576 rows each, fewer in the last; the whole range when it is no larger, empty when it is empty),
    /// several at once on the thread pool, and the results are combined with <paramref name="combine"/> from the
    /// first piece to the last. Read each column of a piece with <see cref="TableColumn{T}.AsSpan(IndexRange)"/>.
    /// The pieces do not depend on the number of cores, so a floating-point result is the same on every machine.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="rows"/> is not within the published rows.</exception>
    public TResult Aggregate<TResult>(IndexRange rows, Func<IndexRange, TResult> map, Func<TResult, TResult, TResult> combine)
    {
        ArgumentNullException.ThrowIfNull(map);
        ArgumentNullException.ThrowIfNull(combine);
        if (rows.Start < 0 || rows.End < rows.Start || rows.End > RowCount)
        {
            throw new ArgumentOutOfRangeException(nameof(rows), rows, $"Table '{Path}' publishes {RowCount:N0} rows.");
        }

        return RowChunks.Aggregate(rows, map, combine);
    }

    /// <summary>The first row whose time is at or after <paramref name="time"/>, compared as UTC.</summary>
    /// <exception cref="InvalidOperationException">The table's times are not UTC (<see cref="TimeSeriesTableSchema.TimesAreUtc"/>).</exception>
    public long LowerBound(DateTimeOffset time) => _time.LowerBound(time);

    /// <summary>The first row whose time is after <paramref name="time"/>, compared as UTC.</summary>
    /// <exception cref="InvalidOperationException">The table's times are not UTC (<see cref="TimeSeriesTableSchema.TimesAreUtc"/>).</exception>
    public long UpperBound(DateTimeOffset time) => _time.UpperBound(time);

    /// <summary>The rows with times in <c>[from, to)</c>, compared as UTC.</summary>
    /// <exception cref="InvalidOperationException">The table's times are not UTC (<see cref="TimeSeriesTableSchema.TimesAreUtc"/>).</exception>
    public IndexRange FindRange(DateTimeOffset from, DateTimeOffset to) => _time.FindRange(from, to);

    /// <summary>The last <paramref name="count"/> published rows, or all of them if there are fewer.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public IndexRange LastRows(long count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        long rows = RowCount;
        return new IndexRange(rows - Math.Min(count, rows), rows);
    }

    /// <summary>
    /// The rows published from <paramref name="row"/> on, for a live reader that polls: keep the range's
    /// <see cref="IndexRange.End"/> and ask again from there.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="row"/> is negative or past
    /// <see cref="RowCount"/> (the table was truncated).</exception>
    public IndexRange RowsSince(long row)
    {
        long rows = RowCount;
        if ((ulong)row > (ulong)rows)
        {
            ThrowHelper.ArgumentOutOfRange(nameof(row), row, $"The row must be at least 0 and at most RowCount " +
                $"({rows:N0}); a row past it means the table was truncated.");
        }

        return new IndexRange(row, rows);
    }
}
