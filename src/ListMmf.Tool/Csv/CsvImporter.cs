using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using CsvHelper;
using ListMmf.Tool.Import;

namespace ListMmf.Tool.Csv;

/// <summary>What an import is asked to do: see <c>listmmf import csv --help</c>.</summary>
/// <param name="Csv">The CSV file; gzip when it starts with the gzip magic bytes.</param>
/// <param name="Output">The table's folder: created, or appended to when it holds a table.</param>
/// <param name="TimeColumn">The CSV column of the times.</param>
/// <param name="TimeFormat">How the times are written; null to decide by the first row.</param>
/// <param name="Columns">The value columns: CSV column name and type.</param>
/// <param name="TicksTime">For a new table: a ticks time column (true), seconds (false), or by the format (null).</param>
/// <param name="Order">For a new table: the order the times must keep; null for Ascending.</param>
internal sealed record ImportRequest(
    string Csv,
    string Output,
    string TimeColumn,
    TimeFormat? TimeFormat,
    IReadOnlyList<(string Name, string Type)> Columns,
    bool? TicksTime,
    TimeSeriesOrder? Order);

/// <summary>
/// Imports CSV rows into a <see cref="TimeSeriesTable"/> through a <see cref="TableImport"/>: CsvHelper finds the
/// fields (BOM, quotes, any line ends), each is parsed straight from its UTF-8 bytes into a batch per column. A bad
/// row stops the import with its line and column named, and the import is taken back.
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
        ColumnSink[] sinks = request.Columns.Select(column => ColumnSink.For(
            column.Name,
            FieldOf(request, header, column.Name),
            ColumnSink.DataTypeOf(column.Name, column.Type),
            Batch)).ToArray();
        int fieldsNeeded = sinks.Select(sink => sink.Field).Append(timeField).Max() + 1;
        var target = new ImportTarget(
            request.Csv,
            request.Output,
            request.TimeColumn,
            request.Columns.Select(c => (c.Name, ColumnSink.DataTypeOf(c.Name, c.Type))).ToList(),
            request.TicksTime,
            request.Order);
        var times = new long[Batch];
        TableImport? import = null;
        long line = 1;
        try
        {
            TimeFormat? format = request.TimeFormat;
            int pending = 0;
            while (reader.Read())
            {
                line = reader.LineNumber;
                if (reader.FieldCount < fieldsNeeded)
                {
                    throw Row(request, line, $"has {reader.FieldCount} field{(reader.FieldCount == 1 ? "" : "s")}; " +
                        $"the columns imported need {fieldsNeeded}");
                }

                ReadOnlySpan<byte> text = reader.GetSpan(timeField);
                format ??= TimeFormat.Detect(text);
                import ??= TableImport.Open(target, ticksIfNew: format.HasSubSeconds);
                times[pending] = Time(request, import, format, text, line);
                foreach (ColumnSink sink in sinks)
                {
                    ReadOnlySpan<byte> value = reader.GetSpan(sink.Field);
                    if (!sink.TryParse(value, pending))
                    {
                        throw Row(request, line, $"column '{sink.Name}': '{Encoding.UTF8.GetString(value)}' is not a " +
                            $"{request.Columns[Array.IndexOf(sinks, sink)].Type}");
                    }
                }

                if (++pending == Batch)
                {
                    import.Publish(sinks, times, pending);
                    pending = 0;
                    progress?.Invoke(file.Position, file.Length);
                }
            }

            if (import is null)
            {
                return 0;
            }

            import.Publish(sinks, times, pending);
            import.Complete();
            progress?.Invoke(file.Length, file.Length);
            return import.Added;
        }
        catch (Exception exception) when (exception is InvalidDataException or EndOfStreamException)
        {
            throw new DataException($"'{request.Csv}' after line {line:N0}: the gzip data is damaged or cut short " +
                $"({exception.Message}). Nothing was imported.", exception);
        }
        catch (CsvFormatException exception)
        {
            throw new DataException($"'{request.Csv}': {exception.Message} Nothing was imported.", exception);
        }
        finally
        {
            import?.Dispose();
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
                : throw new DataException($"'{request.Csv}': the header names the column '{repeated}' more than once " +
                    $"(names are compared ignoring case). Nothing was imported.");
        }
        catch (CsvFormatException exception)
        {
            throw new DataException($"'{request.Csv}': the header line is not valid CSV: {exception.Message}", exception);
        }
    }

    /// <summary>The row's time as ticks, checked against the time column's resolution and the order.</summary>
    private static long Time(ImportRequest request, TableImport import, TimeFormat format, ReadOnlySpan<byte> text, long line)
    {
        if (!format.TryParse(text, out long ticks, out string? problem))
        {
            throw Row(request, line, $"time '{Encoding.UTF8.GetString(text)}' {problem}");
        }

        return import.TimeProblem(ticks) is { } wrong
            ? throw Row(request, line, $"time '{Encoding.UTF8.GetString(text)}' {wrong}")
            : ticks;
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
