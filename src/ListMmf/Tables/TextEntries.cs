using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Text;
using System.Threading;

namespace ListMmf;

/// <summary>
/// The distinct values of a <see cref="TextColumn"/>, in the order they first appeared: a file of bytes (a
/// <see cref="ListMmf{T}"/> of <see cref="byte"/>) holding each value as its UTF-8 length (LEB128, at most five bytes)
/// followed by its UTF-8 bytes. A value's code is its position. Values are only ever appended, each whole with one
/// count update, so a reader that meets a code it does not know reads the values added since and finds it.
/// </summary>
/// <remarks>
/// The writer makes a new value durable before any row can hold its code (<see cref="CodesOf"/>), so that no crash
/// and no order of the kernel's writeback leaves a published code without its value; a value whose rows were never
/// published stays, unused, and is the code of that value when it comes again. Reads take no lock: a value, once
/// known, is in <see cref="_values"/> for good, and only learning new ones is serialized.
/// </remarks>
internal sealed class TextEntries : IDisposable
{
    /// <summary>The longest LEB128 length: five bytes hold 35 bits, more than <see cref="int.MaxValue"/>.</summary>
    private const int MaxLengthBytes = 5;

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private readonly ListMmf<byte> _bytes;
    private readonly Dictionary<string, int> _codes = new(StringComparer.Ordinal);
    private readonly object _gate = new();
    private readonly long _limit;
    private readonly string _owner;

    /// <summary>The values known, by code; past <see cref="_count"/> the slots are null. Replaced whole when it grows.</summary>
    private string[] _values = new string[16];
    private int _count;
    private long _parsed;

    /// <param name="bytes">The file of values.</param>
    /// <param name="limit">How many distinct values the column's codes tell apart.</param>
    /// <param name="owner">The column, as messages name it.</param>
    public TextEntries(ListMmf<byte> bytes, long limit, string owner)
    {
        _bytes = bytes;
        _limit = limit;
        _owner = owner;
        lock (_gate)
        {
            ReadNew();
        }
    }

    public string Path => _bytes.Path;

    /// <summary>How many values the file holds, with those the writer has added since the last look.</summary>
    public int Count
    {
        get
        {
            lock (_gate)
            {
                ReadNew();
                return _count;
            }
        }
    }

    /// <summary>The value of <paramref name="code"/>, read at <paramref name="row"/> of the column.</summary>
    /// <exception cref="ListMmfFormatException">The file holds no value of that code, even after reading what was added.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public string ValueOf(uint code, long row)
    {
        string[] values = Volatile.Read(ref _values);
        return code < (uint)values.Length && Volatile.Read(ref values[code]) is { } value ? value : Follow(code, row);
    }

    /// <summary>The code of <paramref name="value"/>, or -1 when the file does not hold it.</summary>
    public int Find(string value)
    {
        lock (_gate)
        {
            ReadNew();
            return _codes.TryGetValue(value, out int code) ? code : -1;
        }
    }

    /// <summary>
    /// The code of each of <paramref name="values"/>, adding those the file does not hold yet and making them durable,
    /// with one flush, before returning: only then may a row hold their codes.
    /// </summary>
    /// <exception cref="ArgumentNullException">A value is null.</exception>
    /// <exception cref="ListMmfException">The codes' type tells no more values apart; nothing was added.</exception>
    public void CodesOf(ReadOnlySpan<string> values, Span<uint> codes)
    {
        lock (_gate)
        {
            int before = _count;
            long bytesBefore = _bytes.Count;
            try
            {
                for (int i = 0; i < values.Length; i++)
                {
                    string value = values[i] ?? throw new ArgumentNullException(nameof(values), $"{_owner}: a text " +
                        "column holds no null values; store an empty string or a value of your own for a missing one.");
                    codes[i] = _codes.TryGetValue(value, out int code) ? (uint)code : Append(value);
                }
            }
            catch
            {
                Forget(before, bytesBefore);
                throw;
            }

            if (_count > before)
            {
                _bytes.Flush();
            }
        }
    }

    /// <summary>
    /// Checks the whole file (as <see cref="ListMmf{T}.Verify()"/> does, then every value) and that
    /// <paramref name="maxCode"/>, the largest code the column's rows hold (at <paramref name="maxCodeRow"/>, -1 for
    /// no rows), is one of its values.
    /// </summary>
    public void Verify(uint maxCode, long maxCodeRow)
    {
        _bytes.Verify();
        lock (_gate)
        {
            ReadNew();
            if (maxCodeRow >= 0 && maxCode >= (uint)_count)
            {
                ThrowUnknownCode(maxCode, maxCodeRow);
            }
        }
    }

