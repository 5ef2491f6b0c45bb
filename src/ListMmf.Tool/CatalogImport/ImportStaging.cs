using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using ListMmf.Storage;
using ListMmf.Tool.Csv;
using ListMmf.Tool.Parquet;

namespace ListMmf.Tool.CatalogImport;

/// <summary>How a folder import reads CSV files: the time column and its format, and the value columns.</summary>
/// <param name="TimeColumn">The CSV column of the times.</param>
/// <param name="TimeFormat">How the times are written; null to decide by each file's first row.</param>
/// <param name="Columns">The value columns: CSV column name and type.</param>
internal sealed record CsvColumns(string TimeColumn, TimeFormat? TimeFormat, IReadOnlyList<(string Name, string Type)> Columns);

/// <summary>
/// Reads CSV and Parquet files for a catalog import through the table imports (<see cref="CsvImporter"/>,
/// <see cref="ParquetImporter"/>), so that a file's rows are checked exactly as <c>listmmf import</c> checks them:
/// each file into a staging table of its own, in a private folder of the system's temporary folder (made for this
/// import, readable by its user only, removed at <see cref="Dispose"/>), not flushed to the device. Times without a
/// zone are turned into UTC from the zone given; the rows must fit the catalog's kind. Files an engine wrote in no
/// set order can be sorted by time, equal times kept in the file's order.
/// </summary>
internal sealed class ImportStaging : IDisposable
{
    private readonly HeldFolder _root;
    private readonly CsvColumns? _csv;
    private readonly string? _parquetTime;
    private readonly TimeZoneInfo? _zone;
    private readonly bool? _ticksIfNew;
    private readonly TimeSeriesOrder? _orderIfNew;
    private readonly bool _sort;
    private int _next;

    /// <param name="csv">How CSV files are read; null when the import takes none.</param>
    /// <param name="parquetTime">Parquet files' time column; null for the one their metadata names, or their only timestamp.</param>
    /// <param name="zone">The clock of times without a zone, turned into UTC; null to keep them as they are.</param>
    /// <param name="ticksIfNew">For a new kind: a ticks time column (true), seconds (false), or as the files say (null).</param>
    /// <param name="orderIfNew">For a new kind: the order its times keep; null for the files'.</param>
    /// <param name="sort">Whether each file's rows are sorted by time (else a file out of order is refused).</param>
    public ImportStaging(CsvColumns? csv, string? parquetTime, TimeZoneInfo? zone, bool? ticksIfNew, TimeSeriesOrder? orderIfNew, bool sort)
    {
        _sort = sort;
        _root = HeldFolder.OfCreated(Directory.CreateTempSubdirectory("listmmf-import-").FullName);
        _csv = csv;
        _parquetTime = parquetTime;
        _zone = zone;
        _ticksIfNew = ticksIfNew;
        _orderIfNew = orderIfNew;
    }

    /// <summary>The private folder the files are read into.</summary>
    public string Folder => _root.Path;

