using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Numerics;
using ListMmf.Tool.Import;
using ParquetSharp;

namespace ListMmf.Tool.Parquet;

/// <summary>What an import is asked to do: see <c>listmmf import parquet --help</c>.</summary>
/// <param name="Parquet">The Parquet file.</param>
/// <param name="Output">The table's folder: created, or appended to when it holds a table.</param>
/// <param name="TimeColumn">The time column; null for the one the file's metadata names, or its only timestamp column.</param>
/// <param name="TicksTime">For a new table: a ticks time column (true), seconds (false), or as the file says (null:
/// ticks unless it was exported from a seconds table).</param>
/// <param name="Order">For a new table: the order the times must keep; null for the file's, or Ascending.</param>
/// <param name="Staging">Whether the table is a step another import reads and removes (a catalog import's staging table).</param>
/// <param name="OrderIfUnrecorded">For a new table, when neither <paramref name="Order"/> nor the file says: the order the times must keep.</param>
internal sealed record ParquetImportRequest(
    string Parquet,
    string Output,
    string? TimeColumn,
    bool? TicksTime,
    TimeSeriesOrder? Order,
    bool Staging = false,
    TimeSeriesOrder OrderIfUnrecorded = TimeSeriesOrder.Ascending);

/// <summary>
/// Imports a Parquet file's rows into a <see cref="TimeSeriesTable"/> through a <see cref="TableImport"/>, a slice
/// of a row group at a time: memory stays bounded by the slice, whatever the file's size or the rows its footer claims. The file must be flat:
/// timestamp columns (one of them the time), columns of numbers and columns of strings (text columns), no nulls, times in the table's order. Anything
/// else stops the import with the column or row named, and the import is taken back. The file is read by Arrow C++'s
/// Parquet reader (ParquetSharp), so every encoding and codec the format defines is read.
/// </summary>
internal static class ParquetImporter
{
    /// <summary>
    /// The rows read from each column at a time. A footer's count of rows is a claim, not an allocation: a damaged or
    /// hostile one claiming billions is refused where its pages end, having held no more than this many.
    /// </summary>
    private const int SliceRows = 1 << 17;

    /// <summary>Arrow's reader's words for a DELTA_BINARY_PACKED page whose deltas are wider than the column's type.</summary>
    private const string WideDeltas = "delta bit width larger than integer bit width";

    /// <summary>Runs the import; returns the rows added. <paramref name="progress"/> gets the rows read so far and the rows in all.</summary>
    public static long Run(ParquetImportRequest request, Action<long, long>? progress = null)
    {
        using var stream = new FileStream(request.Parquet, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1 << 16);
        using ParquetFileReader file = Open(request, stream);
        ImportPlan plan = Plan(request, file);
        int slice = (int)Math.Min(SliceRows, plan.GroupRows.DefaultIfEmpty(0).Max());
        ColumnSink[] sinks = plan.Target.Columns.Select(column => ColumnSink.For(
            column,
            Array.FindIndex(plan.Fields, field => field.Name == column.Name),
            slice)).ToArray();
        var chunks = new ParquetChunkReader();
        var ticks = new long[slice];
        using TableImport import = TableImport.Open(plan.Target, plan.TicksIfNew, plan.Time.Utc, plan.OrderIfNew);
        long row = 0;
        long total = plan.Rows;
        for (int g = 0; g < plan.GroupRows.Length; g++)
        {
            using var group = new ParquetGroupReader(file, g);
            for (long done = 0; done < plan.GroupRows[g];)
            {
                int count = (int)Math.Min(slice, plan.GroupRows[g] - done);
                ReadSlice(request, file, g, group, count, plan, sinks, chunks, ticks, row);
                for (int i = 0; i < count; i++)
                {
                    if (import.TimeProblem(ticks[i]) is { } problem)
                    {
                        throw new DataException($"'{request.Parquet}' row {row + i:N0}: time " +
                            $"{TimeText.Ticks(ticks[i])} {problem}. Nothing was imported.");
                    }
                }

                import.Stage(sinks, ticks, count);
                done += count;
                row += count;
                progress?.Invoke(row, total);
            }
        }

        import.Complete();
        return import.Added;
    }

