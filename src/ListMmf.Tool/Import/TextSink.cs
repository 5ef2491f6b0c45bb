using System;
using System.Text;

namespace ListMmf.Tool.Import;

/// <summary>
/// A text column being imported: from CSV, each field's UTF-8 bytes as a string, one string for each distinct value
/// met recently, so that a column of repeating values allocates a string per new value rather than per row; from
/// Parquet, the strings its reader decodes.
/// </summary>
internal sealed class TextSink : ColumnSink
{
    /// <summary>Slots of recent values by a hash of their bytes; a power of two.</summary>
    private const int Slots = 1024;

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private readonly string[] _values;
    private readonly byte[]?[] _slotBytes = new byte[Slots][];
    private readonly string?[] _slotValues = new string[Slots];

    public TextSink(string name, int field, int batch)
        : base(name, field)
    {
        _values = new string[batch];
    }

    /// <summary>Takes any UTF-8 text; refuses bytes that are not UTF-8.</summary>
    public override bool TryParse(ReadOnlySpan<byte> text, int index)
    {
        int slot = (int)((uint)HashCode.Combine(text.Length, text.IsEmpty ? 0 : text[0], text.IsEmpty ? 0 : text[^1],
            text.Length > 2 ? text[text.Length / 2] : 0) & (Slots - 1));
        if (_slotBytes[slot] is { } known && text.SequenceEqual(known))
        {
            _values[index] = _slotValues[slot]!;
            return true;
        }

        try
        {
            string value = StrictUtf8.GetString(text);
            (_slotBytes[slot], _slotValues[slot]) = (text.ToArray(), value);
            _values[index] = value;
            return true;
        }
        catch (DecoderFallbackException)
        {
            return false;
        }
    }

    public override int Read(IBatchReader reader, int count) => reader.ReadText(_values.AsSpan(0, count));

    public override void AppendTo(TimeSeriesTable table, int count) => table.Text(Name).AddRange(_values.AsSpan(0, count));
}
