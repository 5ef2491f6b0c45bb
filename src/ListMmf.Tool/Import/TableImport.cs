using System;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using ListMmf.Storage;

namespace ListMmf.Tool.Import;

/// <summary>
/// The table an import fills, whatever the rows come from: opened, or created from the target, at the first row;
/// each batch staged once every column holds it, and every row published at once by <see cref="Complete"/>, so that
/// a reader of the table sees all of an import or none of it; the times checked against the time column's
/// resolution and the order. An import that does not reach <see cref="Complete"/> discards what it staged, and a
/// table or folder it created goes. A completed import is flushed to the device before it reports success.
/// </summary>
internal sealed class TableImport : IDisposable
{
    /// <summary>
    /// Each growth of a column file is faulted in at once (<see cref="ListMmfOptions.PrefaultAhead"/>): a batch
    /// copied into fresh pages otherwise takes a page fault every 4 KiB, the largest part of publishing it. The
    /// pages faulted in past the last row are given back by <see cref="TimeSeriesTable.TrimExcess"/> at the end.
    /// </summary>
    private static readonly ListMmfOptions Filling = ListMmfOptions.Default with { PrefaultAhead = true };

    private readonly ImportTarget _target;
    private readonly TimeSeriesTable _table;
    private readonly long _startRows;
    private readonly string[]? _created;
    private readonly HeldFolder _folder;
    private readonly TimeSeriesOrder _order;
    private long _previous;
    private bool _completed;

    private TableImport(ImportTarget target, TimeSeriesTable table, string[]? created, HeldFolder folder)
    {
        _target = target;
        _table = table;
        _created = created;
        _folder = folder;
        _startRows = table.RowCount;
        _order = table.Schema.Order;
        HoldsSeconds = table.Schema.Time.DataType == DataType.UnixSeconds;
        _previous = _startRows > 0 ? table.TimeAt(_startRows - 1).Ticks : long.MinValue;
    }

    public TimeSeriesTable Table => _table;

    /// <summary>The rows this import added so far (staged, then published by <see cref="Complete"/>).</summary>
    public long Added => _table.RowCount + _table.StagedRows - _startRows;

    /// <summary>
    /// Opens the table in the target's folder, or creates it; where the target does not say, a new table gets a ticks
    /// time column when <paramref name="ticksIfNew"/>, and the order <paramref name="orderIfNew"/> (what the source
    /// suggests; an existing table keeps its own).
    /// </summary>
    /// <param name="target">Where the rows go.</param>
    /// <param name="ticksIfNew">Whether a new table gets a ticks time column.</param>
    /// <param name="utc">
    /// Whether the source's times are instants in UTC (true: it wrote a zone), times without a zone (false), or
    /// Unix times (null, which fit either): a new table is recorded as UTC when true, and an existing table must be
    /// recorded as UTC when true and must not be when false, so that no time is read in another zone.
    /// </param>
    /// <param name="orderIfNew">The order a new table gets unless the target names one.</param>
    /// <exception cref="DataException">The folder holds a table that the target does not match.</exception>
    public static TableImport Open(ImportTarget target, bool ticksIfNew, bool? utc, TimeSeriesOrder orderIfNew = TimeSeriesOrder.Ascending)
    {
        // Held by descriptor from here on: what a failed import created is removed from this folder, by name, never
        // through a folder or link another user of a shared folder renamed over its path meanwhile.
        HeldFolder folder = HeldFolder.Open(target.Output);
        if (target.Staging)
        {
            // Unix times and INT96 count from 1970 UTC: the step records them as the instants they are.
            utc ??= true;
        }

        string manifest = Path.Combine(folder.Path, TimeSeriesTable.ManifestFileName);
        string[] created = [];
        try
        {
            if (File.Exists(manifest))
            {
                TimeSeriesTable existing = TimeSeriesTable.Open(folder.Path, FileAccess.ReadWrite, Filling);
                CheckSchema(target, existing, utc);
                return new TableImport(target, existing, created: null, folder);
            }

            bool ticks = target.TicksTime ?? ticksIfNew;
            var schema = new TimeSeriesTableSchema(target.TimeColumn, ticks ? DataType.DateTime : DataType.UnixSeconds, target.Order ?? orderIfNew)
            {
                TimesAreUtc = utc == true,
            };
            foreach (ImportColumn column in target.Columns)
            {
                column.AddTo(schema);
            }

            created = [TimeSeriesTable.ManifestFileName, .. schema.Columns.Prepend(schema.Time)
                .SelectMany(column => column.EntriesFileName is { } entries ? [column.FileName, entries] : new[] { column.FileName })
                .Where(name => !File.Exists(Path.Combine(folder.Path, name)))];
            TimeSeriesTable table = TimeSeriesTable.Create(folder.Path, schema, Filling);
            return new TableImport(target, table, created, folder);
        }
        catch
        {
            // Only in a folder this import created: in another, a writer that got in first may have made the names.
            if (folder.Created)
            {
                folder.RemoveNames(created);
                folder.RemoveIfCreatedAndEmpty();
            }

            folder.Dispose();
            throw;
        }
    }

