using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Numerics;
using System.Runtime.InteropServices;
using Apache.Arrow;
using Apache.Arrow.Ipc;
using Apache.Arrow.Types;
using ListMmf.Storage;

namespace ListMmf.Arrow;

/// <summary>
/// Lists, time series and tables as Apache Arrow arrays and record batches whose value buffers point into the
/// mapping: handing them out copies nothing, whatever the row count. Only a time column asked for as
/// <see cref="ArrowTimeColumn.Timestamp"/> is converted into a buffer of its own.
/// </summary>
/// <remarks>
/// The arrays are views of the file: used from .NET after the list or table is disposed, they throw rather than read
/// unmapped memory; they keep it from being collected meanwhile. Exported through Arrow's C Data Interface
/// (<c>CArrowArrayExporter</c>), their memory stays mapped until the consumer releases it, as Arrow's contract says,
/// even if the list or table is disposed first. They hold the
/// rows published when they were made; a writer's later appends are not in them. .NET Arrow buffers are int-sized,
/// so one array holds at most 2 GiB of values: larger lists go as several batches.
/// </remarks>
public static class ListMmfArrowExtensions
{
    /// <summary>The rows per batch of <see cref="ToRecordBatches"/> and <see cref="WriteArrowFile"/> unless told otherwise.</summary>
    public const int DefaultRowsPerBatch = 1 << 20;

    /// <summary>The schema metadata key naming the table's time column.</summary>
    public const string TimeColumnKey = "listmmf.time_column";

    /// <summary>The schema metadata key holding the table's <see cref="TimeSeriesOrder"/>.</summary>
    public const string OrderKey = "listmmf.order";

    /// <summary>The field metadata key holding a column's ListMmf data type (as <see cref="DataType"/> names it, or Text).</summary>
    public const string DataTypeKey = "listmmf.data_type";

    /// <summary>
    /// The items of <paramref name="list"/> published now, as an Arrow array: over the mapping where the list's form has
    /// one (an appendable list, a table's appendable column), decoded into memory of its own where it is sealed (a
    /// compressed block is not an Arrow buffer). Times as timestamps, converted into a buffer of their own, or with
    /// <see cref="ArrowTimeColumn.Stored"/> their stored values, over the mapping where there is one.
    /// </summary>
    /// <exception cref="NotSupportedException">The list holds structs: Arrow arrays are made of the number types.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The items take more than 2 GiB; use the overload with a range.</exception>
    /// <exception cref="ListMmfException">A ticks time outside what nanoseconds since 1970 hold, converting to timestamps.</exception>
    public static IArrowArray ToArrowArray<T>(this IReadOnlyListMmf<T> list, ArrowTimeColumn time = ArrowTimeColumn.Timestamp)
        where T : unmanaged
    {
        ArgumentNullException.ThrowIfNull(list);
        return list.ToArrowArray(new IndexRange(0, WholeLength(list.Count, list.Path, nameof(list))), time);
    }

    /// <summary>
    /// The items of <paramref name="range"/> of <paramref name="list"/>, as an Arrow array over the mapping or decoded
    /// (only the blocks they are in) from a sealed file; see <see cref="ToArrowArray{T}(IReadOnlyListMmf{T}, ArrowTimeColumn)"/>.
    /// </summary>
    /// <exception cref="NotSupportedException">The list holds structs: Arrow arrays are made of the number types.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the list, or takes more than 2 GiB.</exception>
    /// <exception cref="ListMmfException">A ticks time outside what nanoseconds since 1970 hold, converting to timestamps.</exception>
    public static IArrowArray ToArrowArray<T>(this IReadOnlyListMmf<T> list, IndexRange range, ArrowTimeColumn time = ArrowTimeColumn.Timestamp)
        where T : unmanaged
    {
        ArgumentNullException.ThrowIfNull(list);
        DataTypeInfo type = DataTypeInfo.Of(list.DataType);
        IArrowType stored = NumberType(type, typeof(T), list.Path);
        ReadOnlyMemory<T> values = Values(list, range);
        return type.IsTime
            ? TimeArray(values, type, time, list.TimesAreUtc, list.Path, range.Start)
            : ArrowBuffers.Wrap(values, stored, list.Path);
    }

    /// <summary>
    /// The times of <paramref name="range"/> of a time series, as an Arrow timestamp array or, with
    /// <see cref="ArrowTimeColumn.Stored"/>, the stored values over the mapping.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the series, or takes more than 2 GiB.</exception>
    /// <exception cref="ListMmfException">A ticks time outside what nanoseconds since 1970 hold, converting to timestamps.</exception>
    public static IArrowArray ToArrowArray<TKey>(this TimeSeriesMmf<TKey> series, IndexRange range, ArrowTimeColumn time = ArrowTimeColumn.Timestamp)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    {
        ArgumentNullException.ThrowIfNull(series);
        return TimeArray(series.AsMemory(range), DataTypeInfo.Of(series.DataType), time, series.TimesAreUtc, series.Path, range.Start);
    }

