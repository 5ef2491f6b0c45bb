using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace ListMmf.Tool.Csv;

/// <summary>
/// The lines of a chunk of whole lines, each with its field count and the ranges of its first fields, by the simple
/// rules (a line ends at '\n', a '\r' before it is dropped, fields end at ','). A line with a quote or another '\r'
/// is reported as not plain, for CsvHelper's full rules.
/// </summary>
/// <remarks>
/// A chunk with no quote and no '\r' at all (the caller checks once, over all its bytes) is read 64 bytes at a time:
/// one compare per separator gives a bit for each ',' and '\n' in the block, and the lines come from walking those
/// bits. That replaces three searches and a count per line of about 20 bytes, which cost more to start than to run.
/// Any other chunk is read a line at a time.
/// </remarks>
internal ref struct CsvLineReader
{
    private const int Block = 64;

    private readonly ReadOnlySpan<byte> _bytes;
    private readonly bool _separatorsOnly;
    private int _position;
    private int _blockStart;
    private ulong _separators;
    private ulong _newlines;

    /// <param name="bytes">Whole lines; the last may lack its '\n'.</param>
    /// <param name="separatorsOnly">True only when <paramref name="bytes"/> hold no '"' and no '\r'.</param>
    public CsvLineReader(ReadOnlySpan<byte> bytes, bool separatorsOnly)
    {
        _bytes = bytes;
        _separatorsOnly = separatorsOnly;
        _blockStart = -Block;
    }

    /// <summary>Whether <paramref name="bytes"/> can be read by separators alone: they hold no '"' and no '\r'.</summary>
    public static bool HasSeparatorsOnly(ReadOnlySpan<byte> bytes) => bytes.IndexOfAny((byte)'"', (byte)'\r') < 0;

    /// <summary><paramref name="line"/> without a '\n' at its end, and without a '\r' before that.</summary>
    public static ReadOnlySpan<byte> WithoutLineEnd(ReadOnlySpan<byte> line)
    {
        line = line.EndsWith("\n"u8) ? line[..^1] : line;
        return line.EndsWith("\r"u8) ? line[..^1] : line;
    }

    /// <summary>
    /// The next line without its line end; false at the end. When it is <paramref name="plain"/> and not empty,
    /// <paramref name="fieldCount"/> is its number of fields and <paramref name="fields"/> holds the ranges (within
    /// the line) of as many of its first fields as it has, up to <paramref name="fields"/>' length.
    /// </summary>
    public bool Next(scoped Span<Range> fields, out ReadOnlySpan<byte> line, out int fieldCount, out bool plain)
    {
        fieldCount = 0;
        plain = true;
        line = default;
        if (_position >= _bytes.Length)
        {
            return false;
        }

        return _separatorsOnly ? NextBySeparators(fields, out line, out fieldCount) : NextBySearch(fields, out line, out fieldCount, out plain);
    }

    private bool NextBySeparators(scoped Span<Range> fields, out ReadOnlySpan<byte> line, out int fieldCount)
    {
        int start = _position;
        int fieldStart = start;
        int count = 0;
        int end;
        while (true)
        {
            bool found = NextSeparator(out end, out bool newline);
            end = found ? end : _bytes.Length;
            if (count < fields.Length)
            {
                fields[count] = new Range(fieldStart - start, end - start);
            }

            count++;
            fieldStart = end + 1;
            if (!found || newline)
            {
                break;
            }
        }

        line = _bytes[start..end];
        _position = end + 1;
        fieldCount = count;
        return true;
    }

    /// <summary>The offset of the next ',' or '\n' and which it is; false past the last.</summary>
    private bool NextSeparator(out int index, out bool newline)
    {
        while (_separators == 0)
        {
            _blockStart += Block;
            if (_blockStart >= _bytes.Length)
            {
                index = 0;
                newline = false;
                return false;
            }

            LoadBlock();
        }

        int bit = BitOperations.TrailingZeroCount(_separators);
        _separators &= _separators - 1;
        index = _blockStart + bit;
        newline = ((_newlines >> bit) & 1) != 0;
        return true;
    }

    private void LoadBlock()
    {
        if (_bytes.Length - _blockStart < Block)
        {
            LoadTail();
            return;
        }

        ref byte at = ref Unsafe.Add(ref MemoryMarshal.GetReference(_bytes), _blockStart);
        if (Vector256.IsHardwareAccelerated)
        {
            Vector256<byte> low = Vector256.LoadUnsafe(ref at);
            Vector256<byte> high = Vector256.LoadUnsafe(ref at, 32);
            _newlines = Bits(Vector256.Equals(low, Vector256.Create((byte)'\n')), Vector256.Equals(high, Vector256.Create((byte)'\n')));
            _separators = _newlines | Bits(Vector256.Equals(low, Vector256.Create((byte)',')), Vector256.Equals(high, Vector256.Create((byte)',')));
        }
        else if (Vector128.IsHardwareAccelerated)
        {
            _newlines = Bits(ref at, (byte)'\n');
            _separators = _newlines | Bits(ref at, (byte)',');
        }
        else
        {
            LoadTail();
        }
    }

    /// <summary>The block's bits one byte at a time: the last, short block, or where no vectors are accelerated.</summary>
    private void LoadTail()
    {
        int length = Math.Min(Block, _bytes.Length - _blockStart);
        ulong newlines = 0;
        ulong commas = 0;
        for (int i = 0; i < length; i++)
        {
            byte b = _bytes[_blockStart + i];
            newlines |= (ulong)(b == '\n' ? 1 : 0) << i;
            commas |= (ulong)(b == ',' ? 1 : 0) << i;
        }

        _newlines = newlines;
        _separators = newlines | commas;
    }

    private static ulong Bits(Vector256<byte> low, Vector256<byte> high) =>
        low.ExtractMostSignificantBits() | ((ulong)high.ExtractMostSignificantBits() << 32);

    private static ulong Bits(ref byte at, byte value)
    {
        Vector128<byte> match = Vector128.Create(value);
        ulong bits = 0;
        for (int i = 0; i < Block / 16; i++)
        {
            bits |= (ulong)Vector128.Equals(Vector128.LoadUnsafe(ref at, (nuint)(16 * i)), match).ExtractMostSignificantBits() << (16 * i);
        }

        return bits;
    }

    private bool NextBySearch(scoped Span<Range> fields, out ReadOnlySpan<byte> line, out int fieldCount, out bool plain)
    {
        ReadOnlySpan<byte> rest = _bytes[_position..];
        int end = rest.IndexOf((byte)'\n');
        line = WithoutLineEnd(end < 0 ? rest : rest[..end]);
        _position += end < 0 ? rest.Length : end + 1;
        plain = line.IndexOfAny((byte)'"', (byte)'\r') < 0;
        fieldCount = 0;
        if (!plain || line.IsEmpty)
        {
            return true;
        }

        fieldCount = line.Count((byte)',') + 1;
        int start = 0;
        for (int f = 0; f < Math.Min(fields.Length, fieldCount); f++)
        {
            int comma = line[start..].IndexOf((byte)',');
            int fieldEnd = comma < 0 ? line.Length : start + comma;
            fields[f] = new Range(start, fieldEnd);
            start = fieldEnd + 1;
        }

        return true;
    }
}