    public void TrimExcess() => _bytes.TrimExcess();

    public void Dispose() => _bytes.Dispose();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private string Follow(uint code, long row)
    {
        lock (_gate)
        {
            ReadNew();
            if (code >= (uint)_count)
            {
                ThrowUnknownCode(code, row);
            }

            return _values[code];
        }
    }

    /// <summary>Reads the values the file holds past those known. Under <see cref="_gate"/>.</summary>
    private void ReadNew()
    {
        long end = _bytes.Count;
        while (_parsed < end)
        {
            long start = _parsed;
            ReadOnlySpan<byte> head = _bytes.AsSpan(start, (int)Math.Min(MaxLengthBytes, end - start));
            int length = 0;
            int used = 0;
            while (true)
            {
                if (used == head.Length)
                {
                    ThrowDamaged(start, used == MaxLengthBytes
                        ? "its length takes more than five bytes"
                        : "its length is cut short by the file's end");
                }

                byte next = head[used++];
                length |= (next & 0x7F) << (7 * (used - 1));
                if (next < 0x80)
                {
                    break;
                }
            }

            if (length < 0 || (used > 1 && head[used - 1] == 0))
            {
                ThrowDamaged(start, "its length is not a shortest LEB128 number below 2^31");
            }

            if (length > end - start - used)
            {
                ThrowDamaged(start, $"its {length:N0} bytes run past the file's end ({end:N0} bytes)");
            }

            string value;
            try
            {
                value = StrictUtf8.GetString(_bytes.AsSpan(start + used, length));
            }
            catch (DecoderFallbackException)
            {
                ThrowDamaged(start, "its bytes are not UTF-8");
                throw;
            }

            if (!_codes.TryAdd(value, _count))
            {
                ThrowDamaged(start, $"it repeats value {_codes[value]:N0}, \"{value}\"");
            }

            Record(value);
            _parsed = start + used + length;
        }
    }

    /// <summary>Appends <paramref name="value"/>, unflushed, and returns its code. Under <see cref="_gate"/>.</summary>
    private uint Append(string value)
    {
        if (_count >= _limit)
        {
            throw new ListMmfException(Path, $"{_owner} already holds {_limit:N0} distinct values, as many as its " +
                $"codes tell apart, so it cannot take \"{value}\"; no row was added. Give the column wider codes " +
                "(TimeSeriesTableSchema.AddText) in a new table.");
        }

        int length = StrictUtf8.GetByteCount(value);
        Span<byte> bytes = length <= 256 ? stackalloc byte[MaxLengthBytes + length] : new byte[MaxLengthBytes + length];
        int used = 0;
        uint rest = (uint)length;
        do
        {
            byte next = (byte)(rest & 0x7F);
            rest >>= 7;
            bytes[used++] = rest == 0 ? next : (byte)(next | 0x80);
        }
        while (rest != 0);

        StrictUtf8.GetBytes(value, bytes[used..]);
        _bytes.AddRange(bytes[..(used + length)]);
        _parsed = _bytes.Count;
        _codes.Add(value, _count);
        Record(value);
        return (uint)(_count - 1);
    }

    /// <summary>Drops the values appended from code <paramref name="count"/> on, which no row holds. Under <see cref="_gate"/>.</summary>
    private void Forget(int count, long bytes)
    {
        if (_count == count)
        {
            return;
        }

        _bytes.Truncate(bytes);
        _parsed = bytes;
        for (int code = count; code < _count; code++)
        {
            _codes.Remove(_values[code]);
        }

        var values = new string[_values.Length];
        Array.Copy(_values, values, count);
        Volatile.Write(ref _values, values);
        _count = count;
    }

    /// <summary>Makes <paramref name="value"/> the value of the next code. Under <see cref="_gate"/>.</summary>
    private void Record(string value)
    {
        string[] values = _values;
        if (_count == values.Length)
        {
            Array.Resize(ref values, values.Length * 2);
            values[_count] = value;
            Volatile.Write(ref _values, values);
        }
        else
        {
            Volatile.Write(ref values[_count], value);
        }

        _count++;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowUnknownCode(uint code, long row) =>
        throw new ListMmfFormatException(Path, $"{_owner}: row {row:N0} holds code {code:N0}, but the file of its " +
            $"distinct values holds {_count:N0}; the codes' file was changed, or the values' file replaced, by " +
            "something other than the column's writer.");

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowDamaged(long offset, string problem) =>
        throw new ListMmfFormatException(Path, $"{_owner}: the distinct value {_count:N0}, at byte {offset:N0} of " +
            $"the values' file, is damaged: {problem}.");
}
