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
/// <param name="Staging">Whether the table is a step another import reads and removes (a catalog import's staging table).</param>
internal sealed record ImportRequest(
    string Csv,
    string Output,
    string TimeColumn,
    TimeFormat? TimeFormat,
    IReadOnlyList<(string Name, string Type)> Columns,
    bool? TicksTime,
    TimeSeriesOrder? Order,
    bool Staging = false);

/// <summary>
/// Imports CSV rows into a <see cref="TimeSeriesTable"/> through a <see cref="TableImport"/>. A plain file is parsed on
/// every core (<see cref="ParallelCsvImport"/>); a gzip file, and a file from its first quote or lone '\r' on, by
/// CsvHelper on one thread, which finds the fields by the full rules (BOM, quotes, any line ends). Each field is parsed
/// straight from its UTF-8 bytes into a batch per column. A bad row stops the import with its line and column named,
/// the first in file order whichever reader met it, and the import is taken back.
/// </summary>
internal static class CsvImporter
{
    private const int Batch = 1 << 16;

    /// <summary>Runs the import; returns the rows added. <paramref name="progress"/> gets the bytes read so far and the file's length.</summary>
    /// <param name="request">What to import.</param>
    /// <param name="progress">Told the bytes read so far and the file's length.</param>
    /// <param name="chunkBytes">The size of the parts a plain file is cut into for the cores (small in tests, to make many).</param>
    public static long Run(ImportRequest request, Action<long, long>? progress = null, int chunkBytes = ParallelCsvImport.DefaultChunkBytes)
    {
        using var file = new FileStream(request.Csv, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan);
        bool gzip = IsGzip(file);
        using Stream input = gzip ? new CheckedGzipStream(file) : file;
        using var reader = CsvReader.Create(input, Options(hasHeader: true), leaveOpen: true);
        var layout = new CsvLayout(request, Header(request, reader));
        TableImport? import = null;
        long line = 1;
        try
        {
            using ParallelCsvImport? parallel = gzip ? null : ParallelCsvImport.TryPlan(file.SafeFileHandle, layout, request.TimeFormat, chunkBytes);
            if (parallel is null)
            {
                ReadRows(layout, reader, 0, request.TimeFormat, ref import, ref line, () => progress?.Invoke(file.Position, file.Length));
            }
            else
            {
                import = TableImport.Open(layout.Target, ticksIfNew: parallel.Format.HasSubSeconds, utc: parallel.Format.Utc);
                if (parallel.Run(import, progress is null ? null : done => progress(done, file.Length)) is (long offset, long lines))
                {
                    using var rest = new FileStream(request.Csv, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1);
                    rest.Position = offset;
                    using var restReader = CsvReader.Create(rest, Options(hasHeader: false), leaveOpen: true);
                    Action reported = () => progress?.Invoke(offset + rest.Position, file.Length);
                    ReadRows(layout, restReader, lines, parallel.Format, ref import, ref line, reported);
                }
            }

            if (import is null)
            {
                return 0;
            }

            import.Complete();
            progress?.Invoke(file.Length, file.Length);
            return import.Added;
        }
        catch (Exception exception) when (exception is InvalidDataException or EndOfStreamException)
        {
            throw new DataException($"'{request.Csv}' after line {line:N0}: the gzip data is damaged or cut short " +
                $"({exception.Message}). Nothing was imported.", exception);
        }
        catch (CsvFormatException exception) when (IsRecordTooLarge(exception))
        {
            throw layout.LineTooLong(exception.ByteOffset);
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

    private static CsvReaderOptions Options(bool hasHeader) => new()
    {
        Separator = ',',
        HasHeader = hasHeader,
        TrackLineNumbers = true,
        MalformedData = CsvMalformedDataHandling.Throw,
        TrimWhitespace = false,
        MaxRecordSize = CsvLayout.MaximumLineBytes,
    };

    /// <summary>
    /// The reader's refusal of a record past <see cref="CsvReaderOptions.MaxRecordSize"/>, told apart by its words:
    /// CsvHelper gives it no type or code of its own (a test pins the words).
    /// </summary>
    private static bool IsRecordTooLarge(CsvFormatException exception) =>
        exception.Message.Contains(nameof(CsvReaderOptions.MaxRecordSize), StringComparison.Ordinal);

    /// <summary>
    /// Reads the rows <paramref name="reader"/> gives, lines numbered after <paramref name="linesBefore"/>, into the
    /// import (opened at the first row), publishing a batch at a time; the last batch is published too.
    /// </summary>
    private static void ReadRows(
        CsvLayout layout,
        CsvReader reader,
        long linesBefore,
        TimeFormat? format,
        ref TableImport? import,
        ref long line,
        Action progress)
    {
        ColumnSink[] sinks = layout.NewSinks(Batch);
        var times = new long[Batch];
        int pending = 0;
        while (reader.Read())
        {
            line = linesBefore + reader.LineNumber;
            if (reader.FieldCount != layout.HeaderFields)
            {
                throw layout.Row(line, layout.FieldCountProblem(reader.FieldCount));
            }

            ReadOnlySpan<byte> text = reader.GetSpan(layout.TimeField);
            if (import is null || format is null)
            {
                // The first row settles the format for the whole file, the zone included: later rows must match it.
                format = TimeFormat.For(format, text);
                import ??= TableImport.Open(layout.Target, ticksIfNew: format.HasSubSeconds, utc: format.Utc);
            }

            times[pending] = Time(layout, import, format, text, line);
            for (int c = 0; c < sinks.Length; c++)
            {
                ReadOnlySpan<byte> value = reader.GetSpan(sinks[c].Field);
                if (!sinks[c].TryParse(value, pending))
                {
                    throw layout.Row(line, layout.ValueProblem(c, value));
                }
            }

            if (++pending == Batch)
            {
                import.Stage(sinks, times, pending);
                pending = 0;
                progress();
            }
        }

        import?.Stage(sinks, times, pending);
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
    private static long Time(CsvLayout layout, TableImport import, TimeFormat format, ReadOnlySpan<byte> text, long line)
    {
        if (!format.TryParse(text, out long ticks, out string? problem))
        {
            throw layout.Row(line, CsvLayout.TimeProblem(text, problem!));
        }

        return import.TimeProblem(ticks) is { } wrong
            ? throw layout.Row(line, CsvLayout.TimeProblem(text, wrong))
            : ticks;
    }

    private static bool IsGzip(FileStream file)
    {
        Span<byte> magic = stackalloc byte[2];
        int read = file.ReadAtLeast(magic, 2, throwOnEndOfStream: false);
        file.Position = 0;
        return read == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    }
}
