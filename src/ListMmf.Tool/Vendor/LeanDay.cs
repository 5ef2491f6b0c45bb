using System;
using System.Buffers.Text;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using ListMmf.Tool.CatalogImport;

namespace ListMmf.Tool.Vendor;

/// <summary>
/// The rows of one <see cref="LeanFile"/>, parsed into the columns of its <see cref="LeanKind"/>: times as DateTime
/// ticks of the exchange's clock, prices divided by 10,000, and the exchange and condition as the vendor writes
/// them. Every row is checked (its fields, numbers, a time within the day and not before the row above it), and a
/// bad one refused with its file and line, before any row is used.
/// </summary>
internal sealed class LeanDay : ICatalogSourceRows
{
    private LeanDay(LeanFile file, int rows)
    {
        File = file;
        Times = new long[rows];
        Prices = Array.ConvertAll(file.Kind.Prices, _ => new double[rows]);
        Sizes = Array.ConvertAll(file.Kind.Sizes, _ => new int[rows]);
        Volumes = file.Kind.Volume is null ? [] : new long[rows];
        Exchanges = file.Kind.IsTicks ? new string[rows] : [];
        Conditions = file.Kind.IsTicks ? new string[rows] : [];
        Suspicious = file.Kind.IsTicks ? new byte[rows] : [];
    }

    public LeanFile File { get; }

    /// <summary>How many rows the file holds.</summary>
    public int Rows => Times.Length;

    /// <summary>Each row's time in DateTime ticks, of the exchange's clock until <see cref="TimesToUtc"/>.</summary>
    public long[] Times { get; }

    /// <summary>Each of the kind's price columns (<see cref="LeanKind.Prices"/>).</summary>
    public double[][] Prices { get; }

    /// <summary>Each of a tick kind's size columns (<see cref="LeanKind.Sizes"/>).</summary>
    public int[][] Sizes { get; }

    /// <summary>A bar's volume; empty for ticks.</summary>
    public long[] Volumes { get; }

    /// <summary>A tick's exchange as the vendor writes it (a letter); empty for bars.</summary>
    public string[] Exchanges { get; }

    /// <summary>A tick's condition as the vendor writes it (hexadecimal for trades, decimal for quotes); empty for bars.</summary>
    public string[] Conditions { get; }

    /// <summary>A tick's suspicious flag, 0 or 1; empty for bars.</summary>
    public byte[] Suspicious { get; }

    /// <summary>Reads and checks every row of <paramref name="file"/>.</summary>
    /// <exception cref="DataException">The file is damaged, or a row is not as Lean writes its kind (file and line named).</exception>
    public static LeanDay Read(LeanFile file)
    {
        byte[] csv = file.ReadCsv();
        var lines = new List<Range>();
        for (int start = 0; start < csv.Length;)
        {
            int end = csv.AsSpan(start).IndexOf((byte)'\n');
            int next = end < 0 ? csv.Length : start + end + 1;
            int stop = end < 0 ? csv.Length : start + end;
            if (stop > start && csv[stop - 1] == '\r')
            {
                stop--;
            }

            if (stop > start)
            {
                lines.Add(start..stop);
            }

            start = next;
        }

        var day = new LeanDay(file, lines.Count);
        var texts = new TextCache();
        Span<Range> fields = stackalloc Range[file.Kind.Fields + 1];
        long previous = 0;
        for (int row = 0; row < lines.Count; row++)
        {
            ReadOnlySpan<byte> line = csv.AsSpan(lines[row]);
            if (Split(line, fields) != file.Kind.Fields)
            {
                throw day.Refused(row, $"has {line.Count((byte)',') + 1} fields; Lean writes {file.Kind.Fields} for {file.Kind.FileTag}");
            }

            long milliseconds = day.Integer(row, line[fields[0]], "time", 0, (TimeSpan.TicksPerDay / TimeSpan.TicksPerMillisecond) - 1);
            if (milliseconds < previous)
            {
                throw day.Refused(row, $"its time {milliseconds:N0} ms is before the row above's ({previous:N0} ms); a Lean file is in time order");
            }

            previous = milliseconds;
            day.Times[row] = file.Day.Ticks + (milliseconds * TimeSpan.TicksPerMillisecond);
            day.ReadValues(row, line, fields, texts);
        }

        return day;
    }

    /// <summary>
    /// Turns <see cref="Times"/> from the clock of <paramref name="zone"/> (the exchange's) into UTC (<see cref="ZoneClock.ToUtc"/>).
    /// </summary>
    /// <exception cref="DataException">A row's time is one the clocks skip, or comes before the row above's in UTC.</exception>
    public void TimesToUtc(TimeZoneInfo zone)
    {
        if (ZoneClock.ToUtc(Times, zone) is (int row, string problem))
        {
            throw Refused(row, problem);
        }
    }

