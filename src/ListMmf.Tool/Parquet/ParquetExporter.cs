using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using ParquetSharp;
using ParquetSharp.Schema;

namespace ListMmf.Tool.Parquet;

/// <summary>What an export is asked to do: see <c>listmmf export parquet --help</c>.</summary>
/// <param name="Table">The table's folder.</param>
/// <param name="Output">The Parquet file, named in messages.</param>
/// <param name="Compression">The codec of every column chunk.</param>
/// <param name="Level">How hard the codec works (snappy has one level).</param>
/// <param name="RowGroupRows">Rows per row group; 0 for <see cref="ParquetExporter.DefaultRowGroupRows"/>.</param>
/// <param name="From">The first time exported, included; null for the first row.</param>
/// <param name="To">The time to stop at, excluded; null for the last row.</param>
/// <param name="EndRow">The row to stop at, excluded (a catalog partition's recorded rows); null for no limit.</param>
internal sealed record ParquetExportRequest(
    string Table,
    string Output,
    Compression Compression,
    CompressionLevel Level,
    int RowGroupRows,
    DateTime? From,
    DateTime? To,
    long? EndRow = null);

/// <summary>
/// Writes a table's rows as a Parquet file through Arrow C++'s Parquet writer (ParquetSharp), a row group at a time
/// straight from the mapping: columns the file stores as the table does are handed over as spans of the mapped
/// column, the others (times, 8- and 16-bit integers) are converted into one row group's buffer, so memory stays
/// bounded by a row group whatever the table's size. The writer records each column chunk's statistics, which engines
/// prune row groups by, from the values it was given. It writes to the stream of an <see cref="Storage.OutputFile"/>,
/// which the caller opens and publishes.
/// </summary>
internal static class ParquetExporter
{
    /// <summary>
    /// Rows per row group unless told otherwise: pyarrow's default, large enough for readers to scan well (DuckDB,
    /// Spark and Polars split work by row group), small enough that the writer's buffers for one group stay small.
    /// </summary>
    public const int DefaultRowGroupRows = 1 << 20;

    private static readonly long EpochTicks = DateTime.UnixEpoch.Ticks;

    /// <summary>Nanoseconds since 1970 in an Int64 reach from 1677-09-21 to 2262-04-11.</summary>
    private static readonly long MaxTicksFromEpoch = long.MaxValue / 100;

    /// <summary>
    /// Runs the export into <paramref name="output"/>; returns the rows written. <paramref name="progress"/> gets the
    /// rows written so far and the rows in all.
    /// </summary>
    public static long Run(ParquetExportRequest request, Stream output, Action<long, long>? progress = null)
    {
        using var table = TimeSeriesTable.Open(request.Table, FileAccess.Read);
        long first = request.From is { } from ? table.LowerBound(from) : 0;
        long end = request.To is { } to ? Math.Max(first, table.LowerBound(to)) : table.RowCount;
        end = Math.Max(first, Math.Min(end, request.EndRow ?? end));
        int rowGroupRows = request.RowGroupRows > 0 ? request.RowGroupRows : DefaultRowGroupRows;
        var buffers = new ExportBuffers((int)Math.Min(rowGroupRows, Math.Max(1, end - first)), table.Columns.Any(column => column.IsSealed));

        // Read after the rows: every code of a published row has its value among these.
        Dictionary<TableColumn, TextValues> texts = table.Columns.OfType<TextColumn>()
            .ToDictionary(text => (TableColumn)text, text => new TextValues(text));
        using (GroupNode schema = Schema(table))
        using (WriterProperties properties = Properties(request, rowGroupRows))
        using (var writer = new ParquetFileWriter(output, schema, properties, Metadata(table), leaveOpen: true))
        {
            for (long start = first; start < end; start += rowGroupRows)
            {
                var rows = new IndexRange(start, Math.Min(end, start + rowGroupRows));
                using RowGroupWriter group = writer.AppendRowGroup();
                foreach (TableColumn column in table.Columns)
                {
                    using ColumnWriter columnWriter = group.NextColumn();
                    if (texts.TryGetValue(column, out TextValues? text))
                    {
                        text.Write((ColumnWriter<ByteArray>)columnWriter, rows, buffers);
                        continue;
                    }

                    Write(columnWriter, table, column, rows, buffers);
                }

                progress?.Invoke(rows.End - first, end - first);
            }

            writer.Close();
        }

        return end - first;
    }

