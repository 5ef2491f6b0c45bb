using System;
using System.Collections.Generic;
using System.Globalization;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using ParquetSharp;

namespace ListMmf.Tool.Parquet;

/// <summary>
/// Reads the next rows of one column of a row group into the values a table column holds, through Arrow C++'s Parquet
/// reader (ParquetSharp), which decodes every encoding the format defines (dictionary, RLE, DELTA_BINARY_PACKED,
/// DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT) and every codec. Its buffers are kept from one slice to the next.
/// </summary>
internal sealed class ParquetChunkReader
{
    private const long JulianDayOfEpoch = 2_440_588;
    private static readonly long EpochTicks = DateTime.UnixEpoch.Ticks;
    private static readonly long MaxTicks = DateTime.MaxValue.Ticks;

    private short[] _levels = [];
    private long[] _longs = [];
    private int[] _ints = [];
    private Int96[] _int96 = [];
    private Half[] _halves = [];
    private Half?[] _nullableHalves = [];
    private ByteArray[] _byteArrays = [];

    /// <summary>
    /// A slice's strings by where their bytes are: a dictionary-encoded column hands every row of a value the bytes
    /// of its one dictionary entry, so each distinct value is decoded once a slice. The bytes are compared too, since
    /// a page read later in the slice may reuse the memory of one read before.
    /// </summary>
    private readonly Dictionary<IntPtr, (byte[] Bytes, string Text)> _strings = [];

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>
    /// Reads the next <paramref name="destination"/>.Length rows of <paramref name="field"/> from <paramref name="group"/>:
    /// numbers as they are (a value outside the column's annotated width is refused), times as ticks into a
    /// <see cref="long"/> destination or as Unix seconds into an <see cref="int"/> one. Returns the first row whose
    /// value is null, or -1.
    /// </summary>
    /// <exception cref="ParquetValueException">A value the table column cannot hold.</exception>
    public int Read<T>(ParquetGroupReader group, ParquetField field, Span<T> destination)
        where T : unmanaged, INumberBase<T>
    {
        int rows = destination.Length;
        switch (field.Kind)
        {
            case ParquetValueKind.Timestamp or ParquetValueKind.Int96Timestamp:
            {
                int nullAt = ReadTicks(group, field, rows);
                Convert(field, _longs.AsSpan(0, nullAt < 0 ? rows : nullAt), destination);
                return nullAt;
            }

            case ParquetValueKind.Int64:
            {
                Span<long> values = Buffer(ref _longs, rows);
                int nullAt = ReadPhysical(group.Physical<long>(field.Index), field.MaxDefinitionLevel, values);
                ConvertIntegers(values[..(nullAt < 0 ? rows : nullAt)], destination);
                return nullAt;
            }

            case ParquetValueKind.Int32:
            {
                Span<int> values = Buffer(ref _ints, rows);
                int nullAt = ReadPhysical(group.Physical<int>(field.Index), field.MaxDefinitionLevel, values);
                ConvertIntegers(values[..(nullAt < 0 ? rows : nullAt)], destination);
                return nullAt;
            }

            case ParquetValueKind.Single:
                return ReadPhysical(group.Physical<float>(field.Index), field.MaxDefinitionLevel, MemoryMarshal.Cast<T, float>(destination));
            case ParquetValueKind.Double:
                return ReadPhysical(group.Physical<double>(field.Index), field.MaxDefinitionLevel, MemoryMarshal.Cast<T, double>(destination));
            case ParquetValueKind.Half:
                return ReadHalves(group, field, MemoryMarshal.Cast<T, float>(destination));
            default:
                throw new InvalidOperationException($"column '{field.Name}' {field.Refusal}");
        }
    }

    /// <summary>
    /// Reads the next <paramref name="destination"/>.Length rows of a string column as strings, each distinct value
    /// of a slice one string; bytes that are not UTF-8 are refused, not replaced. Returns the first row whose value is
    /// null, or -1.
    /// </summary>
    /// <exception cref="ParquetValueException">A value that is not UTF-8.</exception>
    public int ReadText(ParquetGroupReader group, ParquetField field, Span<string> destination)
    {
        int rows = destination.Length;
        ColumnReader<ByteArray> typed = group.Physical<ByteArray>(field.Index);
        Span<ByteArray> values = Buffer(ref _byteArrays, rows);
        Span<short> levels = field.MaxDefinitionLevel > 0 ? Buffer(ref _levels, rows) : default;
        _strings.Clear();
        int done = 0, valuesRead = 0;
        while (done < rows)
        {
            long read;
            long levelsRead = field.MaxDefinitionLevel == 0
                ? typed.ReadBatch(rows - done, values[done..], out read)
                : typed.ReadBatch(rows - done, levels[done..], default, values[valuesRead..], out read);
            if (levelsRead == 0)
            {
                throw new ParquetValueException(done, "ends before the rows its row group's footer counts");
            }

            // Now, before the next batch: a value's bytes are in the reader's page buffer, which the next page may reuse.
            Decode(values.Slice(valuesRead, (int)read), destination.Slice(valuesRead, (int)read), valuesRead);
            done += (int)levelsRead;
            valuesRead += (int)read;
        }

        return valuesRead == rows ? -1 : levels.IndexOfAnyExcept(field.MaxDefinitionLevel);
    }

