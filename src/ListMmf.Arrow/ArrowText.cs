using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.InteropServices;
using Apache.Arrow;

namespace ListMmf.Arrow;

/// <summary>
/// A table's text column as Arrow dictionary arrays: the codes of a batch's rows as Int32 indices, and the column's
/// distinct values, read once, as the dictionary every batch shares.
/// </summary>
internal sealed class ArrowText
{
    private readonly TextColumn _column;
    private readonly StringArray _values;

    private ArrowText(TextColumn column)
    {
        _column = column;

        // Read after the caller counted the rows: every code of those rows is one of these values.
        var values = new StringArray.Builder();
        for (int code = 0, count = column.EntryCount; code < count; code++)
        {
            values.Append(column.EntryAt(code));
        }

        _values = values.Build();
    }

    /// <summary>Each text column of <paramref name="table"/> by name, its values read now.</summary>
    public static IReadOnlyDictionary<string, ArrowText> Dictionaries(TimeSeriesTable table) =>
        table.Columns.OfType<TextColumn>().ToDictionary(column => column.Name, column => new ArrowText(column));

    /// <summary>The rows of <paramref name="rows"/> as a dictionary array over the column's values.</summary>
    public DictionaryArray Array(IndexRange rows)
    {
        byte[] codes = GC.AllocateUninitializedArray<byte>(checked((int)rows.Length * sizeof(int)));
        _column.CopyCodes(rows, MemoryMarshal.Cast<byte, int>(codes.AsSpan()));
        var indices = new Int32Array(new ArrowBuffer(codes), ArrowBuffer.Empty, (int)rows.Length, nullCount: 0, offset: 0);
        return new DictionaryArray(ArrowTypes.Text, indices, _values);
    }
}
