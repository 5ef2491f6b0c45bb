using System;

namespace ListMmf.Tool.Csv;

/// <summary>
/// Walks the comma-separated fields of a line (RFC 4180: a field in double quotes may hold commas, and <c>""</c>
/// for a quote). Unquoted fields are slices of the line; a quoted field is unescaped into a scratch buffer.
/// </summary>
internal ref struct CsvFields
{
    private readonly ReadOnlySpan<byte> _line;
    private readonly byte[] _scratch;
    private int _position;

    public CsvFields(ReadOnlySpan<byte> line, byte[] scratch)
    {
        _line = line;
        _scratch = scratch;
        _position = 0;
    }

    /// <summary>Whether the line has another field.</summary>
    public readonly bool HasMore => _position <= _line.Length;

    /// <summary>The next field; valid until the next call.</summary>
    /// <exception cref="FormatException">A quoted field is not closed, or text follows its closing quote.</exception>
    public ReadOnlySpan<byte> Next()
    {
        ReadOnlySpan<byte> rest = _line[_position..];
        if (rest.IsEmpty || rest[0] != '"')
        {
            int comma = rest.IndexOf((byte)',');
            int length = comma < 0 ? rest.Length : comma;
            _position += length + 1;
            return rest[..length];
        }

        int written = 0;
        for (int i = 1; i < rest.Length; i++)
        {
            if (rest[i] != '"')
            {
                _scratch[written++] = rest[i];
            }
            else if (i + 1 < rest.Length && rest[i + 1] == '"')
            {
                _scratch[written++] = (byte)'"';
                i++;
            }
            else if (i + 1 == rest.Length || rest[i + 1] == ',')
            {
                _position += i + 2;
                return _scratch.AsSpan(0, written);
            }
            else
            {
                throw new FormatException("text follows the closing quote of a quoted field");
            }
        }

        throw new FormatException("a quoted field is not closed");
    }

    /// <summary>The fields of a header line, as names.</summary>
    public static string[] Names(ReadOnlySpan<byte> line)
    {
        var scratch = new byte[line.Length];
        var fields = new CsvFields(line, scratch);
        var names = new System.Collections.Generic.List<string>();
        while (fields.HasMore)
        {
            names.Add(System.Text.Encoding.UTF8.GetString(fields.Next()).Trim());
        }

        return names.ToArray();
    }
}