    /// <summary>
    /// What is wrong with a row at <paramref name="ticks"/> after the rows before it (the text follows the row's
    /// time in a message), or null when it may be added; it becomes the previous row's time when it may.
    /// </summary>
    public string? TimeProblem(long ticks)
    {
        if (TimeProblem(ticks, _previous) is { } problem)
        {
            return problem;
        }

        _previous = ticks;
        return null;
    }

    /// <summary>
    /// As <see cref="TimeProblem(long)"/>, against <paramref name="previous"/> (<see cref="long.MinValue"/> for no
    /// row before it), without remembering the time: what a thread checking a part of the rows on its own asks.
    /// </summary>
    public string? TimeProblem(long ticks, long previous)
    {
        if (HoldsSeconds)
        {
            if (ticks % TimeSpan.TicksPerSecond != 0)
            {
                return "has a fraction of a second, and the table's time column holds whole Unix seconds (import into " +
                    "a new table with --time-type ticks); it is not truncated";
            }

            if (!ListMmfTimeSeriesDateTimeSeconds.TryGetUnixSeconds(new DateTime(ticks), out _))
            {
                return "is outside the Unix seconds a seconds time column holds (1901-12-13 to 2038-01-19)";
            }
        }

        if (previous != long.MinValue && !TimeSeriesOrderRules.Allows(_order, previous, ticks))
        {
            return ticks == previous
                ? "equals the previous row's, and the table is Ascending (for a new table, --order ascending-or-equal allows equal times)"
                : $"({TimeText.Ticks(ticks)}) is before the previous row's " +
                    $"({TimeText.Ticks(previous)}); the rows must be in time order" +
                    (_target.Staging ? " (catalog import --sort sorts each file's rows by time first)" : "");
        }

        return null;
    }

    /// <summary>Whether the table's time column holds Unix seconds (else DateTime ticks).</summary>
    public bool HoldsSeconds { get; }

    /// <summary>Takes <paramref name="ticks"/> as the last row's time, for the rows staged after it by <see cref="StageChecked"/>.</summary>
    public void Follow(long ticks) => _previous = ticks;

    /// <summary>
    /// Appends <paramref name="count"/> rows: every sink's batch, then the times (ticks, each checked by
    /// <see cref="TimeProblem(long)"/>), staged for <see cref="Complete"/> to publish.
    /// </summary>
    public void Stage(ColumnSink[] sinks, long[] times, int count)
    {
        if (HoldsSeconds)
        {
            ToSeconds(times, count);
        }

        StageChecked(sinks, times, count);
    }

    /// <summary>
    /// As <see cref="Stage"/>, for times already checked by <see cref="TimeProblem(long, long)"/> and, for a
    /// seconds table, already turned into seconds by <see cref="ToSeconds"/>.
    /// </summary>
    public void StageChecked(ColumnSink[] sinks, long[] times, int count)
    {
        foreach (ColumnSink sink in sinks)
        {
            sink.AppendTo(_table, count);
        }

        if (HoldsSeconds)
        {
            _table.StageRows(MemoryMarshal.Cast<long, int>(times.AsSpan())[..count]);
        }
        else
        {
            _table.StageRows(times.AsSpan(0, count));
        }
    }