    /// <summary>One required column per table column, the time column first, each typed as <see cref="ParquetColumns.Node"/> says.</summary>
    private static GroupNode Schema(TimeSeriesTable table)
    {
        bool utc = table.Schema.TimesAreUtc;
        Node[] nodes = table.Columns.Select(column => (Node)(column is TextColumn
            ? ParquetColumns.TextNode(column.Name)
            : ParquetColumns.Node(column.Name, DataTypeInfo.Of(column.DataType), utc))).ToArray();
        try
        {
            return new GroupNode("schema", Repetition.Required, nodes);
        }
        finally
        {
            foreach (Node node in nodes)
            {
                node.Dispose();
            }
        }
    }

    /// <summary>The codec and its level, and the row group size (Arrow's writer would cut its own groups at 64M rows).</summary>
    private static WriterProperties Properties(ParquetExportRequest request, int rowGroupRows)
    {
        using var builder = new WriterPropertiesBuilder();
        // A CRC-32 per data page, which readers that check them (this tool's import, Arrow, DuckDB) use to refuse a
        // flipped byte instead of reading it as a wrong value.
        builder.Compression(request.Compression).MaxRowGroupLength(rowGroupRows).CreatedBy("listmmf export parquet").EnablePageChecksum();
        int? level = (request.Compression, request.Level) switch
        {
            (Compression.Zstd, CompressionLevel.Fastest) => 1,
            (Compression.Zstd, CompressionLevel.Optimal) => 3,
            (Compression.Zstd, CompressionLevel.SmallestSize) => 19,
            (Compression.Gzip, CompressionLevel.Fastest) => 1,
            (Compression.Gzip, CompressionLevel.Optimal) => 6,
            (Compression.Gzip, CompressionLevel.SmallestSize) => 9,
            _ => null,
        };
        if (level is { } codecLevel)
        {
            builder.CompressionLevel(codecLevel);
        }

        return builder.Build();
    }

    /// <summary>
    /// What a table made from the file needs and Parquet's types cannot say: which column is the time, its type, the
    /// order, the value columns of Unix seconds, and the codes of the text columns.
    /// </summary>
    private static Dictionary<string, string> Metadata(TimeSeriesTable table) => new()
    {
        [ParquetColumns.TimeColumnKey] = table.Schema.Time.Name,
        [ParquetColumns.TimeTypeKey] = table.Schema.Time.DataType.ToString(),
        [ParquetColumns.OrderKey] = table.Schema.Order.ToString(),
        [ParquetColumns.SecondsColumnsKey] = ParquetColumns.SecondsColumnsValue(table.Columns.Skip(1)),
        [ParquetColumns.TextCodesKey] = ParquetColumns.TextCodesValue(table.Columns),
    };

    private static void Write(ColumnWriter writer, TimeSeriesTable table, TableColumn column, IndexRange rows, ExportBuffers buffers) =>
        DataTypeInfo.Of(column.DataType).Accept(new ColumnWrite(writer, table, column, rows, buffers));

    private static ReadOnlySpan<int> Widen<T>(ReadOnlySpan<T> values, int[] ints)
        where T : unmanaged, INumberBase<T>
    {
        for (int i = 0; i < values.Length; i++)
        {
            ints[i] = int.CreateTruncating(values[i]);
        }

        return ints.AsSpan(0, values.Length);
    }

    /// <summary>
    /// Unix seconds as milliseconds since 1970; <see cref="int.MinValue"/>, which a seconds column stores for
    /// DateTime.MinValue, as what it stands for.
    /// </summary>
    private static ReadOnlySpan<long> Millis(ReadOnlySpan<int> seconds, long[] millis)
    {
        for (int i = 0; i < seconds.Length; i++)
        {
            millis[i] = (ListMmfTimeSeriesDateTimeSeconds.ToDateTime(seconds[i]).Ticks - EpochTicks) / TimeSpan.TicksPerMillisecond;
        }

        return millis.AsSpan(0, seconds.Length);
    }

    private static ReadOnlySpan<long> Nanos(ReadOnlySpan<long> ticks, long[] nanos, TableColumn column, long firstRow)
    {
        for (int i = 0; i < ticks.Length; i++)
        {
            long sinceEpoch = ticks[i] - EpochTicks;
            if (Math.Abs(sinceEpoch) > MaxTicksFromEpoch)
            {
                throw new DataException($"'{column.Path}' row {firstRow + i:N0}: the time " +
                    $"{TimeText.Ticks(ticks[i])} is outside what a Parquet nanosecond " +
                        $"timestamp holds (1677-09-21 to 2262-04-11). Nothing was exported.");
            }

            nanos[i] = sinceEpoch * 100;
        }

        return nanos.AsSpan(0, ticks.Length);
    }

