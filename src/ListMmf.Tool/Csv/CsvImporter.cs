using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using CsvHelper;

namespace ListMmf.Tool.Csv;

/// <summary>What an import is asked to do: see <c>listmmf import csv --help</c>.</summary>
/// <param name="Csv">The CSV file; gzip when it starts with the gzip magic bytes.</param>
/// <param name="Output">The table's folder: created, or appended to when it holds a table.</param>
/// <param name="TimeColumn">The CSV column of the times.</param>
/// <param name="TimeFormat">How the times are written; null to decide by the first row.</param>
/// <param name="Columns">The value columns: CSV column name and type.</param>
/// <param name="TicksTime">For a new table: a ticks time column (true), seconds (false), or by the format (null).</param>
/// <param name="Order">For a new table: the order the times must keep; null for Ascending.</param>
internal sealed record ImportRequest(string Csv, string Output, string TimeColumn, TimeFormat? TimeFormat, IReadOnlyList<(string Name, string Type)> Columns, bool? TicksTime, TimeSeriesOrder? Order);

/// <summary>
/// Imports CSV rows into a <see cref="TimeSeriesTable"/>: CsvHelper finds the fields (BOM, quotes, any line ends),
/// each is parsed straight from its UTF-8 bytes into a batch per column, and each batch published as rows once every column holds it. A bad row stops the import with
/// its line and column named, and the rows this import added are removed, so a failed import leaves the table as
/// it was (a live reader may have seen them meanwhile: the Truncate contract), and a table it created is removed. A
/// finished import is flushed to the device before it reports success.
/// </summary>
internal static class CsvImporter
{
    private const int Batch = 1 << 16;

    /// <summary>Runs the import; returns the rows added. <paramref name="progress"/> gets the bytes read so far and the file's length.</summary>
    public static long Run(ImportRequest request, Action<long, long>? progress = null)
    {
        using var file = new FileStream(request.Csv, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan);
        using Stream input = IsGzip(file) ? new CheckedGzipStream(file) : file;
        var options = new CsvReaderOptions
        {
            Separator = ',',
            TrackLineNumbers = true,
            MalformedData = CsvMalformedDataHandling.Throw,
            TrimWhitespace = false,
        };
        using var reader = CsvReader.Create(input, options, leaveOpen: true);
        string[] header = Header(request, reader);
        int timeField = FieldOf(request, header, request.TimeColumn);
        ColumnSink[] sinks = request.Columns.Select(column => ColumnSink.For(column.Name, FieldOf(request, header, column.Name), column.Type, Batch)).ToArray();
        int fieldsNeeded = sinks.Select(sink => sink.Field).Append(timeField).Max() + 1;
        var times = new long[Batch];
        TimeSeriesTable? table = null;
        long startRows = 0;
        string[]? created = null;
        bool createdFolder = false;
        bool imported = false;
        long line = 1;
        try
        {
            TimeFormat? format = request.TimeFormat;
            long previous = long.MinValue;
            int pending = 0;
            long added = 0;
            while (reader.Read())
            {
                line = reader.LineNumber;
                if (reader.FieldCount < fieldsNeeded)
                {
                    throw Row(request, line, $"has {reader.FieldCount} field{(reader.FieldCount == 1 ? "" : "s")}; the columns imported need {fieldsNeeded}");
                }

                ReadOnlySpan<byte> text = reader.GetSpan(timeField);
                format ??= TimeFormat.Detect(text);
                if (table is null)
                {
                    createdFolder = !Directory.Exists(request.Output);
                    table = OpenTable(request, format, out startRows, out previous, out created);
                }

                times[pending] = Time(request, table, format, text, line, ref previous);
                foreach (ColumnSink sink in sinks)
                {
                    ReadOnlySpan<byte> value = reader.GetSpan(sink.Field);
                    if (!sink.TryParse(value, pending))
                    {
                        throw Row(request, line, $"column '{sink.Name}': '{Encoding.UTF8.GetString(value)}' is not a {request.Columns[Array.IndexOf(sinks, sink)].Type}");
                    }
                }

                if (++pending == Batch)
                {
                    Publish(table, sinks, times, pending);
                    added += pending;
                    pending = 0;
                    progress?.Invoke(file.Position, file.Length);
                }
            }

            if (pending > 0)
            {
                Publish(table!, sinks, times, pending);
                added += pending;
            }

            table?.Flush();
            progress?.Invoke(file.Length, file.Length);
            imported = true;
            return added;
        }
        catch (Exception exception) when (exception is InvalidDataException or EndOfStreamException)
        {
            Undo(table, startRows, created);
            throw new DataException($"'{request.Csv}' after line {line:N0}: the gzip data is damaged or cut short ({exception.Message}). Nothing was imported.", exception);
        }
        catch (CsvFormatException exception)
        {
            Undo(table, startRows, created);
            throw new DataException($"'{request.Csv}': {exception.Message} Nothing was imported.", exception);
        }
        catch
        {
            Undo(table, startRows, created);
            throw;
        }
        finally
        {
            table?.Dispose();
            if (!imported && createdFolder)
            {
                RemoveFolder(request.Output);
            }
        }
    }

