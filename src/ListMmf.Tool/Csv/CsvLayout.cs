using System;
using System.Linq;
using System.Text;
using ListMmf.Tool.Import;

namespace ListMmf.Tool.Csv;

/// <summary>
/// The fields an import reads from each CSV row, where they go, and the words of every refusal, shared by the
/// sequential and the parallel reader so that both refuse a row with the same message.
/// </summary>
internal sealed class CsvLayout
{
    public CsvLayout(ImportRequest request, string[] header)
    {
        Request = request;
        TimeField = FieldOf(request, header, request.TimeColumn);
        Fields = request.Columns.Select(column => FieldOf(request, header, column.Name)).ToArray();
        Columns = request.Columns.Select(column => ColumnSink.ColumnOf(column.Name, column.Type)).ToArray();
        FieldsNeeded = Fields.Append(TimeField).Max() + 1;
        HeaderFields = header.Length;
        Target = new ImportTarget(
            request.Csv,
            request.Output,
            request.TimeColumn,
            Columns,
            request.TicksTime,
            request.Order,
            request.Staging);
    }

    public ImportRequest Request { get; }

    /// <summary>The time's field index.</summary>
    public int TimeField { get; }

    /// <summary>Each value column's field index, in the order of <see cref="ImportRequest.Columns"/>.</summary>
    public int[] Fields { get; }

    /// <summary>Each value column, as the request gives it.</summary>
    public ImportColumn[] Columns { get; }

    /// <summary>How many fields a row needs: one past the last field imported.</summary>
    public int FieldsNeeded { get; }

    /// <summary>
    /// How many fields every row has: the header's count. A row with more or fewer cannot be placed exactly (which of
    /// its fields is the extra one?), so it is refused rather than read by position.
    /// </summary>
    public int HeaderFields { get; }

    public ImportTarget Target { get; }

    /// <summary>A sink for each value column, with room for <paramref name="batch"/> rows.</summary>
    public ColumnSink[] NewSinks(int batch) =>
        Columns.Select((column, i) => ColumnSink.For(column, Fields[i], batch)).ToArray();

    public string FieldCountProblem(int fieldCount) =>
        $"has {fieldCount} field{(fieldCount == 1 ? "" : "s")}; the header has {HeaderFields}";

    public static string TimeProblem(ReadOnlySpan<byte> text, string problem) => $"time '{Excerpt(text)}' {problem}";

    /// <summary>
    /// The most a line may hold, on either reader: far above any row of market data, so that a line of hundreds of
    /// megabytes (a file that is no CSV of rows, or a planted one) is refused before it is read into memory whole.
    /// </summary>
    public const int MaximumLineBytes = 64 << 20;

    /// <summary>The refusal of a line longer than <see cref="MaximumLineBytes"/>, found at byte <paramref name="at"/>.</summary>
    public DataException LineTooLong(long at) =>
        new($"'{Request.Csv}': the line at byte {at:N0} is longer than {MaximumLineBytes >> 20} MiB, which no row " +
            $"of a table is; nothing was imported.");

    /// <summary>The most of a field a message quotes: a field of hundreds of megabytes is not printed whole.</summary>
    private const int QuotedBytes = 64;

    /// <summary>The field's text for a message: whole up to <see cref="QuotedBytes"/>, its start and its length beyond.</summary>
    public static string Excerpt(ReadOnlySpan<byte> field) => field.Length <= QuotedBytes
        ? Encoding.UTF8.GetString(field)
        : $"{Encoding.UTF8.GetString(field[..QuotedBytes])}... ({field.Length:N0} bytes)";

    /// <summary>Why a field did not parse: a whole number beyond the column type's range is out of range, anything else not a number of it.</summary>
    public string ValueProblem(int column, ReadOnlySpan<byte> value)
    {
        (string name, string type) = Request.Columns[column];
        string text = Excerpt(value);
        if (Columns[column].IsText)
        {
            return $"column '{name}': its bytes are not UTF-8 text";
        }

        string article = type[0] is 'a' or 'e' or 'i' or 'o' or 'u' ? "an" : "a";
        return long.TryParse(text, System.Globalization.NumberStyles.AllowLeadingSign, System.Globalization.CultureInfo.InvariantCulture, out _)
            || ulong.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out _)
            ? $"column '{name}': '{text}' is out of the range of {article} {type} ({ColumnSink.RangeOf(Columns[column].Type)})"
            : $"column '{name}': '{text}' is not {article} {type}";
    }

    /// <summary>The refusal of the row at <paramref name="line"/>: the import stops, and nothing of it stays.</summary>
    public DataException Row(long line, string problem) => new($"'{Request.Csv}' line {line:N0}: {problem}. Nothing was imported.");

    private static int FieldOf(ImportRequest request, string[] header, string name)
    {
        int field = Array.IndexOf(header, name);
        return field >= 0
            ? field
            : throw new DataException($"'{request.Csv}': the header has no column '{name}'; its columns are {string.Join(", ", header)}.");
    }
}
