using System;
using System.Globalization;
using System.Linq;
using System.Text;

namespace ListMmf.Tool.Files;

/// <summary>
/// A table's text column as the row commands show it: each row's value, read through the table; its fingerprint and
/// its check are those of its codes' file, which a seal keeps.
/// </summary>
internal sealed class TextColumnView : ColumnView
{
    private readonly TextColumn _text;
    private readonly ColumnView _codes;

    public TextColumnView(TextColumn text)
        : base(text.Name, text.DataType)
    {
        _text = text;
        _codes = Open(text.Path, text.Name, text.DataType);
    }

    public override long Count => _codes.Count;

    /// <summary>The value of the row at <paramref name="index"/>, as stored.</summary>
    public string ValueAt(long index) => _text[index];

    /// <summary>
    /// The value of the row at <paramref name="index"/> as a line of <c>head</c> or <c>tail</c> shows it: a control
    /// character (a line break, a tab) written as its escape, so that one row stays one line.
    /// </summary>
    public override string Format(long index)
    {
        string value = _text[index];
        if (!value.Any(char.IsControl))
        {
            return value;
        }

        var shown = new StringBuilder(value.Length + 8);
        foreach (char c in value)
        {
            _ = c switch
            {
                '\n' => shown.Append("\\n"),
                '\r' => shown.Append("\\r"),
                '\t' => shown.Append("\\t"),
                _ when char.IsControl(c) => shown.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:x4}"),
                _ => shown.Append(c),
            };
        }

        return shown.ToString();
    }

    public override bool TryWriteUtf8(long index, Span<byte> destination, out int written) =>
        Encoding.UTF8.TryGetBytes(_text[index], destination, out written);

    public override DateTime TimeAt(long index) => throw new InvalidOperationException($"{Name} holds text, not times.");

    public override string Fingerprint => $"codes {_codes.Fingerprint}";

    public override ulong Hash() => _codes.Hash();

    public override void Verify(IProgress<double>? progress) => _codes.Verify(progress);

    public override void Dispose() => _codes.Dispose();
}