    /// <summary>
    /// The Arrow schema of <paramref name="table"/>'s record batches: its time column first, then its value columns,
    /// none nullable. Timestamps of a table recorded as UTC are in the zone "UTC", so that every reader sees them as
    /// the instants they are; other tables' have no zone.
    /// </summary>
    public static Schema ToArrowSchema(this TimeSeriesTable table, ArrowTimeColumn time = ArrowTimeColumn.Timestamp)
    {
        ArgumentNullException.ThrowIfNull(table);
        bool utc = table.Schema.TimesAreUtc;
        var fields = table.Columns.Select(column => column is TextColumn
            ? ArrowTypes.TextField(column.Name)
            : ArrowTypes.Field(column.Name, DataTypeInfo.Of(column.DataType), time, utc));
        return new Schema(fields, [new(TimeColumnKey, table.Schema.Time.Name), new(OrderKey, table.Schema.Order.ToString())]);
    }

    /// <summary>Every published row of <paramref name="table"/> as one record batch over the mapping.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A column takes more than 2 GiB; use <see cref="ToRecordBatches"/>.</exception>
    public static RecordBatch ToRecordBatch(this TimeSeriesTable table, ArrowTimeColumn time = ArrowTimeColumn.Timestamp)
    {
        ArgumentNullException.ThrowIfNull(table);
        return table.ToRecordBatch(new IndexRange(0, table.RowCount), time);
    }

    /// <summary>
    /// The rows of <paramref name="rows"/> (for example from <see cref="TimeSeriesTable.FindRange(System.DateTime, System.DateTime)"/>) as one record
    /// batch over the mapping; a sealed column's rows are decoded into memory of their own, and a text column is a
    /// dictionary array of its codes (as Int32 indices) and its distinct values.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows, or a column of it takes more than 2 GiB.</exception>
    /// <exception cref="ListMmfException">A ticks time outside what nanoseconds since 1970 hold, converting to timestamps.</exception>
    public static RecordBatch ToRecordBatch(this TimeSeriesTable table, IndexRange rows, ArrowTimeColumn time = ArrowTimeColumn.Timestamp)
    {
        ArgumentNullException.ThrowIfNull(table);
        return Batch(table, rows, time, table.ToArrowSchema(time), ArrowText.Dictionaries(table));
    }

    /// <summary>
    /// The rows of <paramref name="rows"/> as one record batch of <paramref name="schema"/>, each text column's values
    /// from <paramref name="texts"/>.
    /// </summary>
    private static RecordBatch Batch(
        TimeSeriesTable table, IndexRange rows, ArrowTimeColumn time, Schema schema, IReadOnlyDictionary<string, ArrowText> texts)
    {
        if (rows.Start < 0 || rows.Length is < 0 or > int.MaxValue || rows.End > table.RowCount)
        {
            throw new ArgumentOutOfRangeException(nameof(rows), rows, $"'{table.Path}': a batch holds at most " +
                $"{int.MaxValue:N0} of the table's {table.RowCount:N0} published rows.");
        }

        IArrowArray[] arrays = table.Columns
            .Select(column => texts.TryGetValue(column.Name, out ArrowText? text)
                ? text.Array(rows)
                : DataTypeInfo.Of(column.DataType).Accept(new ArrowColumn(table, column.Name, rows, time)))
            .ToArray();
        return new RecordBatch(schema, arrays, (int)rows.Length);
    }