    /// <summary>
    /// Turns the first <paramref name="count"/> times, in place, into the Unix seconds a seconds column stores, at
    /// the start of the array as ints: seconds[i] overwrites bytes of times[i / 2], which the loop has already read.
    /// Each time was checked to be a whole Unix second.
    /// </summary>
    public static void ToSeconds(long[] times, int count)
    {
        Span<int> seconds = MemoryMarshal.Cast<long, int>(times.AsSpan(0, count));
        for (int i = 0; i < count; i++)
        {
            ListMmfTimeSeriesDateTimeSeconds.TryGetUnixSeconds(new DateTime(times[i]), out seconds[i]);
        }
    }

    /// <summary>
    /// Publishes every row of the import at once, gives the column files' unused space back, then flushes the rows
    /// to the device; from here on, disposing keeps them. A table that was there before is trimmed only where its
    /// files can be cut in place: elsewhere (Windows' mapping backend) that would copy every column the import appended to.
    /// </summary>
    public void Complete()
    {
        _table.PublishStagedRows();
        if (_created is not null || _table.TrimsInPlace)
        {
            _table.TrimExcess();
        }

        // A staging table is read and removed at once: the rows it holds reach the device where they end up.
        if (!_target.Staging)
        {
            _table.Flush();
        }

        _completed = true;
    }

    /// <summary>
    /// Closes the table. Before <see cref="Complete"/>, first takes back the rows this import added, and removes the
    /// files of a table it created (its manifest and the column files it created, not files it adopted) while it
    /// still holds the table's lock, so that no other writer can have opened it meanwhile; then a folder it created,
    /// if that is then empty. Each by name from the folder held since the import began (<see cref="HeldFolder"/>).
    /// </summary>
    public void Dispose()
    {
        try
        {
            if (!_completed && _table.IsWritable)
            {
                _table.Truncate(Math.Min(_startRows, _table.RowCount));
                _folder.RemoveNames(_created ?? []);
            }

            _table.Dispose();
            if (!_completed)
            {
                _folder.RemoveIfCreatedAndEmpty();
            }
        }
        finally
        {
            _folder.Dispose();
        }
    }

    private static void CheckSchema(ImportTarget target, TimeSeriesTable table, bool? utc)
    {
        TimeSeriesTableSchema schema = table.Schema;
        string problem =
            schema.Time.Name != target.TimeColumn ? $"its time column is '{schema.Time.Name}', not '{target.TimeColumn}'"
            : utc == true && !schema.TimesAreUtc ? "its times are not recorded as UTC, and the source's times carry a zone " +
                "(they would be stored as UTC among times of another zone); import into a new table"
            : utc == false && schema.TimesAreUtc ? "its times are recorded as UTC, and the source's times have no zone " +
                "(give them one: Z or an offset)"
            : target.Order is { } order && order != schema.Order ? $"it is {schema.Order}, not {order}"
            : target.TicksTime is { } ticks && ticks != (schema.Time.DataType == DataType.DateTime) ? $"its time column holds {schema.Time.DataType}"
            : schema.Columns.Count != target.Columns.Count ? $"it has the columns " +
                $"{string.Join(", ", schema.Columns.Select(c => $"{c.Name}:{ImportColumn.Describe(c)}"))}; an import must fill every one"
            : schema.Columns.Zip(target.Columns).FirstOrDefault(pair => !pair.Second.Matches(pair.First)) is ({ } column, { } asked)
                ? $"its column '{column.Name}' holds {ImportColumn.Describe(column)}, and the import gives '{asked.Name}' as {asked}"
                : "";
        if (problem.Length > 0)
        {
            table.Dispose();
            throw new DataException($"'{target.Output}' holds a table that this import does not match: {problem}.");
        }
    }
}
