using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Numerics;
using System.Threading.Tasks;
using Parquet;
using Parquet.Schema;

namespace ListMmf.Tool.Parquet;

/// <summary>What an export is asked to do: see <c>listmmf export parquet --help</c>.</summary>
/// <param name="Table">The table's folder.</param>
/// <param name="Output">The Parquet file, replaced when it exists.</param>
/// <param name="Compression">The codec of every column chunk.</param>
/// <param name="Level">How hard the codec works (snappy has one level).</param>
/// <param name="RowGroupRows">Rows per row group; 0 for <see cref="ParquetExporter.DefaultRowGroupRows"/>.</param>
/// <param name="From">The first time exported, included; null for the first row.</param>
/// <param name="To">The time to stop at, excluded; null for the last row.</param>
internal sealed record ParquetExportRequest(
    string Table,
    string Output,
    CompressionMethod Compression,
    CompressionLevel Level,
    int RowGroupRows,
    DateTime? From,
    DateTime? To);

/// <summary>
/// Writes a table's rows as a Parquet file, a row group at a time straight from the mapping (only the time column
/// is converted, into one row group's buffer), so memory stays bounded by a row group whatever the table's size.
/// The file is written beside the target under a temporary name, flushed to the device and renamed over it: the
/// target is whole or as it was.
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

    /// <summary>Runs the export; returns the rows written. <paramref name="progress"/> gets the rows written so far and the rows in all.</summary>
    public static long Run(ParquetExportRequest request, Action<long, long>? progress = null) => RunAsync(request, progress).GetAwaiter().GetResult();

    private static async Task<long> RunAsync(ParquetExportRequest request, Action<long, long>? progress)
    {
        using var table = TimeSeriesTable.Open(request.Table, FileAccess.Read);
        long first = request.From is { } from ? table.LowerBound(from) : 0;
        long end = request.To is { } to ? Math.Max(first, table.LowerBound(to)) : table.RowCount;
        DataField[] fields = table.Columns.Select(column => ParquetColumns.Field(column.Name, column.DataType)).ToArray();
        int rowGroupRows = request.RowGroupRows > 0 ? request.RowGroupRows : DefaultRowGroupRows;
        var times = new DateTime[(int)Math.Min(rowGroupRows, Math.Max(1, end - first))];
        string target = Path.GetFullPath(request.Output);
        string temporary = target + ".listmmf.tmp";
        FileStream? created = null;
        try
        {
            created = CreateTemporary(target, temporary);
            await using (FileStream stream = created)
            {
                var options = new ParquetOptions { CompressionMethod = request.Compression, CompressionLevel = request.Level };
                await using (ParquetWriter writer = await ParquetWriter.CreateAsync(
                    new ParquetSchema(fields),
                    stream,
                    options,
                    append: false,
                    default).ConfigureAwait(false))
                {
                    writer.CustomMetadata = new Dictionary<string, string>
                    {
                        [ParquetColumns.TimeColumnKey] = table.Schema.Time.Name,
                        [ParquetColumns.TimeTypeKey] = table.Schema.Time.DataType.ToString(),
                        [ParquetColumns.OrderKey] = table.Schema.Order.ToString(),
                    };
                    for (long start = first; start < end; start += rowGroupRows)
                    {
                        var rows = new IndexRange(start, Math.Min(end, start + rowGroupRows));
                        using ParquetRowGroupWriter group = writer.CreateRowGroup();
                        for (int i = 0; i < fields.Length; i++)
                        {
                            await WriteAsync(group, fields[i], table, table.Columns[i], rows, times).ConfigureAwait(false);
                        }

                        progress?.Invoke(rows.End - first, end - first);
                    }
                }

                stream.Flush(flushToDisk: true);
            }

            File.Move(temporary, target, overwrite: true);
            return end - first;
        }
        finally
        {
            // Only a file this export created: another export's temporary file, held open, is its own.
            if (created is not null)
            {
                File.Delete(temporary);
            }
        }
    }

    /// <summary>The temporary file beside the target: a leftover of a killed export is replaced; one another export holds is refused.</summary>
    private static FileStream CreateTemporary(string target, string temporary)
    {
        try
        {
            return new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 1 << 16);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new DataException($"'{target}': cannot write its temporary file '{temporary}' " +
                $"({exception.Message}); another export to it may be running, or its folder is missing or read-only. " +
                    $"Nothing was exported.", exception);
        }
    }

    private static Task WriteAsync(
        ParquetRowGroupWriter group,
        DataField field,
        TimeSeriesTable table,
        TableColumn column,
        IndexRange rows,
        DateTime[] times) =>
        column.DataType switch
        {
            DataType.UnixSeconds => group.WriteAsync<DateTime>(
                field,
                FromSeconds(table.Column<int>(column.Name).AsSpan(rows), times),
                null,
                null,
                default),
            DataType.DateTime => group.WriteAsync<DateTime>(
                field,
                FromTicks(table.Column<long>(column.Name).AsSpan(rows), times, column, rows.Start),
                null,
                null,
                default),
            _ => DataTypeDispatch.Invoke(column.DataType, new ValueWriter(group, field, table, column.Name, rows)),
        };

    private sealed record ValueWriter(
        ParquetRowGroupWriter Group,
        DataField Field,
        TimeSeriesTable Table,
        string Name,
        IndexRange Rows) : IDataTypeFunc<Task>
    {
        public Task Invoke<T>()
            where T : unmanaged, INumber<T> =>
            Group.WriteAsync(Field, Table.Column<T>(Name).AsMemory(Rows), null, null, default);
    }

    private static ReadOnlyMemory<DateTime> FromSeconds(ReadOnlySpan<int> seconds, DateTime[] times)
    {
        for (int i = 0; i < seconds.Length; i++)
        {
            times[i] = ListMmfTimeSeriesDateTimeSeconds.ToDateTime(seconds[i]);
        }

        return times.AsMemory(0, seconds.Length);
    }

    private static ReadOnlyMemory<DateTime> FromTicks(ReadOnlySpan<long> ticks, DateTime[] times, TableColumn column, long firstRow)
    {
        for (int i = 0; i < ticks.Length; i++)
        {
            if (Math.Abs(ticks[i] - EpochTicks) > MaxTicksFromEpoch)
            {
                throw new DataException($"'{column.Path}' row {firstRow + i:N0}: the time " +
                    $"{new DateTime(ticks[i]):yyyy-MM-dd HH:mm:ss.fffffff} is outside what a Parquet nanosecond " +
                        $"timestamp holds (1677-09-21 to 2262-04-11). Nothing was exported.");
            }

            times[i] = new DateTime(ticks[i]);
        }

        return times.AsMemory(0, ticks.Length);
    }
}
