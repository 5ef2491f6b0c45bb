using System;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>
/// A text column of a <see cref="TimeSeriesTable"/> (<see cref="TimeSeriesTableSchema.AddText"/>), for values that
/// repeat: symbols, exchanges, sale conditions. Each row stores a code, an unsigned integer, in the column's file
/// (<see cref="Codes"/>), and the code is the position of the row's value in a second file that holds each distinct
/// value once, in the order values first appeared. Reads are bounded by the table's published rows, as every
/// column's are; a reader learns the values the writer adds as it meets their codes.
/// </summary>
/// <remarks>
/// The writer makes each new value durable (one flush of the values' file) before a row can hold its code, so a
/// column that takes many new values costs a flush for each call that brings some: it is meant for repeating
/// values, and <see cref="AddRange"/> brings a batch's new values in one flush. Sealing the table seals the codes
/// (compressed like any integer column); the values' file stays as it is. Codes can be filtered and grouped
/// without reading a string: find a value's code with <see cref="CodeOf"/> and compare codes read with
/// <see cref="CopyCodes"/>.
/// </remarks>
public sealed class TextColumn : TableColumn
{
    private readonly TextCodes _codes;
    private readonly TextEntries _entries;

    private TextColumn(TimeSeriesTable table, TableColumnInfo info, TextCodes codes, TextEntries entries)
        : base(table, info, codes.Column.Path, isTime: false)
    {
        _codes = codes;
        _entries = entries;
    }

    /// <inheritdoc/>
    public override bool IsSealed => _codes.Column.IsSealed;

    /// <inheritdoc/>
    internal override bool IsOpen => _codes.Column.IsOpen;

    /// <inheritdoc/>
    internal override void OpenFile() => _codes.Column.OpenFile();

    /// <summary>
    /// The column of codes, a <see cref="TableColumn{T}"/> of <see cref="byte"/>, <see cref="ushort"/> or
    /// <see cref="uint"/> as the schema chose (<see cref="TableColumn.DataType"/>), read-only through this property.
    /// </summary>
    public TableColumn Codes => _codes.Column;

    /// <summary>The full path of the file of the column's distinct values.</summary>
    public string EntriesPath => _entries.Path;

    /// <summary>
    /// How many distinct values the column holds so far, with those the writer has added since the last look: those
    /// of published rows, and any whose rows are not published (yet, or ever: a refused or interrupted add).
    /// </summary>
    public int EntryCount => _entries.Count;