    /// <summary>
    /// Writes a column's rows as <see cref="ParquetColumns.Node"/> typed it: the values as they are where the
    /// physical type has their width, narrow integers widened to INT32, times converted.
    /// </summary>
    private sealed record ColumnWrite(ColumnWriter Writer, TimeSeriesTable Table, TableColumn Column, IndexRange Rows, ExportBuffers Buffers)
        : IDataTypeVisitor<bool>
    {
        public bool Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            ReadOnlySpan<T> values = Table.Column<T>(Column.Name).Read(Rows, Buffers.Decoded<T>());
            switch (type.Kind, type.Size)
            {
                case (DataTypeKind.UnixSeconds, _):
                    ((ColumnWriter<long>)Writer).WriteBatch(Millis(MemoryMarshal.Cast<T, int>(values), Buffers.Longs));
                    break;
                case (DataTypeKind.DateTimeTicks, _):
                    ((ColumnWriter<long>)Writer).WriteBatch(Nanos(MemoryMarshal.Cast<T, long>(values), Buffers.Longs, Column, Rows.Start));
                    break;
                case (DataTypeKind.FloatingPoint, 8):
                    ((ColumnWriter<double>)Writer).WriteBatch(MemoryMarshal.Cast<T, double>(values));
                    break;
                case (DataTypeKind.FloatingPoint, 4):
                    ((ColumnWriter<float>)Writer).WriteBatch(MemoryMarshal.Cast<T, float>(values));
                    break;
                case (DataTypeKind.SignedInteger or DataTypeKind.UnsignedInteger, 8):
                    ((ColumnWriter<long>)Writer).WriteBatch(MemoryMarshal.Cast<T, long>(values));
                    break;
                case (DataTypeKind.SignedInteger or DataTypeKind.UnsignedInteger, 4):
                    ((ColumnWriter<int>)Writer).WriteBatch(MemoryMarshal.Cast<T, int>(values));
                    break;
                case (DataTypeKind.SignedInteger or DataTypeKind.UnsignedInteger, 1 or 2):
                    ((ColumnWriter<int>)Writer).WriteBatch(Widen(values, Buffers.Ints));
                    break;
                default:
                    throw new NotSupportedException($"A {type.Name} column has no Parquet type.");
            }

            return true;
        }
    }

    /// <summary>
    /// A text column's distinct values as UTF-8, in one pinned array that the writer reads each row's bytes from: a
    /// row costs a lookup of its code, never an encoding. The writer dictionary-encodes the column, as Parquet
    /// writers do for strings, so the file stores each distinct value once a row group.
    /// </summary>
    private sealed class TextValues
    {
        private readonly TextColumn _column;
        private readonly ByteArray[] _values;

        /// <summary>Keeps the values' bytes from moving or being collected while the writer holds pointers into them.</summary>
        private readonly byte[] _bytes;

        public TextValues(TextColumn column)
        {
            _column = column;
            string[] values = [.. Enumerable.Range(0, column.EntryCount).Select(column.EntryAt)];
            _bytes = GC.AllocateUninitializedArray<byte>(values.Sum(System.Text.Encoding.UTF8.GetByteCount), pinned: true);
            _values = new ByteArray[values.Length];
            int at = 0;
            for (int code = 0; code < values.Length; code++)
            {
                int length = System.Text.Encoding.UTF8.GetBytes(values[code], _bytes.AsSpan(at));
                _values[code] = new ByteArray(length == 0 ? IntPtr.Zero : Marshal.UnsafeAddrOfPinnedArrayElement(_bytes, at), length);
                at += length;
            }
        }

        public void Write(ColumnWriter<ByteArray> writer, IndexRange rows, ExportBuffers buffers)
        {
            Span<int> codes = buffers.Ints.AsSpan(0, (int)rows.Length);
            _column.CopyCodes(rows, codes);
            // CopyCodes refused a code with no value; the rows were counted before the values were read, so each
            // of their codes is among them.
            Span<ByteArray> values = buffers.Texts.AsSpan(0, codes.Length);

            for (int i = 0; i < codes.Length; i++)
            {
                values[i] = _values[codes[i]];
            }

            writer.WriteBatch(values);
            GC.KeepAlive(_bytes);
        }
    }

    /// <summary>
    /// One row group's converted columns: times as Int64 and narrow integers widened to Int32; and, for a table with
    /// sealed columns, room for a column's decoded values.
    /// </summary>
    private sealed class ExportBuffers(int rows, bool decodes)
    {
        private readonly byte[] _decoded = decodes ? new byte[rows * sizeof(long)] : [];

        public long[] Longs { get; } = new long[rows];

        public ByteArray[] Texts { get; } = new ByteArray[rows];

        public int[] Ints { get; } = new int[rows];

        /// <summary>Room for a row group of a sealed number column's values (empty where no column is sealed).</summary>
        public Span<T> Decoded<T>()
            where T : unmanaged =>
            MemoryMarshal.Cast<byte, T>(_decoded.AsSpan(0, Math.Min(_decoded.Length, rows * Unsafe.SizeOf<T>())));
    }
}