    /// <summary>
    /// What the file's footer says the import will do: the table's columns, how a new table is made, and the rows of
    /// each row group. A footer that does not make sense (a damaged file) is refused here, before any table is touched.
    /// </summary>
    private static ImportPlan Plan(ParquetImportRequest request, ParquetFileReader file)
    {
        try
        {
            using FileMetaData metadata = file.FileMetaData;
            IReadOnlyDictionary<string, string> keyValues = metadata.KeyValueMetadata;
            IReadOnlySet<string> secondsColumns = ParquetColumns.SecondsColumns(keyValues);
            IReadOnlyDictionary<string, DataType> textCodes = ParquetColumns.TextCodesOf(keyValues);
            SchemaDescriptor schema = metadata.Schema;
            ParquetField[] fields = Enumerable.Range(0, schema.NumColumns)
                .Select(index => ParquetColumns.Field(schema, index, secondsColumns))
                .ToArray();
            if (fields.FirstOrDefault(field => field.Refusal.StartsWith("is a ", StringComparison.Ordinal)) is { } nested)
            {
                throw new DataException($"'{request.Parquet}': column '{nested.Name}' {nested.Refusal}; a table holds " +
                    $"flat columns: one timestamp and numbers. Nothing was imported.");
            }

            ParquetField time = TimeField(request, fields, keyValues);
            var target = new ImportTarget(
                request.Parquet,
                request.Output,
                time.Name,
                fields.Where(field => field != time).Select(field => field.Kind == ParquetValueKind.Text
                    ? new ImportColumn(field.Name, textCodes.GetValueOrDefault(field.Name, ParquetColumns.TextCodes), IsText: true)
                    : new ImportColumn(field.Name, ValueType(request, field))).ToList(),
                request.TicksTime,
                request.Order,
                request.Staging);
            CheckNames(request, target);
            bool ticksIfNew = !(keyValues.TryGetValue(ParquetColumns.TimeTypeKey, out string? timeType) && timeType == nameof(DataType.UnixSeconds));
            TimeSeriesOrder kept = TimeSeriesOrder.Ascending;
            bool ordered = keyValues.TryGetValue(ParquetColumns.OrderKey, out string? order)
                && Enum.TryParse(order, out kept)
                && Enum.IsDefined(kept);
            long[] groupRows = Enumerable.Range(0, metadata.NumRowGroups).Select(g =>
            {
                using RowGroupReader group = file.RowGroup(g);
                return group.MetaData.NumRows;
            }).ToArray();
            int bad = Array.FindIndex(groupRows, rows => rows < 0);
            long rows = 0;
            foreach (long groupRowCount in groupRows)
            {
                rows = groupRowCount <= long.MaxValue - rows ? rows + groupRowCount : -1;
            }

            return bad >= 0
                ? throw new DataException($"'{request.Parquet}': row group {bad:N0} claims {groupRows[bad]:N0} rows, " +
                    $"the file is damaged. Nothing was imported.")
                : rows < 0
                ? throw new DataException($"'{request.Parquet}': its row groups claim more than {long.MaxValue:N0} rows " +
                    $"together, the file is damaged. Nothing was imported.")
                : new ImportPlan(target, time, fields, ticksIfNew, ordered ? kept : request.OrderIfUnrecorded, groupRows, rows);
        }
        catch (Exception exception) when (exception is not DataException)
        {
            throw new DataException($"'{request.Parquet}': its footer cannot be read, the file is damaged " +
                $"({ReaderMessage(exception)}). Nothing was imported.", exception);
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
            foreach (ImportColumn column in target.Columns)
            {
                column.AddTo(schema);
            }
        }
        catch (ArgumentException exception)
        {
            throw new DataException($"'{request.Parquet}': its columns cannot be a table's: {exception.Message} Nothing was imported.", exception);
        }
    }

    private static ParquetFileReader Open(ParquetImportRequest request, Stream stream)
    {
        try
        {
            // Pages that carry a CRC are checked against it: a flipped byte is refused, never imported as a wrong value.
            using ReaderProperties properties = ReaderProperties.GetDefaultReaderProperties();
            properties.EnablePageChecksumVerification();
            return new ParquetFileReader(stream, properties, leaveOpen: true);
        }
        catch (Exception exception)
        {
            // Whatever a damaged footer makes the reader throw, the file is not one this import can read.
            throw new DataException($"'{request.Parquet}' is not a whole Parquet file (cut short, or not Parquet at " +
                $"all): {ReaderMessage(exception)}. Nothing was imported.", exception);
        }
    }

    /// <summary>
    /// Reads the next <paramref name="count"/> rows of row group <paramref name="index"/>: times (as ticks, into
    /// <paramref name="ticks"/>) and values; a null, a value the table cannot hold, or a chunk that cannot be decoded
    /// (or that ends before the rows its footer claims) stops the import.
    /// </summary>
    private static void ReadSlice(
        ParquetImportRequest request,
        ParquetFileReader file,
        int index,
        ParquetGroupReader group,
        int count,
        ImportPlan plan,
        ColumnSink[] sinks,
        ParquetChunkReader chunks,
        long[] ticks,
        long firstRow)
    {
        string column = plan.Time.Name;
        try
        {
            int nullAt = chunks.ReadTicks(group, plan.Time, count, out ReadOnlySpan<long> times);
            times.CopyTo(ticks);
            foreach (ColumnSink sink in sinks)
            {
                if (nullAt >= 0)
                {
                    break;
                }

                column = sink.Name;
                nullAt = sink.Read(new ColumnChunk(chunks, group, plan.Fields[sink.Field]), count);
            }

            if (nullAt >= 0)
            {
                throw new DataException($"'{request.Parquet}' row {firstRow + nullAt:N0}: column '{column}' is null, " +
                    $"and a table holds a value in every row. Nothing was imported.");
            }
        }
        catch (ParquetValueException exception)
        {
            throw new DataException($"'{request.Parquet}' row {firstRow + exception.Row:N0}: column '{column}' " +
                $"{exception.Message}. Nothing was imported.", exception);
        }
        catch (Exception exception) when (exception is not DataException)
        {
            ParquetField? field = plan.Fields.FirstOrDefault(f => f.Name == column);
            throw new DataException(
                $"'{request.Parquet}' row group {index:N0}, column '{column}': " +
                    ((field is null ? null : KnownWriterFault(file, index, field, ReaderMessage(exception))) ??
                        $"cannot be read, the file is damaged or cut short ({ReaderMessage(exception)}). Nothing was imported."),
                exception);
        }
    }

