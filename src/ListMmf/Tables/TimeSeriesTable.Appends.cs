using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A table's writes: rows published by the time column after every value column, staged rows, truncation, the flush
/// in its order and the trim of what a killed writer left.
/// </summary>
public sealed partial class TimeSeriesTable
{
    /// <summary>
    /// Publishes the row being added at <paramref name="time"/>: every value column must hold exactly one value for
    /// it (<see cref="TableColumn{T}.Add"/>). No allocation.
    /// </summary>
    /// <exception cref="InvalidOperationException">A value column holds no value, or more than one, for the row; the
    /// row's values in every column were discarded.</exception>
    /// <exception cref="ListMmfOrderException">The time would break the order; the row's values were discarded.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The time column cannot hold <paramref name="time"/> exactly (a
    /// fraction of a second in a seconds column); the row's values were discarded.</exception>
    /// <exception cref="NotSupportedException">The table was opened read-only.</exception>
    public void AddRow(DateTime time)
    {
        long rows = BeginPublish(1);
        try
        {
            _timeWriter!.Add(time);
        }
        catch
        {
            DiscardPending(rows);
            throw;
        }
    }

    /// <summary>Publishes the row at <paramref name="time"/>, as UTC; see <see cref="AddRow(DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The table's times are not UTC (<see cref="TimeSeriesTableSchema.TimesAreUtc"/>),
    /// or a value column holds no value, or more than one, for the row; the row's values were discarded.</exception>
    public void AddRow(DateTimeOffset time)
    {
        long rows = BeginPublish(1);
        try
        {
            _timeWriter!.Add(time);
        }
        catch
        {
            DiscardPending(rows);
            throw;
        }
    }

    /// <summary>
    /// Publishes <paramref name="times"/>.Length rows at once: every value column must hold exactly that many values
    /// for them (<see cref="TableColumn{T}.AddRange"/>). The times are checked and converted straight into the
    /// time column; no allocation.
    /// </summary>
    /// <exception cref="InvalidOperationException">A value column does not hold exactly one value per row; the values were discarded.</exception>
    /// <exception cref="ListMmfOrderException">A time would break the order; nothing was published and the values were discarded.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The time column cannot hold a time exactly; nothing was
    /// published and the values were discarded.</exception>
    public void AddRows(ReadOnlySpan<DateTime> times)
    {
        long rows = BeginPublish(times.Length);
        try
        {
            _timeWriter!.AddRange(times);
        }
        catch
        {
            DiscardPending(rows);
            throw;
        }
    }

    /// <summary>
    /// As <see cref="AddRows(ReadOnlySpan{DateTime})"/>, with the times as the Unix seconds a seconds time column
    /// stores: a copy of the keys.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The time column stores DateTime ticks.</exception>
    public void AddRows(ReadOnlySpan<int> unixSeconds) =>
        AddKeys(unixSeconds, "Unix seconds (int)");

    /// <summary>
    /// As <see cref="AddRows(ReadOnlySpan{DateTime})"/>, with the times as the DateTime ticks a ticks time column
    /// stores: a copy of the keys.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The time column stores Unix seconds.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A value is not a DateTime's ticks (negative, or past
    /// DateTime.MaxValue); nothing was published and the values were discarded.</exception>
    public void AddRows(ReadOnlySpan<long> ticks)
    {
        ThrowIfTimeKeysAreNot<long>("DateTime ticks (long)");
        for (int i = 0; i < ticks.Length; i++)
        {
            if ((ulong)ticks[i] > (ulong)DateTime.MaxValue.Ticks)
            {
                DiscardPending(RowCount);
                ThrowHelper.ArgumentOutOfRange(nameof(ticks), ticks[i], $"'{Path}': the tick value at {i:N0} in the " +
                    $"span is not a DateTime's ticks (0 to {DateTime.MaxValue.Ticks:N0}). Nothing was published; the pending values were discarded.");
            }
        }

        AddKeys(ticks, "DateTime ticks (long)");
    }