    /// <summary>
    /// Reads and checks every row of <paramref name="file"/>, its times turned into UTC where the file gives them
    /// without a zone and a zone was given.
    /// </summary>
    /// <param name="file">The file.</param>
    /// <param name="kind">The catalog's kind the rows must fit; null to learn what a new kind would be (<see cref="StagedRows.Schema"/>).</param>
    /// <exception cref="DataException">A row is refused, or the rows do not fit the kind (the file named).</exception>
    public StagedRows Read(TableFile file, TimeSeriesTableSchema? kind)
    {
        string folder = Path.Combine(_root.Path, Interlocked.Increment(ref _next).ToString(System.Globalization.CultureInfo.InvariantCulture));
        bool? ticks = kind is null ? _ticksIfNew : kind.Time.DataType == DataType.DateTime;
        TimeSeriesOrder? order = _sort ? TimeSeriesOrder.None : kind?.Order ?? _orderIfNew;
        if (file.IsParquet)
        {
            // Market data shares times: a file that records no order may hold equal ones.
            ParquetImporter.Run(new ParquetImportRequest(file.Path, folder, _parquetTime, ticks, order, Staging: true,
                OrderIfUnrecorded: TimeSeriesOrder.AscendingOrEqual));
        }
        else
        {
            CsvColumns csv = _csv ?? throw new UsageException($"'{file.Path}' is a CSV file: name its time column with --time and its " +
                "value columns with --column.");
            CsvImporter.Run(new ImportRequest(file.Path, folder, csv.TimeColumn, csv.TimeFormat, csv.Columns, ticks,
                order ?? TimeSeriesOrder.AscendingOrEqual, Staging: true));
        }

        // A CSV of a header alone makes no table.
        if (!File.Exists(Path.Combine(folder, TimeSeriesTable.ManifestFileName)))
        {
            return StagedRows.None(folder);
        }

        TimeSeriesTable table = TimeSeriesTable.Open(folder, FileAccess.Read);
        try
        {
            long[] times = TimesOf(table);
            TimeSeriesOrder rowsOrder = table.Schema.Order;
            int[]? sorted = null;
            if (_sort)
            {
                // Sorted before a zone turns them: a change of the clocks is told by the local times' order.
                sorted = TimeOrder.Sort(times);
                rowsOrder = kind?.Order ?? _orderIfNew ?? TimeSeriesOrder.AscendingOrEqual;
                if (rowsOrder == TimeSeriesOrder.Ascending && TimeOrder.FirstRepeat(times) is int repeat)
                {
                    throw new DataException($"'{file.Path}': {times.Length:N0} rows sorted by time, row {repeat:N0}'s time " +
                        $"{TimeText.Ticks(times[repeat])} equals the one before it, and the kind is Ascending. Nothing of the file was imported.");
                }
            }

            bool utc = table.Schema.TimesAreUtc;
            if (!utc && _zone is not null)
            {
                if (ZoneClock.ToUtc(times, _zone) is (int row, string problem))
                {
                    throw new DataException($"'{file.Path}' row {row:N0}: {problem}. Nothing of the file was imported.");
                }

                utc = true;
            }

            TimeSeriesTableSchema rows = CopyOf(table.Schema, utc, rowsOrder);
            if (kind is not null && KindSchemas.Describe(kind) != KindSchemas.Describe(rows))
            {
                string hint = kind.TimesAreUtc && !utc ? " Its times have no zone: give --zone, the clock they count in."
                    : !kind.TimesAreUtc && utc ? " Its times are UTC, and the kind's have no zone."
                    : "";
                throw new DataException($"'{file.Path}' holds rows of ({KindSchemas.Describe(rows)}), and the catalog's kind " +
                    $"'{file.Kind}' is ({KindSchemas.Describe(kind)}).{hint} Nothing of the file was imported.");
            }

            return StagedRows.Of(table, folder, times, sorted, rows);
        }
        catch
        {
            table.Dispose();
            Remove(folder);
            throw;
        }
    }

    /// <summary>Removes the staging folder, empty once each file's table is removed.</summary>
    public void Dispose()
    {
        _root.RemoveIfCreatedAndEmpty();
        _root.Dispose();
    }

    /// <summary>
    /// Removes a file's staging table, by name from its folder held (never a recursive delete by path, which a link
    /// swapped in would lead elsewhere), then the folder.
    /// </summary>
    public static void Remove(string folder)
    {
        if (!Directory.Exists(folder))
        {
            return;
        }

        using HeldFolder table = HeldFolder.OfCreated(folder);
        table.RemoveAllNames();
        table.RemoveIfCreatedAndEmpty();
    }

    private static long[] TimesOf(TimeSeriesTable table)
    {
        var times = new DateTime[table.RowCount];
        table.CopyTimes(new IndexRange(0, times.Length), times);
        return Array.ConvertAll(times, time => time.Ticks);
    }

    /// <summary>
    /// The schema of <paramref name="schema"/>'s columns, its times UTC or not as <paramref name="utc"/> says, in
    /// <paramref name="order"/>.
    /// </summary>
    private static TimeSeriesTableSchema CopyOf(TimeSeriesTableSchema schema, bool utc, TimeSeriesOrder order)
    {
        var copy = new TimeSeriesTableSchema(schema.Time.Name, schema.Time.DataType, order) { TimesAreUtc = utc };
        foreach (TableColumnInfo column in schema.Columns)
        {
            if (column.IsText)
            {
                copy.AddText(column.Name, column.DataType);
            }
            else
            {
                copy.Add(column.Name, column.DataType);
            }
        }

        return copy;
    }
}