    /// <summary>
    /// A folder this import created goes whole when the import fails, lock files included, once the table is
    /// closed: no other writer can have opened a table in it, because it never held a manifest that survived.
    /// </summary>
    private static void RemoveFolder(string folder)
    {
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            // Windows refuses to delete a file another process has open; the failure reported matters more.
        }
    }

    private static string[] Header(ImportRequest request, CsvReader reader)
    {
        try
        {
            string[] names = reader.Headers.Select(name => name.Trim()).ToArray();
            if (names.Length == 0)
            {
                throw new DataException($"'{request.Csv}' is empty: a CSV needs a header line naming its columns.");
            }

            // A table's column names are unique ignoring case, and a repeated name would leave which field is meant to chance.
            string? repeated = names.GroupBy(name => name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(group => group.Count() > 1)?.Key;
            return repeated is null
                ? names
                : throw new DataException($"'{request.Csv}': the header names the column '{repeated}' more than once (names are compared ignoring case). Nothing was imported.");
        }
        catch (CsvFormatException exception)
        {
            throw new DataException($"'{request.Csv}': the header line is not valid CSV: {exception.Message}", exception);
        }
    }

    private static void Publish(TimeSeriesTable table, ColumnSink[] sinks, long[] times, int count)
    {
        foreach (ColumnSink sink in sinks)
        {
            sink.AppendTo(table, count);
        }

        if (table.Schema.Time.DataType == DataType.DateTime)
        {
            table.AddRows(times.AsSpan(0, count));
            return;
        }

        // In place: seconds[i] overwrites bytes of times[i / 2], which the loop has already read. Each time was
        // checked to be a whole Unix second (or DateTime.MinValue, stored as int.MinValue) when it was parsed.
        Span<int> seconds = System.Runtime.InteropServices.MemoryMarshal.Cast<long, int>(times.AsSpan(0, count));
        for (int i = 0; i < count; i++)
        {
            ListMmfTimeSeriesDateTimeSeconds.TryGetUnixSeconds(new DateTime(times[i]), out seconds[i]);
        }

        table.AddRows(seconds[..count]);
    }

    /// <summary>The row's time as ticks, checked against the time column's resolution and the order.</summary>
    private static long Time(ImportRequest request, TimeSeriesTable table, TimeFormat format, ReadOnlySpan<byte> text, long line, ref long previous)
    {
        if (!format.TryParse(text, out long ticks, out string? problem))
        {
            throw Row(request, line, $"time '{Encoding.UTF8.GetString(text)}' {problem}");
        }

        if (table.Schema.Time.DataType == DataType.UnixSeconds)
        {
            if (ticks % TimeSpan.TicksPerSecond != 0)
            {
                throw Row(request, line, $"time '{Encoding.UTF8.GetString(text)}' has a fraction of a second, and the table's time column holds whole Unix seconds (import into a new table with --time-type ticks); it is not truncated");
            }

            if (!ListMmfTimeSeriesDateTimeSeconds.TryGetUnixSeconds(new DateTime(ticks), out _))
            {
                throw Row(request, line, $"time '{Encoding.UTF8.GetString(text)}' is outside the Unix seconds a seconds time column holds (1901-12-13 to 2038-01-19)");
            }
        }

        TimeSeriesOrder order = table.Schema.Order;
        if (order != TimeSeriesOrder.None && (ticks < previous || (order == TimeSeriesOrder.Ascending && ticks == previous)))
        {
            throw Row(
                request,
                line,
                ticks == previous
                    ? $"time '{Encoding.UTF8.GetString(text)}' equals the previous row's, and the table is Ascending (for a new table, --order ascending-or-equal allows equal times)"
                    : $"time '{Encoding.UTF8.GetString(text)}' ({new DateTime(ticks):yyyy-MM-dd HH:mm:ss.fffffff}) is before the previous row's ({new DateTime(previous):yyyy-MM-dd HH:mm:ss.fffffff}); the rows must be in time order");
        }

        previous = ticks;
        return ticks;
    }

    /// <summary>Opens the table in the output folder, or creates it from the request; the last time already in it is where the order continues.</summary>
    private static TimeSeriesTable OpenTable(ImportRequest request, TimeFormat format, out long rows, out long lastTicks, out string[]? created)
    {
        TimeSeriesTable table;
        created = null;
        string manifest = Path.Combine(request.Output, TimeSeriesTable.ManifestFileName);
        if (File.Exists(manifest))
        {
            table = TimeSeriesTable.Open(request.Output);
            CheckSchema(request, table);
        }
        else
        {
            bool ticks = request.TicksTime ?? format.HasSubSeconds;
            var schema = new TimeSeriesTableSchema(request.TimeColumn, ticks ? DataType.DateTime : DataType.UnixSeconds, request.Order ?? TimeSeriesOrder.Ascending);
            foreach ((string name, string type) in request.Columns)
            {
                schema.Add(name, ColumnSink.DataTypeOf(name, type));
            }

            string[] files = [.. schema.Columns.Prepend(schema.Time).Select(column => Path.Combine(request.Output, column.FileName)).Where(path => !File.Exists(path))];
            table = TimeSeriesTable.Create(request.Output, schema);
            created = [manifest, .. files];
        }

        rows = table.RowCount;
        lastTicks = rows > 0 ? table.TimeAt(rows - 1).Ticks : long.MinValue;
        return table;
    }

    private static void CheckSchema(ImportRequest request, TimeSeriesTable table)
    {
        TimeSeriesTableSchema schema = table.Schema;
        string problem =
            schema.Time.Name != request.TimeColumn ? $"its time column is '{schema.Time.Name}', not '{request.TimeColumn}'"
            : request.Order is { } order && order != schema.Order ? $"it is {schema.Order}, not {order}"
            : request.TicksTime is { } ticks && ticks != (schema.Time.DataType == DataType.DateTime) ? $"its time column holds {schema.Time.DataType}"
            : schema.Columns.Count != request.Columns.Count ? $"it has the columns {string.Join(", ", schema.Columns.Select(c => $"{c.Name}:{c.DataType}"))}; an import must fill every one"
            : schema.Columns.Zip(request.Columns).FirstOrDefault(pair => pair.First.Name != pair.Second.Name || pair.First.DataType != ColumnSink.DataTypeOf(pair.Second.Name, pair.Second.Type)) is ({ } column, var asked)
                ? $"its column '{column.Name}' holds {column.DataType}, and the import gives '{asked.Name}' as {asked.Type}"
                : "";
        if (problem.Length > 0)
        {
            table.Dispose();
            throw new DataException($"'{request.Output}' holds a table that this import does not match: {problem}.");
        }
    }

    /// <summary>
    /// Removes the rows this import added; a table it created goes too (its manifest and the column files it
    /// created, not files it adopted), removed while this import still holds the table's lock, so that no other
    /// writer can have opened it meanwhile. The lock files stay, as they always do.
    /// </summary>
    private static void Undo(TimeSeriesTable? table, long startRows, string[]? created)
    {
        if (table is null || !table.IsWritable)
        {
            return;
        }

        table.Truncate(Math.Min(startRows, table.RowCount));
        foreach (string path in created ?? [])
        {
            try
            {
                File.Delete(path);
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
            {
                // Windows refuses to delete a file another process has open; the empty file does no harm.
            }
        }
    }

    private static int FieldOf(ImportRequest request, string[] header, string name)
    {
        int field = Array.IndexOf(header, name);
        return field >= 0
            ? field
            : throw new DataException($"'{request.Csv}': the header has no column '{name}'; its columns are {string.Join(", ", header)}.");
    }

    private static bool IsGzip(FileStream file)
    {
        Span<byte> magic = stackalloc byte[2];
        int read = file.ReadAtLeast(magic, 2, throwOnEndOfStream: false);
        file.Position = 0;
        return read == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    }

    private static DataException Row(ImportRequest request, long line, string problem) =>
        new($"'{request.Csv}' line {line:N0}: {problem}. Nothing was imported.");
}