    /// <summary>
    /// Lowers <see cref="RowCount"/> to <paramref name="newCount"/>, a maintenance operation with the contract of
    /// <see cref="ListMmf{T}.Truncate"/>: the time column first, so that readers stop seeing the rows before their
    /// values go.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="newCount"/> is negative or more than <see cref="RowCount"/>.</exception>
    public void Truncate(long newCount)
    {
        ThrowIfReadOnly();
        _timeWriter!.Truncate(newCount);
        DiscardPending(newCount);
    }

    /// <summary>
    /// Makes the published rows durable: every value column and the time column's rows first, then the time column's
    /// count, so that a durable row count never gets ahead of its values.
    /// </summary>
    /// <exception cref="ListMmfException">The system reported that writing or flushing failed.</exception>
    public void Flush() => FlushAll([this]);

    /// <summary>
    /// Makes the published rows of every table in <paramref name="tables"/> durable, as <see cref="Flush()"/> does for
    /// one, in two rounds whose barriers wait together (<see cref="ConcurrentFlush"/>): every column's rows, then every
    /// time column's count. The cost grows with the bytes written far more than with the number of files. Where a file
    /// of the first round fails, no table's count is raised; the first failure is thrown. Then each time column's
    /// writer leaves the fences a cold start reads, as a series' flush does.
    /// </summary>
    internal static void FlushAll(IReadOnlyList<TimeSeriesTable> tables)
    {
        var columns = new List<(int Table, TableColumn Column)>();
        for (int t = 0; t < tables.Count; t++)
        {
            tables[t].ThrowIfReadOnly();
            columns.AddRange(tables[t]._columns.Select(column => (t, column)));
        }

        // Every file's writeback starts at once, so that even the first barrier finds most of its pages written.
        foreach ((_, TableColumn column) in columns)
        {
            column.StartFlush();
        }

        // A value column's count publishes nothing (the time column's does), so its rows and count go in one round.
        long[] rows = new long[tables.Count];
        ConcurrentFlush.Run(columns.Count, i =>
        {
            (int table, TableColumn column) = columns[i];
            if (column.IsTime)
            {
                rows[table] = column.FlushItems();
            }
            else
            {
                column.FlushTogether();
            }
        });
        ConcurrentFlush.Run(tables.Count, i => tables[i]._columns[0].FlushCount(rows[i]));

        // Only a time column large enough for a page index writes anything, once it lags by an eighth.
        foreach (TimeSeriesTable table in tables)
        {
            table._timeWriter!.KeepFencesForColdReaders();
        }
    }

    /// <summary>
    /// Gives every column file's unused space back (see <see cref="ListMmf{T}.TrimExcess"/>), for a table that is
    /// complete, such as an import's: each file then takes what its values take, rounded up to 64 KiB. Adding rows
    /// afterwards grows the files again; readers keep working throughout.
    /// </summary>
    /// <exception cref="NotSupportedException">The table was opened read-only.</exception>
    /// <exception cref="ListMmfException">A column's file could not be cut or replaced (the message names it).</exception>
    public void TrimExcess()
    {
        ThrowIfReadOnly();
        foreach (TableColumn column in _columns)
        {
            column.TrimExcess();
        }
    }

    /// <summary>
    /// Whether <see cref="TrimExcess"/> cuts every column file where it is (the mapping backend can, see
    /// <see cref="ListMmf{T}.TrimsInPlace"/>), rather than copying some of them into new files.
    /// </summary>
    internal bool TrimsInPlace => _columns.All(column => column.TrimsInPlace);

    private void AddKeys<TKey>(ReadOnlySpan<TKey> keys, string given)
        where TKey : unmanaged
    {
        ThrowIfTimeKeysAreNot<TKey>(given);
        long rows = BeginPublish(keys.Length);
        try
        {
            _timeWriter!.AddKeys(keys);
        }
        catch
        {
            DiscardPending(rows);
            throw;
        }
    }