    /// <summary>The strings of <paramref name="values"/>, each distinct value decoded once a slice; bytes that are not UTF-8 refused.</summary>
    private void Decode(ReadOnlySpan<ByteArray> values, Span<string> destination, int firstRow)
    {
        for (int i = 0; i < values.Length; i++)
        {
            ByteArray value = values[i];
            ReadOnlySpan<byte> bytes = value.Length == 0 ? default : ByteSpan(value);
            if (!_strings.TryGetValue(value.Pointer, out (byte[] Bytes, string Text) known) || !bytes.SequenceEqual(known.Bytes))
            {
                try
                {
                    known = (bytes.ToArray(), StrictUtf8.GetString(bytes));
                }
                catch (DecoderFallbackException)
                {
                    throw new ParquetValueException(firstRow + i, "holds bytes that are not UTF-8 text");
                }

                _strings[value.Pointer] = known;
            }

            destination[i] = known.Text;
        }
    }

    private static unsafe ReadOnlySpan<byte> ByteSpan(ByteArray value) => new((void*)value.Pointer, value.Length);

    /// <summary>
    /// Reads a time column's next <paramref name="rows"/> rows as ticks into a buffer of this reader's, returned as
    /// <paramref name="ticks"/>; returns the first row whose time is null, or -1.
    /// </summary>
    public int ReadTicks(ParquetGroupReader group, ParquetField field, int rows, out ReadOnlySpan<long> ticks)
    {
        int nullAt = ReadTicks(group, field, rows);
        ticks = _longs.AsSpan(0, rows);
        return nullAt;
    }

    private int ReadTicks(ParquetGroupReader group, ParquetField field, int rows)
    {
        Span<long> ticks = Buffer(ref _longs, rows);
        if (field.Kind == ParquetValueKind.Int96Timestamp)
        {
            Span<Int96> stamps = Buffer(ref _int96, rows);
            int nullAt96 = ReadPhysical(group.Physical<Int96>(field.Index), field.MaxDefinitionLevel, stamps);
            int valid96 = nullAt96 < 0 ? rows : nullAt96;
            for (int i = 0; i < valid96; i++)
            {
                ticks[i] = Int96Ticks(stamps[i], i);
            }

            return nullAt96;
        }

        int nullAt = ReadPhysical(group.Physical<long>(field.Index), field.MaxDefinitionLevel, ticks);
        int valid = nullAt < 0 ? rows : nullAt;
        long perUnit = field.Unit switch
        {
            TimeUnit.Millis => TimeSpan.TicksPerMillisecond,
            TimeUnit.Micros => TimeSpan.TicksPerMicrosecond,
            _ => 0,
        };
        for (int i = 0; i < valid; i++)
        {
            long value = ticks[i];

            // Nanoseconds are floored to the tick, before 1970 as after it, so that two distinct times never become equal
            // out of order; INT96 is floored the same way.
            long sinceEpoch = perUnit == 0 ? FloorDivide(value, 100)
                : value > (MaxTicks - EpochTicks) / perUnit || value < -EpochTicks / perUnit ? long.MinValue
                : value * perUnit;
            if (sinceEpoch < -EpochTicks || sinceEpoch > MaxTicks - EpochTicks)
            {
                throw new ParquetValueException(i, string.Create(CultureInfo.InvariantCulture, $"holds {value:N0} " +
                    $"{field.Unit.ToString().ToLowerInvariant()} since 1970, outside the years 0001 to 9999 that a " +
                        $"table's times hold"));
            }

            ticks[i] = EpochTicks + sinceEpoch;
        }

        return nullAt;
    }

    private static long Int96Ticks(Int96 stamp, int row)
    {
        long nanosOfDay = (uint)stamp.A | ((long)stamp.B << 32);
        long days = stamp.C - JulianDayOfEpoch;
        long ticks = days is >= -719_162 and <= 2_932_896
            ? EpochTicks + (days * TimeSpan.TicksPerDay) + FloorDivide(nanosOfDay, 100)
            : -1;
        return ticks >= 0 && ticks <= MaxTicks
            ? ticks
            : throw new ParquetValueException(row, string.Create(CultureInfo.InvariantCulture, $"holds an INT96 time " +
                $"(Julian day {stamp.C:N0}, {nanosOfDay:N0} ns into it) outside the years 0001 to 9999 that a table's " +
                    $"times hold"));
    }