    /// <summary>
    /// Appends rows <paramref name="from"/> to <paramref name="from"/> + <paramref name="count"/> to
    /// <paramref name="table"/>: every value column, then the times, which publish them.
    /// </summary>
    public void AppendTo(TimeSeriesTable table, int from, int count)
    {
        LeanKind kind = File.Kind;
        for (int i = 0; i < kind.Prices.Length; i++)
        {
            table.Column<double>(kind.Prices[i]).AddRange(Prices[i].AsSpan(from, count));
            if (kind.IsTicks)
            {
                table.Column<int>(kind.Sizes[i]).AddRange(Sizes[i].AsSpan(from, count));
            }
        }

        if (kind.Volume is { } volume)
        {
            table.Column<long>(volume).AddRange(Volumes.AsSpan(from, count));
        }

        if (kind.IsTicks)
        {
            table.Text("exchange").AddRange(Exchanges.AsSpan(from, count));
            table.Text("condition").AddRange(Conditions.AsSpan(from, count));
            table.Column<byte>("suspicious").AddRange(Suspicious.AsSpan(from, count));
        }

        table.AddRows(Times.AsSpan(from, count));
    }

    /// <summary>Nothing to let go of: the rows are arrays.</summary>
    public void Dispose()
    {
    }

    private void ReadValues(int row, ReadOnlySpan<byte> line, Span<Range> fields, TextCache texts)
    {
        LeanKind kind = File.Kind;
        int field = 1;
        for (int i = 0; i < kind.Prices.Length; i++)
        {
            Prices[i][row] = Integer(row, line[fields[field++]], kind.Prices[i], long.MinValue, long.MaxValue) / 10_000.0;
            if (kind.IsTicks)
            {
                Sizes[i][row] = (int)Integer(row, line[fields[field++]], kind.Sizes[i], 0, int.MaxValue);
            }
        }

        if (kind.Volume is { } volume)
        {
            Volumes[row] = Integer(row, line[fields[field]], volume, 0, long.MaxValue);
            return;
        }

        Exchanges[row] = texts.Of(line[fields[field++]]) ?? throw Refused(row, "its exchange is not ASCII text");
        Conditions[row] = texts.Of(line[fields[field++]]) ?? throw Refused(row, "its condition is not ASCII text");
        Suspicious[row] = (byte)Integer(row, line[fields[field]], "suspicious", 0, 1);
    }

    /// <summary>The fields of <paramref name="line"/> into <paramref name="fields"/>; how many it has, up to one past their length.</summary>
    private static int Split(ReadOnlySpan<byte> line, Span<Range> fields)
    {
        int count = 0;
        int start = 0;
        while (count < fields.Length)
        {
            int comma = line[start..].IndexOf((byte)',');
            if (comma < 0)
            {
                fields[count++] = start..line.Length;
                return count;
            }

            fields[count++] = start..(start + comma);
            start += comma + 1;
        }

        return count;
    }

    private long Integer(int row, ReadOnlySpan<byte> text, string what, long minimum, long maximum) =>
        Utf8Parser.TryParse(text, out long value, out int used) && used == text.Length && value >= minimum && value <= maximum
            ? value
            : throw Refused(row, $"its {what} '{Encoding.UTF8.GetString(text[..Math.Min(text.Length, 32)])}' is not a whole number " +
                $"from {minimum:N0} to {maximum:N0}");

    private DataException Refused(int row, string problem) =>
        new($"'{File.Path}' line {row + 1:N0}: {problem}. Nothing of the file was imported.");

    /// <summary>
    /// One string for each distinct short text (an exchange letter, a condition code), found by its bytes packed into
    /// a number (up to 8 characters), so that a million rows of a few codes allocate a few strings.
    /// </summary>
    private sealed class TextCache
    {
        private readonly Dictionary<ulong, string> _strings = [];

        /// <summary>The text of <paramref name="field"/>, or null when it is not printable ASCII.</summary>
        public string? Of(ReadOnlySpan<byte> field)
        {
            if (field.ContainsAnyExceptInRange((byte)' ', (byte)'~'))
            {
                return null;
            }

            if (field.Length > 8)
            {
                return Encoding.ASCII.GetString(field);
            }

            // Seven bits a character: eight characters and the length fit in 60 bits.
            ulong key = (ulong)field.Length;
            foreach (byte b in field)
            {
                key = (key << 7) | b;
            }

            if (!_strings.TryGetValue(key, out string? text))
            {
                text = Encoding.ASCII.GetString(field);
                _strings.Add(key, text);
            }

            return text;
        }
    }
}
