using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using ListMmf.Tool.Files;

namespace ListMmf.Tool.Csv;

/// <summary>
/// Writes a table or a file as CSV: a header of the column names, then a line per row, <c>\n</c>-terminated, UTF-8
/// without a BOM. Numbers are written invariant, in their shortest round-trip form (so 4500.50 becomes 4500.5);
/// times in the format asked for, which must hold them exactly (ISO times of a table recorded as UTC end in Z).
/// </summary>
internal static class CsvExporter
{
    private const int FieldRoom = 64;
    private static readonly long EpochTicks = DateTime.UnixEpoch.Ticks;

    /// <summary>
    /// Exports the rows with times in [<paramref name="from"/>, <paramref name="to"/>) (all rows when both are
    /// null); returns how many.
    /// </summary>
    public static long Run(Source source, Stream output, DateTime? from, DateTime? to, TimeFormat timeFormat)
    {
        long first = from is { } start ? source.LowerBound(start) : 0;
        long last = to is { } end ? Math.Max(first, source.LowerBound(end)) : source.Count;
        var buffer = new byte[1 << 20];
        int used = 0;
        string header = string.Join(",", source.Columns.Select(column => Quote(column.Name)));
        used += Encoding.UTF8.GetBytes(header + "\n", buffer);
        for (long row = first; row < last; row++)
        {
            for (int i = 0; i < source.Columns.Count; i++)
            {
                // Room for the longest field (a double, a time, a 20-digit integer) and its separator.
                if (buffer.Length - used < FieldRoom)
                {
                    output.Write(buffer, 0, used);
                    used = 0;
                }

                ColumnView column = source.Columns[i];
                if (column is TextColumnView text)
                {
                    used = WriteText(output, buffer, used, text.ValueAt(row));
                    buffer[used++] = i + 1 < source.Columns.Count ? (byte)',' : (byte)'\n';
                    continue;
                }

                Span<byte> destination = buffer.AsSpan(used, FieldRoom - 1);
                int written = column.IsTime
                    ? WriteTime(column, row, timeFormat, source.TimesAreUtc, destination)
                    : column.TryWriteUtf8(row, destination, out int length)
                        ? length
                        : throw new InvalidOperationException($"row {row:N0}, column '{column.Name}': a value longer than {FieldRoom - 1} bytes.");
                used += written;
                buffer[used++] = i + 1 < source.Columns.Count ? (byte)',' : (byte)'\n';
            }
        }

        output.Write(buffer, 0, used);
        output.Flush();
        return last - first;
    }

    /// <summary>
    /// A text value, quoted where it holds a comma, a quote, a line break or space at either end (RFC 4180), and
    /// when empty, so that readers that take an empty field as missing (DuckDB, pandas) read an empty value; written
    /// around the buffer when it is longer than the buffer's room.
    /// Returns the buffer's use afterwards, with room left for a separator.
    /// </summary>
    private static int WriteText(Stream output, byte[] buffer, int used, string value)
    {
        bool quoted = value.Length == 0 || value.AsSpan().IndexOfAny(",\"\r\n") >= 0
            || char.IsWhiteSpace(value[0]) || char.IsWhiteSpace(value[^1]);
        string field = quoted ? $"\"{value.Replace("\"", "\"\"", StringComparison.Ordinal)}\"" : value;
        int length = Encoding.UTF8.GetByteCount(field);
        if (buffer.Length - used < length + FieldRoom)
        {
            output.Write(buffer, 0, used);
            used = 0;
        }

        if (buffer.Length < length + FieldRoom)
        {
            output.Write(Encoding.UTF8.GetBytes(field));
            return 0;
        }

        return used + Encoding.UTF8.GetBytes(field, buffer.AsSpan(used));
    }

    /// <summary>A time as asked; an ISO time of a table recorded as UTC ends in Z, so that its zone travels with it.</summary>
    private static int WriteTime(ColumnView column, long row, TimeFormat format, bool utc, Span<byte> destination)
    {
        long ticks = column.TimeAt(row).Ticks;
        if (format == TimeFormat.Iso)
        {
            string pattern = (column.DataType == DataType.UnixSeconds, utc) switch
            {
                (true, false) => "yyyy-MM-ddTHH:mm:ss",
                (true, true) => "yyyy-MM-ddTHH:mm:ss'Z'",
                (false, false) => "yyyy-MM-ddTHH:mm:ss.fffffff",
                (false, true) => "yyyy-MM-ddTHH:mm:ss.fffffff'Z'",
            };
            return new DateTime(ticks).TryFormat(destination, out int written, pattern, CultureInfo.InvariantCulture)
                ? written
                : throw new InvalidOperationException("A time longer than its field.");
        }

        long sinceEpoch = ticks - EpochTicks;
        (long value, long remainder) = format == TimeFormat.Unix ? Math.DivRem(sinceEpoch, TimeSpan.TicksPerSecond)
            : format == TimeFormat.UnixMilliseconds ? Math.DivRem(sinceEpoch, TimeSpan.TicksPerMillisecond)
            : format == TimeFormat.UnixNanoseconds ? (
                Math.Abs(sinceEpoch) <= long.MaxValue / 100 ? sinceEpoch * 100 : throw OutsideNanoseconds(row, ticks),
                0)
            : throw new UsageException($"--time-format takes iso, unix, unixms or unixns, not '{format.Name}'.");
        if (remainder != 0)
        {
            throw new DataException($"row {row:N0}: the time {TimeText.Ticks(ticks)} has a " +
                $"part finer than {format.Name} can hold; export with --time-format unixns or iso. Nothing is rounded.");
        }

        return value.TryFormat(destination, out int length, default, CultureInfo.InvariantCulture)
            ? length
            : throw new InvalidOperationException("A number longer than its field.");
    }

    private static DataException OutsideNanoseconds(long row, long ticks) =>
        new($"row {row:N0}: the time {TimeText.Ticks(ticks)} is outside what Int64 Unix " +
            $"nanoseconds hold (1677-09-21 to 2262-04-11); export with --time-format iso or unixms.");

    private static string Quote(string name) =>
        name.AsSpan().IndexOfAny(",\"") >= 0 ? $"\"{name.Replace("\"", "\"\"", StringComparison.Ordinal)}\"" : name;
}