    private static long FloorDivide(long value, long divisor)
    {
        long quotient = Math.DivRem(value, divisor, out long remainder);
        return remainder < 0 ? quotient - 1 : quotient;
    }

    /// <summary>Times as the column holds them: ticks in a DateTime column, whole Unix seconds in a seconds one.</summary>
    private static void Convert<T>(ParquetField field, ReadOnlySpan<long> ticks, Span<T> destination)
        where T : unmanaged, INumberBase<T>
    {
        if (typeof(T) == typeof(long))
        {
            ticks.CopyTo(MemoryMarshal.Cast<T, long>(destination));
            return;
        }

        Span<int> seconds = MemoryMarshal.Cast<T, int>(destination);
        for (int i = 0; i < ticks.Length; i++)
        {
            if (ticks[i] % TimeSpan.TicksPerSecond != 0
                || !ListMmfTimeSeriesDateTimeSeconds.TryGetUnixSeconds(new DateTime(ticks[i]), out seconds[i]))
            {
                throw new ParquetValueException(i, $"holds {TimeText.Ticks(ticks[i])}, " +
                    $"which is not a whole Unix second between 1901-12-13 and 2038-01-19, and its metadata says it is a " +
                        $"column of Unix seconds");
            }
        }
    }

    /// <summary>
    /// Integers into the column's type: an unsigned column's values are the same bits (INT32 and INT64 hold them as
    /// signed), a narrower column's must fit its width.
    /// </summary>
    private static void ConvertIntegers<TPhysical, T>(ReadOnlySpan<TPhysical> values, Span<T> destination)
        where TPhysical : unmanaged, IBinaryInteger<TPhysical>
        where T : unmanaged, INumberBase<T>
    {
        if (Unsafe.SizeOf<TPhysical>() == Unsafe.SizeOf<T>())
        {
            MemoryMarshal.Cast<TPhysical, T>(values).CopyTo(destination);
            return;
        }

        int i = 0;
        try
        {
            for (; i < values.Length; i++)
            {
                destination[i] = T.CreateChecked(values[i]);
            }
        }
        catch (OverflowException)
        {
            throw new ParquetValueException(i, $"holds {values[i]}, which does not fit the column's {typeof(T).Name}");
        }
    }

    /// <summary>
    /// Reads <paramref name="values"/>.Length rows of a physical column; returns the first row whose value is null,
    /// or -1 (the values before it are the rows' own: a nullable column's values come packed, nulls left out).
    /// </summary>
    private int ReadPhysical<TPhysical>(ColumnReader<TPhysical> typed, short maxDefinitionLevel, Span<TPhysical> values)
        where TPhysical : unmanaged
    {
        int rows = values.Length;
        Span<short> levels = maxDefinitionLevel > 0 ? Buffer(ref _levels, rows) : default;
        int done = 0, valuesRead = 0;
        while (done < rows)
        {
            long read;
            long levelsRead = maxDefinitionLevel == 0
                ? typed.ReadBatch(rows - done, values[done..], out read)
                : typed.ReadBatch(rows - done, levels[done..], default, values[valuesRead..], out read);
            if (levelsRead == 0)
            {
                throw new ParquetValueException(done, "ends before the rows its row group's footer counts");
            }

            done += (int)levelsRead;
            valuesRead += (int)read;
        }

        return valuesRead == rows ? -1 : levels.IndexOfAnyExcept(maxDefinitionLevel);
    }

    /// <summary>FLOAT16 values as floats, through the reader's own conversion of the two bytes to a <see cref="Half"/>.</summary>
    private int ReadHalves(ParquetGroupReader group, ParquetField field, Span<float> destination)
    {
        int rows = destination.Length;
        if (field.MaxDefinitionLevel == 0)
        {
            Span<Half> halves = Buffer(ref _halves, rows);
            ReadLogical(group.Logical<Half>(field.Index), halves);
            for (int i = 0; i < rows; i++)
            {
                destination[i] = (float)halves[i];
            }

            return -1;
        }

        Span<Half?> nullable = Buffer(ref _nullableHalves, rows);
        ReadLogical(group.Logical<Half?>(field.Index), nullable);
        for (int i = 0; i < rows; i++)
        {
            if (nullable[i] is not { } half)
            {
                return i;
            }

            destination[i] = (float)half;
        }

        return -1;
    }

    private static void ReadLogical<TElement>(LogicalColumnReader<TElement> reader, Span<TElement> values)
    {
        for (int done = 0; done < values.Length;)
        {
            int read = reader.ReadBatch(values[done..]);
            if (read == 0)
            {
                throw new ParquetValueException(done, "ends before the rows its row group's footer counts");
            }

            done += read;
        }
    }

    private static Span<TBuffer> Buffer<TBuffer>(ref TBuffer[] buffer, int length)
    {
        if (buffer.Length < length)
        {
            buffer = new TBuffer[length];
        }

        return buffer.AsSpan(0, length);
    }
}