    /// <summary>
    /// Why a chunk that Arrow's reader refuses was written so, for the two DELTA_BINARY_PACKED forms DuckDB's
    /// PARQUET_VERSION V2 writer makes and no Arrow reader (C++ or Rust) takes; null for anything else.
    /// </summary>
    private static string? KnownWriterFault(ParquetFileReader file, int index, ParquetField field, string reason)
    {
        const string Rewrite = "write the file with PARQUET_VERSION V1, or the column as BIGINT. Nothing was imported.";
        if (reason.Contains(WideDeltas, StringComparison.Ordinal))
        {
            return "its DELTA_BINARY_PACKED values have deltas wider than the column's own width, which Arrow's Parquet " +
                "readers refuse (DuckDB's PARQUET_VERSION V2 writer stores them when consecutive 32-bit values differ " +
                    "by more than 2^31); " + Rewrite;
        }

        using RowGroupReader group = file.RowGroup(index);
        using ColumnChunkMetaData chunk = group.MetaData.GetColumnChunkMetaData(field.Index);
        return field.TableType == DataType.UInt32 && chunk.Encodings.Contains(Encoding.DeltaBinaryPacked)
            ? "its DELTA_BINARY_PACKED unsigned 32-bit values cannot be decoded; DuckDB's PARQUET_VERSION V2 writer " +
                "stores UINTEGER values above 2^31 in a form Arrow's C++ and Rust readers both refuse (\"first value too " +
                    "large\"); " + Rewrite
            : null;
    }

    /// <summary>
    /// What Arrow's reader said, without the C++ exception type ParquetSharp wraps it in
    /// (<c>N7parquet16ParquetExceptionE (message: '...')</c>).
    /// </summary>
    private static string ReaderMessage(Exception exception)
    {
        string message = exception.Message;
        const string Start = "(message: '";
        int start = message.IndexOf(Start, StringComparison.Ordinal);
        int end = message.LastIndexOf("')", StringComparison.Ordinal);
        return start >= 0 && end > start ? message[(start + Start.Length)..end] : message;
    }

    private static ParquetField TimeField(ParquetImportRequest request, ParquetField[] fields, IReadOnlyDictionary<string, string> metadata)
    {
        string? name = request.TimeColumn ?? (metadata.TryGetValue(ParquetColumns.TimeColumnKey, out string? named) ? named : null);
        ParquetField[] timestamps = fields.Where(field => field.IsTime).ToArray();
        ParquetField time = name is not null
            ? fields.FirstOrDefault(field => field.Name == name) ?? throw new DataException($"'{request.Parquet}' has " +
                $"no column '{name}'; its columns are {string.Join(", ", fields.Select(f => f.Name))}.")
            : timestamps.Length == 1 ? timestamps[0]
            : throw new DataException(
                $"'{request.Parquet}' has " +
                (timestamps.Length == 0 ? "no timestamp column" : $"the timestamp columns {string.Join(", ", timestamps.Select(f => f.Name))}") +
                "; name the time column with --time.");
        return time.IsTime
            ? time
            : throw new DataException($"'{request.Parquet}': the time column '{time.Name}' " +
                $"{(time.TableType is null ? time.Refusal : $"holds {time.TableType} values")}, not timestamps. Nothing was imported.");
    }

    private static DataType ValueType(ParquetImportRequest request, ParquetField field) =>
        field.TableType ?? throw new DataException($"'{request.Parquet}': column '{field.Name}' {field.Refusal}. Nothing was imported.");

    /// <summary>The next rows of one value column of a row group, read into a sink's batch.</summary>
    private sealed record ColumnChunk(ParquetChunkReader Chunks, ParquetGroupReader Group, ParquetField Field) : IBatchReader
    {
        public int Read<T>(Span<T> batch)
            where T : unmanaged, INumberBase<T> =>
            Chunks.Read(Group, Field, batch);

        public int ReadText(Span<string> batch) => Chunks.ReadText(Group, Field, batch);
    }

    /// <summary>What an import of a file will do, read from its footer.</summary>
    private sealed record ImportPlan(
        ImportTarget Target,
        ParquetField Time,
        ParquetField[] Fields,
        bool TicksIfNew,
        TimeSeriesOrder OrderIfNew,
        long[] GroupRows,
        long Rows);
}