    /// <summary>The value of <paramref name="row"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="row"/> is negative or not below the table's
    /// <see cref="TimeSeriesTable.RowCount"/>.</exception>
    /// <exception cref="ListMmfFormatException">The row's code is none of the column's values (a damaged file).</exception>
    public string this[long row]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            CheckRow(row);
            return _entries.ValueOf(_codes[row], row);
        }
    }

    /// <summary>The code of <paramref name="row"/>: the position of its value among <see cref="EntryAt"/>'s.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="row"/> is not a published row.</exception>
    public int CodeAt(long row)
    {
        CheckRow(row);

        return (int)_codes[row];
    }

    /// <summary>The value whose code is <paramref name="code"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="code"/> is negative or not below <see cref="EntryCount"/>.</exception>
    public string EntryAt(int code)
    {
        int count = EntryCount;
        if ((uint)code >= (uint)count)
        {
            ThrowHelper.IndexOutOfRange(code, count);
        }

        return _entries.ValueOf((uint)code, row: -1);
    }

    /// <summary>
    /// The code of <paramref name="value"/> (compared ordinally), or -1 when the column does not hold it. A value
    /// may have a code and no published row yet: rows are published after their values.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="value"/> is null.</exception>
    public int CodeOf(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return _entries.Find(value);
    }

    /// <summary>The codes of <paramref name="range"/> into <paramref name="destination"/>, each checked to be one of the column's values.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows, or holds more than
    /// <see cref="int.MaxValue"/> rows.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    /// <exception cref="ListMmfFormatException">A row's code is none of the column's values (a damaged file).</exception>
    public void CopyCodes(IndexRange range, Span<int> destination)
    {
        int length = CheckPublished(range, destination.Length);
        Span<uint> codes = MemoryMarshal.Cast<int, uint>(destination[..length]);
        _codes.CopyTo(range, codes);
        if (!codes.IsEmpty)
        {
            int top = codes.IndexOf(MaxOf(codes));
            _entries.CheckCode(codes[top], range.Start + top);
        }
    }

    /// <summary>The values of <paramref name="range"/> into <paramref name="destination"/>; each distinct value is one string, shared.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows, or holds more than
    /// <see cref="int.MaxValue"/> rows.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    /// <exception cref="ListMmfFormatException">A row's code is none of the column's values (a damaged file).</exception>
    public void CopyTo(IndexRange range, Span<string> destination)
    {
        int length = CheckPublished(range, destination.Length);
        Span<uint> codes = stackalloc uint[1024];
        for (int done = 0; done < length; done += codes.Length)
        {
            int size = Math.Min(codes.Length, length - done);
            long start = range.Start + done;
            _codes.CopyTo(new IndexRange(start, start + size), codes[..size]);
            for (int i = 0; i < size; i++)
            {
                destination[done + i] = _entries.ValueOf(codes[i], start + i);
            }
        }
    }

    /// <summary>
    /// Stores <paramref name="value"/> as this column's value of the row being added; the row becomes visible when
    /// <see cref="TimeSeriesTable.AddRow(DateTime)"/> publishes it. A value the column has not held before is made
    /// durable first (a flush of the values' file).
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="value"/> is null; nothing was stored.</exception>
    /// <exception cref="ArgumentException"><paramref name="value"/> holds a lone surrogate, which UTF-8 cannot hold; nothing was stored.</exception>
    /// <exception cref="NotSupportedException">The table was opened read-only.</exception>
    /// <exception cref="ListMmfException">The value is new and the column holds as many values as its codes tell
    /// apart, or the flush failed; nothing was stored.</exception>
    public void Add(string value) => AddRange(new ReadOnlySpan<string>(in value));

    /// <summary>
    /// Stores <paramref name="values"/> as this column's values of the rows being added, with one flush for all the
    /// values among them the column has not held before; they become visible when
    /// <see cref="TimeSeriesTable.AddRows(ReadOnlySpan{DateTime})"/> (or an overload) publishes the rows.
    /// </summary>
    /// <remarks>
    /// A refused call stores no row's value, but new values it had already added to the values' file stay there,
    /// unused, as the codes of those values when they come again (<see cref="EntryCount"/> counts them).
    /// </remarks>
    /// <exception cref="ArgumentNullException">A value is null; nothing was stored.</exception>
    /// <exception cref="ArgumentException">A value holds a lone surrogate, which UTF-8 cannot hold; nothing was stored.</exception>
    /// <exception cref="NotSupportedException">The table was opened read-only.</exception>
    /// <exception cref="ListMmfException">The column would hold more values than its codes tell apart, or the flush
    /// failed; nothing was stored.</exception>
    public void AddRange(ReadOnlySpan<string> values)
    {
        if (!Table.IsWritable)
        {
            ThrowHelper.ReadOnly(Path);
        }

        long stored = StoredCount;
        Span<uint> codes = stackalloc uint[Math.Min(256, values.Length)];
        try
        {
            while (!values.IsEmpty)
            {
                int size = Math.Min(codes.Length, values.Length);
                _entries.CodesOf(values[..size], codes[..size]);
                _codes.AddRange(codes[..size]);
                values = values[size..];
            }

            // Before the caller can publish a row holding one of them: every new value durable, in one flush.
            _entries.MakeDurable();
        }
        catch
        {
            TrimTo(stored);
            throw;
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"TextColumn('{Name}', '{Path}')";

    internal override long StoredCount => _codes.Column.StoredCount;

    internal override void TrimTo(long rows) => _codes.Column.TrimTo(rows);

    // The values' file needs no flush of its own: each new value was made durable when it was added.
    internal override void Flush() => _codes.Column.Flush();

    internal override void StartFlush() => _codes.Column.StartFlush();

    internal override void FlushTogether() => _codes.Column.FlushTogether();

    internal override long FlushItems() => _codes.Column.FlushItems();

    internal override void FlushCount(long count) => _codes.Column.FlushCount(count);

    internal override void TrimExcess()
    {
        _codes.Column.TrimExcess();
        _entries.TrimExcess();
    }

    internal override bool TrimsInPlace => _codes.Column.TrimsInPlace && _entries.TrimsInPlace;

    /// <summary>Checks both files, every distinct value, and that every published row's code is one of them.</summary>
    internal override void Verify()
    {
        _codes.Column.Verify();
        long rows = Table.RowCount;
        uint max = 0;
        long maxRow = -1;
        Span<uint> codes = stackalloc uint[1024];
        for (long start = 0; start < rows; start += codes.Length)
        {
            int size = (int)Math.Min(codes.Length, rows - start);
            _codes.CopyTo(new IndexRange(start, start + size), codes[..size]);
            uint top = MaxOf(codes[..size]);
            if (top > max || maxRow < 0)
            {
                (max, maxRow) = (top, start + codes[..size].IndexOf(top));
            }
        }

        _entries.Verify(max, maxRow);
    }

    internal override void Dispose()
    {
        _codes.Column.Dispose();
        _entries.Dispose();
    }

    /// <summary>Opens the text column <paramref name="info"/>: its codes in the form their file is in, and its values' file.</summary>
    /// <exception cref="ListMmfFormatException">The values' file is missing, holds another type than bytes, or is damaged.</exception>
    internal static TextColumn Open(
        TimeSeriesTable table, TableColumnInfo info, string codesPath, string entriesPath, FileAccess access, ListMmfOptions options)
    {
        TableColumn numbers = OpenNumbers(table, info, codesPath, access, options);
        numbers.MakeCodesOf(info);
        TextCodes codes = TextCodes.Over(numbers);
        ListMmf<byte>? bytes = null;
        try
        {
            // A writer fits counts past the file's end to it, as for every column: values lost with the file's growth
            // were never the value of a published row, which is made durable first.
            ListMmfOptions fitting = options with { FitCountsToFile = access != FileAccess.Read };
            bytes = OpenValues(table, info, entriesPath, access, fitting);
            if (bytes.Storage.Repair is { } repair)
            {
                table.NoteRepair($"the values' file of text column '{info.Name}' {repair}");
            }

            return new TextColumn(table, info, codes, new TextEntries(bytes, codes.Limit, $"text column '{info.Name}' of table '{table.Path}'"));
        }
        catch
        {
            bytes?.Dispose();
            codes.Column.Dispose();
            throw;
        }
    }

    /// <summary>The values' file, refused naming it (not the codes' file) when it is missing or holds another type.</summary>
    private static ListMmf<byte> OpenValues(TimeSeriesTable table, TableColumnInfo info, string path, FileAccess access, ListMmfOptions options)
    {
        try
        {
            return new ListMmf<byte>(path, access, options, DataType.Byte, requireDataType: true, description: null);
        }
        catch (FileNotFoundException)
        {
            throw new ListMmfFormatException(path, $"the file of the distinct values of text column '{info.Name}' of " +
                $"table '{table.Path}', '{info.EntriesFileName}', does not exist: the table is damaged.");
        }
        catch (ListMmfDataTypeException exception)
        {
            throw new ListMmfFormatException(path, $"the file of the distinct values of text column '{info.Name}' of " +
                $"table '{table.Path}' must hold bytes: {exception.Problem}");
        }
    }

    private static uint MaxOf(ReadOnlySpan<uint> codes)
    {
        uint max = 0;
        foreach (uint code in codes)
        {
            max = Math.Max(max, code);
        }

        return max;
    }

    private int CheckPublished(IndexRange range, int destination)
    {
        int length = ThrowHelper.SpanLength(range.Start, range.Length, Table.RowCount);
        ThrowHelper.CheckDestination(destination, length);
        return length;
    }
}
