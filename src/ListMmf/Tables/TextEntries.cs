using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Text;
using System.Threading;

namespace ListMmf;

/// <summary>
/// The distinct values of a <see cref="TextColumn"/>, in the order they first appeared: a file of bytes (a
/// <see cref="ListMmf{T}"/> of <see cref="byte"/>) holding each value as its UTF-8 length (LEB128, at most five bytes)
/// followed by its UTF-8 bytes. A value's code is its position. Values are only ever appended, each whole with one
/// count update, and never taken back: a value appended is in the file for good, used by a row or not. A reader that
/// meets a code it does not know reads the values added since and finds it.
/// </summary>
/// <remarks>
/// The writer makes every new value durable (<see cref="MakeDurable"/>) before any row holding its code can be
/// published, so that no crash and no order of the kernel's writeback leaves a published code without its value; a
/// value whose rows were never published stays, unused, and is the code of that value when it comes again. Reads
/// take no lock: a value, once known, is in <see cref="_values"/> for good, and only learning new ones is serialized.
/// </remarks>
internal sealed class TextEntries
{
    /// <summary>The longest LEB128 length: five bytes hold 35 bits, more than <see cref="int.MaxValue"/>.</summary>
    private const int MaxLengthBytes = 5;

    /// <summary>The code of a value not in the file yet, while a batch is looked up: no code is this large.</summary>
    private const uint Unknown = uint.MaxValue;

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

    /// <summary>How many of the values a flush has made durable (the writer's; a file's values at open are).</summary>
    private int _durable;