    /// <summary>
    /// The rows published now, as record batches of <paramref name="rowsPerBatch"/> rows (the last one shorter) over
    /// the mapping, made as they are enumerated.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="rowsPerBatch"/> is not positive.</exception>
    public static IEnumerable<RecordBatch> ToRecordBatches(
        this TimeSeriesTable table,
        ArrowTimeColumn time = ArrowTimeColumn.Timestamp,
        int rowsPerBatch = DefaultRowsPerBatch)
    {
        ArgumentNullException.ThrowIfNull(table);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rowsPerBatch);
        return Batches(table, table.RowCount, rowsPerBatch, time, table.ToArrowSchema(time));
    }

    /// <summary>
    /// Writes the rows published now as an Arrow IPC file (Feather v2), which pyarrow, Polars, DuckDB and Arrow's own
    /// readers open: written to a temporary file beside <paramref name="path"/>, flushed to the device, then renamed
    /// into place and the folder flushed, so <paramref name="path"/> never holds a partial file. Returns the rows written.
    /// </summary>
    /// <param name="table">The table.</param>
    /// <param name="path">The file to write.</param>
    /// <param name="time">How the time column is written.</param>
    /// <param name="rowsPerBatch">Rows per record batch.</param>
    /// <param name="overwrite">Whether an existing file at <paramref name="path"/> is replaced; it is refused otherwise.</param>
    /// <exception cref="ListMmfException"><paramref name="path"/> is the table's folder, one of its files or in its
    /// folder (links followed), or it exists and <paramref name="overwrite"/> is false; nothing was written.</exception>
    /// <exception cref="IOException">Writing failed; <paramref name="path"/> is as it was.</exception>
    public static long WriteArrowFile(
        this TimeSeriesTable table,
        string path,
        ArrowTimeColumn time = ArrowTimeColumn.Timestamp,
        int rowsPerBatch = DefaultRowsPerBatch,
        bool overwrite = false)
    {
        ArgumentNullException.ThrowIfNull(table);
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rowsPerBatch);
        long rows = table.RowCount;
        using OutputFile output = OutputFile.Create(path, table.Path, overwrite, howToReplace: "Pass overwrite: true to replace it.");
        Schema schema = table.ToArrowSchema(time);
        using (var writer = new ArrowFileWriter(output.Stream, schema, leaveOpen: true))
        {
            // The header and schema now: the writer would otherwise write them with the first batch, and a table
            // of no rows would leave a file without Arrow's magic that no reader opens.
            writer.WriteStart();
            foreach (RecordBatch batch in Batches(table, rows, rowsPerBatch, time, schema))
            {
                writer.WriteRecordBatch(batch);
            }

            writer.WriteEnd();
        }

        output.Publish();
        return rows;
    }

    /// <summary>
    /// The batches of the first <paramref name="rows"/> rows; every batch's text columns share one dictionary, read
    /// once after the rows were counted, as an IPC file (which has no dictionary replacement) needs; and every batch
    /// is of one <paramref name="schema"/>, whose fields the IPC writer finds the dictionaries by.
    /// </summary>
    private static IEnumerable<RecordBatch> Batches(TimeSeriesTable table, long rows, int rowsPerBatch, ArrowTimeColumn time, Schema schema)
    {
        IReadOnlyDictionary<string, ArrowText> texts = ArrowText.Dictionaries(table);
        for (long start = 0; start < rows; start += rowsPerBatch)
        {
            yield return Batch(table, new IndexRange(start, Math.Min(rows, start + rowsPerBatch)), time, schema, texts);
        }
    }

    /// <summary>
    /// A column's rows as an Arrow array over the mapping, or decoded from a sealed column (times converted unless
    /// <see cref="ArrowTimeColumn.Stored"/>).
    /// </summary>
    private sealed record ArrowColumn(TimeSeriesTable Table, string Name, IndexRange Rows, ArrowTimeColumn Time) : IDataTypeVisitor<IArrowArray>
    {
        public IArrowArray Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            TableColumn<T> column = Table.Column<T>(Name);
            ReadOnlyMemory<T> values = Values(column, Rows);
            return type.IsTime
                ? TimeArray(values, type, Time, Table.Schema.TimesAreUtc, column.Path, Rows.Start)
                : ArrowBuffers.Wrap(values, ArrowTypes.Required(Name, type, Time), column.Path);
        }
    }

    /// <summary>
    /// The items of <paramref name="range"/>: memory over the mapping where the form has one, else decoded into memory
    /// of their own (a compressed block is not an Arrow buffer).
    /// </summary>
    private static ReadOnlyMemory<T> Values<T>(IReadOnlyListMmf<T> items, IndexRange range)
        where T : unmanaged
    {
        if (items.TryGetMemory(range, out ReadOnlyMemory<T> memory))
        {
            return memory;
        }

        T[] values = GC.AllocateUninitializedArray<T>(ThrowHelper.SpanLength(range.Start, range.Length, items.Count));
        items.CopyTo(range, values);
        return values;
    }

    /// <summary>The Arrow number type of items of <paramref name="type"/>; refused, naming the file, for a struct.</summary>
    private static IArrowType NumberType(DataTypeInfo type, Type itemType, string path) =>
        ArrowTypes.Of(type, ArrowTimeColumn.Stored) ?? throw new NotSupportedException(
            $"'{path}' holds {itemType.Name} items; Arrow arrays are made of the number types " +
                $"({string.Join(", ", DataTypeInfo.All.Where(known => known.Keyword is not null).Select(known => known.Keyword))}).");

    /// <summary>A whole list's count as one array's length, which an Arrow array holds up to int.MaxValue of.</summary>
    private static int WholeLength(long count, string path, string parameter) =>
        count <= int.MaxValue
            ? (int)count
            : throw new ArgumentOutOfRangeException(parameter, count, $"'{path}' holds {count:N0} items, and " +
                $"an Arrow array at most {int.MaxValue:N0}; hand them over in ranges.");

    private static IArrowArray TimeArray<TKey>(
        ReadOnlyMemory<TKey> keys, DataTypeInfo type, ArrowTimeColumn time, bool utc, string path, long firstRow)
        where TKey : unmanaged
    {
        if (time == ArrowTimeColumn.Stored)
        {
            return ArrowBuffers.Wrap(keys, ArrowTypes.Required(type.Name, type, time), path);
        }

        ReadOnlySpan<TKey> span = keys.Span;
        return type.Kind == DataTypeKind.UnixSeconds
            ? ArrowTimes.FromSeconds(MemoryMarshal.Cast<TKey, int>(span), utc)
            : ArrowTimes.FromTicks(MemoryMarshal.Cast<TKey, long>(span), utc, path, firstRow);
    }
}
