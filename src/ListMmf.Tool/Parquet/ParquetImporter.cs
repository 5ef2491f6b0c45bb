using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using ListMmf.Tool.Import;
using Parquet;
using Parquet.Schema;

namespace ListMmf.Tool.Parquet;

/// <summary>What an import is asked to do: see <c>listmmf import parquet --help</c>.</summary>
/// <param name="Parquet">The Parquet file.</param>
/// <param name="Output">The table's folder: created, or appended to when it holds a table.</param>
/// <param name="TimeColumn">The time column; null for the one the file's metadata names, or its only timestamp column.</param>
/// <param name="TicksTime">For a new table: a ticks time column (true), seconds (false), or as the file says (null:
/// ticks unless it was exported from a seconds table).</param>
/// <param name="Order">For a new table: the order the times must keep; null for the file's, or Ascending.</param>
internal sealed record ParquetImportRequest(string Parquet, string Output, string? TimeColumn, bool? TicksTime, TimeSeriesOrder? Order);

/// <summary>
/// Imports a Parquet file's rows into a <see cref="TimeSeriesTable"/> through a <see cref="TableImport"/>, a row
/// group at a time: memory stays bounded by the largest row group whatever the file's size. The file must be flat:
/// one timestamp column and columns of numbers, no nulls, times in the table's order. Anything else stops the import
/// with the column or row named, and the import is taken back.
/// </summary>
internal static class ParquetImporter
{
    /// <summary>
    /// The most rows a row group may hold: its batch per column is an array, and larger groups are rare (pyarrow
    /// writes 1M, DuckDB 122,880).
    /// </summary>
    private const long MaxGroupRows = 1 << 28;

    /// <summary>Runs the import; returns the rows added. <paramref name="progress"/> gets the rows read so far and the rows in all.</summary>
    public static long Run(ParquetImportRequest request, Action<long, long>? progress = null) => RunAsync(request, progress).GetAwaiter().GetResult();

    private static async Task<long> RunAsync(ParquetImportRequest request, Action<long, long>? progress)
    {
        await using var stream = new FileStream(request.Parquet, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1 << 16);
        await using ParquetReader reader = await OpenAsync(request, stream).ConfigureAwait(false);
        (ImportTarget target, DataField time, bool ticksIfNew, TimeSeriesOrder orderIfNew, long[] groupRows) = Plan(request, reader);
        DataField[] fields = reader.Schema.DataFields;
        int largest = (int)groupRows.DefaultIfEmpty(0).Max();
        ColumnSink[] sinks = target.Columns.Select(column => ColumnSink.For(
            column.Name,
            Array.FindIndex(fields, field => field.Name == column.Name),
            column.Type,
            largest)).ToArray();
        var times = new DateTime[largest];
        var definitions = new int[largest];
        var ticks = new long[largest];
        using TableImport import = TableImport.Open(target, ticksIfNew, orderIfNew);
        long row = 0;
        long total = groupRows.Sum();
        for (int g = 0; g < groupRows.Length; g++)
        {
            int count = (int)groupRows[g];
            await ReadGroupAsync(request, reader, g, count, time, times, definitions, sinks, fields, row).ConfigureAwait(false);
            for (int i = 0; i < count; i++)
            {
                ticks[i] = times[i].Ticks;
                if (import.TimeProblem(ticks[i]) is { } problem)
                {
                    throw new DataException($"'{request.Parquet}' row {row + i:N0}: time " +
                        $"{times[i]:yyyy-MM-dd HH:mm:ss.fffffff} {problem}. Nothing was imported.");
                }
            }

            import.Publish(sinks, ticks, count);
            row += count;
            progress?.Invoke(row, total);
        }

        import.Complete();
        return import.Added;
    }

    /// <summary>
    /// What the file's footer says the import will do: the table's columns, how a new table is made, and the rows of
    /// each row group. A footer that does not make sense (a damaged file) is refused here, before any table is touched.
    /// </summary>
    private static (
        ImportTarget Target,
        DataField Time,
        bool TicksIfNew,
        TimeSeriesOrder OrderIfNew,
        long[] GroupRows) Plan(ParquetImportRequest request, ParquetReader reader)
    {
        try
        {
            DataField[] fields = reader.Schema.DataFields;
            CheckFlat(request, reader.Schema);
            Dictionary<string, string> metadata = reader.CustomMetadata ?? [];
            DataField time = TimeField(request, fields, metadata);
            var target = new ImportTarget(
                request.Parquet,
                request.Output,
                time.Name,
                fields.Where(field => field != time).Select(field => (field.Name, ValueType(request, field))).ToList(),
                request.TicksTime,
                request.Order);
            CheckNames(request, target);
            bool ticksIfNew = !(metadata.TryGetValue(ParquetColumns.TimeTypeKey, out string? timeType) && timeType == nameof(DataType.UnixSeconds));
            TimeSeriesOrder kept = TimeSeriesOrder.Ascending;
            bool ordered = metadata.TryGetValue(ParquetColumns.OrderKey, out string? order) && Enum.TryParse(order, out kept) && Enum.IsDefined(kept);
            TimeSeriesOrder orderIfNew = ordered ? kept : TimeSeriesOrder.Ascending;
            long[] groupRows = Enumerable.Range(0, reader.RowGroupCount).Select(g => reader.RowGroups[g].RowCount).ToArray();
            int bad = Array.FindIndex(groupRows, rows => rows is < 0 or > MaxGroupRows);
            return bad < 0
                ? (target, time, ticksIfNew, orderIfNew, groupRows)
                : throw new DataException($"'{request.Parquet}': row group {bad:N0} claims {groupRows[bad]:N0} rows; " +
                    $"this import reads row groups of up to {MaxGroupRows:N0} rows, one at a time. Nothing was imported.");
        }
        catch (Exception exception) when (exception is not DataException)
        {
            throw new DataException($"'{request.Parquet}': its footer cannot be read, the file is damaged " +
                $"({exception.Message}). Nothing was imported.", exception);
        }
    }