    /// <param name="bytes">The file of values.</param>
    /// <param name="limit">How many distinct values the column's codes tell apart.</param>
    /// <param name="owner">The column, as messages name it.</param>
    /// <exception cref="ListMmfFormatException">A value in the file is damaged.</exception>
    public TextEntries(ListMmf<byte> bytes, long limit, string owner)
    {
        _bytes = bytes;
        _limit = limit;
        _owner = owner;
        lock (_gate)
        {
            ReadNew();
            _durable = _count;
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

    /// <summary>
    /// Refuses <paramref name="code"/>, the largest of some rows' codes (at <paramref name="row"/>), unless it is one
    /// of the file's values, reading those added since the last look first.
    /// </summary>
    /// <exception cref="ListMmfFormatException">The file holds no value of that code.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void CheckCode(uint code, long row)
    {
        if (code >= (uint)Volatile.Read(ref _count))
        {
            Follow(code, row);
        }
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
    /// The code of each of <paramref name="values"/>, appending those the file does not hold yet; none is durable
    /// until <see cref="MakeDurable"/>. Every value is checked before any is appended; a batch of values the file
    /// holds costs a lookup each.
    /// </summary>
    /// <exception cref="ArgumentNullException">A value is null; nothing was appended.</exception>
    /// <exception cref="ArgumentException">A value is no UTF-16 text that UTF-8 can hold (a lone surrogate); nothing was appended.</exception>
    /// <exception cref="ListMmfException">The codes tell fewer values apart than the file would then hold; nothing was appended.</exception>
    public void CodesOf(ReadOnlySpan<string> values, Span<uint> codes)
    {
        lock (_gate)
        {
            bool anyNew = false;
            for (int i = 0; i < values.Length; i++)
            {
                string value = values[i] ?? throw new ArgumentNullException(nameof(values), $"{_owner}: value {i:N0} is " +
                    "null; a text column holds no null values: store an empty string, or a value of your own, for a missing one.");
                bool known = _codes.TryGetValue(value, out int code);
                codes[i] = known ? (uint)code : Unknown;
                anyNew |= !known;
            }

            if (!anyNew)
            {
                return;
            }

            CheckNew(values, codes);
            for (int i = 0; i < values.Length; i++)
            {
                if (codes[i] == Unknown)
                {
                    // A value met twice in the batch is appended at the first.
                    codes[i] = _codes.TryGetValue(values[i], out int code) ? (uint)code : Append(values[i]);
                }
            }
        }
    }

    /// <summary>Flushes the values appended since the last flush that succeeded, if any: only then may a row hold their codes.</summary>
    /// <exception cref="ListMmfException">The flush failed; the values are flushed again by the next call.</exception>
    public void MakeDurable()
    {
        lock (_gate)
        {
            if (_durable < _count)
            {
                int count = _count;
                _bytes.Flush();
                _durable = count;
            }
        }
    }

    /// <summary>
    /// Checks the whole file: as <see cref="ListMmf{T}.Verify()"/> does, then every value read again from its first
    /// byte, and that <paramref name="maxCode"/>, the largest code the column's rows hold (at
    /// <paramref name="maxCodeRow"/>, -1 for no rows), is one of its values.
    /// </summary>
    public void Verify(uint maxCode, long maxCodeRow)
    {
        _bytes.Verify();
        var again = new TextEntries(_bytes, _limit, _owner);
        if (maxCodeRow >= 0 && maxCode >= (uint)again._count)
        {
            again.ThrowUnknownCode(maxCode, maxCodeRow);
        }
    }

    public void TrimExcess() => _bytes.TrimExcess();

    /// <summary>Whether <see cref="TrimExcess"/> cuts the values' file where it is; see <see cref="ListMmf{T}.TrimsInPlace"/>.</summary>
    public bool TrimsInPlace => _bytes.TrimsInPlace;

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

    /// <summary>
    /// Refuses <paramref name="values"/> before any is appended: a new value (its code <see cref="Unknown"/>) that
    /// UTF-8 cannot hold, or more new distinct values than the codes have room for. Under <see cref="_gate"/>.
    /// </summary>
    private void CheckNew(ReadOnlySpan<string> values, ReadOnlySpan<uint> codes)
    {
        var added = new HashSet<string>(StringComparer.Ordinal);
        for (int i = 0; i < values.Length; i++)
        {
            string value = values[i];
            if (codes[i] != Unknown || added.Contains(value))
            {
                continue;
            }

            try
            {
                StrictUtf8.GetByteCount(value);
            }
            catch (EncoderFallbackException exception)
            {
                throw new ArgumentException($"{_owner}: value {i:N0} holds a lone surrogate (a half of a UTF-16 pair), " +
                    "which UTF-8 cannot hold; nothing was stored.", nameof(values), exception);
            }

            added.Add(value);
            if (_count + added.Count > _limit)
            {
                throw new ListMmfException(Path, $"{_owner} already holds {_count:N0} distinct values, and its codes " +
                    $"tell {_limit:N0} apart, so it cannot take \"{value}\"; nothing was stored. Give the column wider " +
                    "codes (TimeSeriesTableSchema.AddText) in a new table.");
            }
        }
    }

    /// <summary>Reads the values the file holds past those known. Under <see cref="_gate"/>.</summary>
    private void ReadNew()
    {
        long end = _bytes.Count;
        if (end < _parsed)
        {
            ThrowDamaged(_parsed, $"the file now holds {end:N0} bytes, fewer than the {_parsed:N0} already read: it was " +
                "cut by something other than the column's writer, which only appends");
        }

        while (_parsed < end)
        {
            long start = _parsed;
            ReadOnlySpan<byte> head = _bytes.AsSpan(start, (int)Math.Min(MaxLengthBytes, end - start));
            long length = 0;
            int used = 0;
            while (true)
            {
                if (used == head.Length)
                {
                    ThrowDamaged(start, used == MaxLengthBytes
                        ? "its length takes more than five bytes"
                        : "its length is cut short by the file's end");
                }

                byte next = head[used];
                length |= (long)(next & 0x7F) << (7 * used);
                used++;
                if (next < 0x80)
                {
                    break;
                }
            }

            if (length > int.MaxValue || (used > 1 && head[used - 1] == 0))
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
                value = StrictUtf8.GetString(_bytes.AsSpan(start + used, (int)length));
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

    /// <summary>Appends <paramref name="value"/>, checked by <see cref="CheckNew"/>, and returns its code. Under <see cref="_gate"/>.</summary>
    private uint Append(string value)
    {
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

        Volatile.Write(ref _count, _count + 1);
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