    /// <summary>The rows written by <see cref="StageRows{TKey}"/> and not yet published.</summary>
    internal long StagedRows => _staged;

    /// <summary>
    /// Writes the times of rows whose values every value column already holds past the published and staged rows,
    /// without publishing them: a writer that must publish many batches whole or not at all (an import into a table
    /// readers are reading) stages them, then publishes them with <see cref="PublishStagedRows"/>, one count update.
    /// Until then no reader sees them; <see cref="Truncate"/> or a writer's next open discards them.
    /// </summary>
    /// <exception cref="InvalidOperationException">A value column does not hold one value per row.</exception>
    /// <exception cref="ListMmfOrderException">A time breaks the table's order; nothing of this batch is staged.</exception>
    internal void StageRows<TKey>(ReadOnlySpan<TKey> keys)
        where TKey : unmanaged
    {
        ThrowIfTimeKeysAreNot<TKey>(typeof(TKey) == typeof(int) ? "Unix seconds (int)" : "DateTime ticks (long)");
        ThrowIfReadOnly();
        long rows = _time.Count;
        foreach (TableColumn column in _values)
        {
            long pending = column.StoredCount - rows - _staged;
            if (pending != keys.Length)
            {
                ThrowPendingMismatch(column, pending, keys.Length, rows);
            }
        }

        try
        {
            _timeWriter!.StageKeys(keys, _staged);
        }
        catch
        {
            DiscardPending(rows + _staged);
            throw;
        }

        _staged += keys.Length;
    }

    /// <summary>Publishes every staged row with one count update of the time column.</summary>
    internal void PublishStagedRows()
    {
        ThrowIfReadOnly();
        _timeWriter!.PublishStaged(_staged);
        _staged = 0;
    }

    /// <summary>
    /// Before publishing <paramref name="added"/> rows: the writer's published rows, once every value column holds
    /// exactly that many values past them.
    /// </summary>
    private long BeginPublish(int added)
    {
        ThrowIfReadOnly();
        long rows = _time.Count;
        foreach (TableColumn column in _values)
        {
            long pending = column.StoredCount - rows;
            if (pending != added)
            {
                ThrowPendingMismatch(column, pending, added, rows);
            }
        }

        return rows;
    }

    /// <summary>Discards every column's pending values and says which column did not hold one value per row.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowPendingMismatch(TableColumn column, long pending, int added, long rows)
    {
        DiscardPending(rows);
        throw new InvalidOperationException(
            $"'{Path}': column '{column.Name}' holds {pending:N0} value{(pending == 1 ? "" : "s")} for the " +
                $"{added:N0} row{(added == 1 ? "" : "s")} being added; add exactly one value per row to every " +
                    $"value column, then the times. The pending values of every column were discarded.");
    }

    /// <summary>Trims every value column to <paramref name="rows"/>; says what it trimmed in <paramref name="repairs"/>, when given.</summary>
    private void DiscardPending(long rows, List<string>? repairs = null)
    {
        _staged = Math.Max(0, rows - _time.Count);
        foreach (TableColumn column in _values)
        {
            long stored = column.StoredCount;
            if (stored > rows)
            {
                column.TrimTo(rows);
                repairs?.Add($"column '{column.Name}' held {stored - rows:N0} value{(stored - rows == 1 ? "" : "s")} " +
                    $"past the {rows:N0} published rows, left by a writer that stopped before publishing them; trimmed to {rows:N0}.");
            }
        }
    }

    private void ThrowIfTimeKeysAreNot<TKey>(string given)
    {
        // From the stored type, not the writer: a table opened read-only may be sealed, and has none.
        Type keys = _time.DataType == DataType.UnixSeconds ? typeof(int) : typeof(long);
        if (keys != typeof(TKey))
        {
            throw new ListMmfDataTypeException(_time.Path, $"the time column of table '{Path}' stores " +
                $"{DataTypeInfo.Of(_time.DataType).Describe()}; rows cannot be added with {given} keys.");
        }
    }
}