    /// <summary>
    /// The column names become file names: a name that cannot be one, or two names equal but for case, are refused
    /// before anything is written.
    /// </summary>
    private static void CheckNames(ParquetImportRequest request, ImportTarget target)
    {
        try
        {
            var schema = new TimeSeriesTableSchema(target.TimeColumn);
            foreach ((string name, DataType type) in target.Columns)
            {
                schema.Add(name, type);
            }
        }
        catch (ArgumentException exception)
        {
            throw new DataException($"'{request.Parquet}': its columns cannot be a table's: {exception.Message} Nothing was imported.", exception);
        }
    }

    private static async Task<ParquetReader> OpenAsync(ParquetImportRequest request, Stream stream)
    {
        try
        {
            return await ParquetReader.CreateAsync(stream, null, leaveStreamOpen: true, default).ConfigureAwait(false);
        }
        catch (Exception exception)
        {
            // Whatever a damaged footer makes Parquet.Net throw, the file is not one this import can read.
            throw new DataException($"'{request.Parquet}' is not a whole Parquet file (cut short, or not Parquet at " +
                $"all): {exception.Message}. Nothing was imported.", exception);
        }
    }

    /// <summary>Reads one row group's times and values; a null, or a chunk that cannot be decoded, stops the import.</summary>
    private static async Task ReadGroupAsync(
        ParquetImportRequest request,
        ParquetReader reader,
        int index,
        int count,
        DataField time,
        DateTime[] times,
        int[] definitions,
        ColumnSink[] sinks,
        DataField[] fields,
        long firstRow)
    {
        string column = time.Name;
        try
        {
            using ParquetRowGroupReader group = reader.OpenRowGroupReader(index);
            int nullAt = -1;
            if (time.MaxDefinitionLevel == 0)
            {
                await group.ReadAsync<DateTime>(time, times.AsMemory(0, count), null, default).ConfigureAwait(false);
            }
            else
            {
                await group.ReadRawAsync<DateTime>(
                    time,
                    times.AsMemory(0, count),
                    definitions.AsMemory(0, count),
                    null,
                    default).ConfigureAwait(false);
                nullAt = definitions.AsSpan(0, count).IndexOfAnyExcept(time.MaxDefinitionLevel);
            }

            foreach (ColumnSink sink in sinks)
            {
                if (nullAt >= 0)
                {
                    break;
                }

                column = sink.Name;
                nullAt = await sink.ReadAsync(group, fields[sink.Field], count).ConfigureAwait(false);
            }

            if (nullAt >= 0)
            {
                throw new DataException($"'{request.Parquet}' row {firstRow + nullAt:N0}: column '{column}' is null, " +
                    $"and a table holds a value in every row. Nothing was imported.");
            }
        }
        catch (Exception exception) when (exception is not DataException)
        {
            throw new DataException($"'{request.Parquet}' row group {index:N0}, column '{column}': cannot be read, " +
                $"the file is damaged or cut short ({exception.Message}). Nothing was imported.", exception);
        }
    }

    private static void CheckFlat(ParquetImportRequest request, ParquetSchema schema)
    {
        if (schema.Fields.FirstOrDefault(field => field.SchemaType != SchemaType.Data) is { } nested)
        {
            throw new DataException($"'{request.Parquet}': column '{nested.Name}' is a " +
                $"{nested.SchemaType.ToString().ToLowerInvariant()}; a table holds flat columns: one timestamp and numbers. Nothing was imported.");
        }
    }

    private static DataField TimeField(ParquetImportRequest request, DataField[] fields, Dictionary<string, string> metadata)
    {
        string? name = request.TimeColumn ?? (metadata.TryGetValue(ParquetColumns.TimeColumnKey, out string? named) ? named : null);
        DataField[] timestamps = fields.Where(ParquetColumns.IsTime).ToArray();
        DataField time = name is not null
            ? fields.FirstOrDefault(field => field.Name == name) ?? throw new DataException($"'{request.Parquet}' has " +
                $"no column '{name}'; its columns are {string.Join(", ", fields.Select(f => f.Name))}.")
            : timestamps.Length == 1 ? timestamps[0]
            : throw new DataException(
                $"'{request.Parquet}' has " +
                (timestamps.Length == 0 ? "no timestamp column" : $"the timestamp columns {string.Join(", ", timestamps.Select(f => f.Name))}") +
                "; name the time column with --time.");
        return ParquetColumns.IsTime(time) && !time.IsArray
            ? time
            : throw new DataException($"'{request.Parquet}': the time column '{time.Name}' holds " +
                $"{ParquetColumns.Describe(time)}, not timestamps. Nothing was imported.");
    }

    private static DataType ValueType(ParquetImportRequest request, DataField field) =>
        !field.IsArray && ParquetColumns.ValueType(field) is { } type
            ? type
            : throw new DataException($"'{request.Parquet}': column '{field.Name}' holds " +
                $"{ParquetColumns.Describe(field)}, which a table cannot hold (numbers: double, float, long, int, " +
                    $"short, sbyte and unsigned; DuckDB: CAST({field.Name} AS DOUBLE)). Nothing was imported.");
}
