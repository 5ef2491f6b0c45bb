using System;
using System.Buffers.Binary;
using System.IO.Hashing;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ListMmf.Sealed;

/// <summary>
/// Encodes one block of a sealed file: picks the codec with the smallest payload that gives every value back bit for
/// bit, or keeps the block plain. A block whose values ascend is given frame of reference (never deltas), so that a
/// search reads any of its values in place.
/// </summary>
internal sealed class BlockEncoder
{
    private const long TickLimitDouble = 1L << 53;
    private const long TickLimitSingle = 1L << 24;

    /// <summary>
    /// Every how many offsets the estimate that decides whether a block is worth planning patches for looks at: a
    /// block with no outliers (sizes spread evenly over their range) then costs a quarter of a full plan's pass. Outliers
    /// that fall on every fourth value exactly make the estimate count every value an outlier, and the block keeps its
    /// wider frame: bytes lost, never a value.
    /// </summary>
    private const int EstimateStride = 4;

    private readonly int _itemSize;
    private readonly SealedValueKind _kind;
    private readonly long[] _values = new long[SealedLayout.BlockValues];
    private readonly ulong[] _offsets = new ulong[SealedLayout.BlockValues];
    private readonly double[] _widened = new double[SealedLayout.BlockValues];
    private readonly long[] _scaled = new long[SealedLayout.BlockValues];
    private readonly ulong[] _positions = new ulong[SealedLayout.BlockValues];
    private readonly ulong[] _highs = new ulong[SealedLayout.BlockValues];
    private readonly BlockDictionary _dictionary = new();

    public BlockEncoder(int itemSize, SealedValueKind kind)
    {
        _itemSize = itemSize;
        _kind = kind;
    }

    /// <summary>The largest block this encoder writes: a plain block, or a packed one at the widest width.</summary>
    public int MaximumLength =>
        SealedLayout.BlockHeaderSize + (int)SealedLayout.Align8(Math.Max(_itemSize * SealedLayout.BlockValues,
            BitPacking.LengthOf(SealedLayout.BlockValues, BitPacking.MaximumWidth)));

    /// <summary>Encodes <paramref name="items"/> (1 to 1,024 items) into <paramref name="block"/>; returns its length, a multiple of 8.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public int Encode(ReadOnlySpan<byte> items, Span<byte> block)
    {
        int count = items.Length / _itemSize;
        Span<long> values = _values.AsSpan(0, count);
        bool encoded = _kind switch
        {
            SealedValueKind.Signed or SealedValueKind.Unsigned => LoadIntegers(items, values) && TryIntegers(block, values, items.Length),
            SealedValueKind.Double => TryFloats(block, MemoryMarshal.Cast<byte, double>(items), single: false, values, items.Length),
            SealedValueKind.Single => TryFloats(block, Widen(items), single: true, values, items.Length),
            _ => false,
        };
        if (!encoded)
        {
            WriteHeader(block, SealedCodec.Plain, 0, count, items.Length, 0, 0, 0);
            items.CopyTo(block[SealedLayout.BlockHeaderSize..]);
        }

        int payload = BinaryPrimitives.ReadInt32LittleEndian(block[SealedLayout.BlockPayloadLengthOffset..]);
        int length = SealedLayout.BlockHeaderSize + (int)SealedLayout.Align8(payload);
        block[(SealedLayout.BlockHeaderSize + payload)..length].Clear();
        WriteChecksum(block, payload);
        return length;
    }

    /// <summary>The CRC-32 (zlib's) of a block's first 32 bytes and its payload, as <c>verify</c> checks it.</summary>
    public static uint ChecksumOf(ReadOnlySpan<byte> block, int payloadLength)
    {
        var crc = new Crc32();
        crc.Append(block[..SealedLayout.BlockChecksummed]);
        crc.Append(block.Slice(SealedLayout.BlockHeaderSize, payloadLength));
        return crc.GetCurrentHashAsUInt32();
    }

    private static void WriteChecksum(Span<byte> block, int payloadLength) =>
        BinaryPrimitives.WriteUInt32LittleEndian(block[SealedLayout.BlockChecksumOffset..], ChecksumOf(block, payloadLength));

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private bool LoadIntegers(ReadOnlySpan<byte> items, Span<long> values)
    {
        int size = _itemSize;
        bool signed = _kind == SealedValueKind.Signed;
        switch (size)
        {
            case 4 when signed:
                ReadOnlySpan<int> ints = MemoryMarshal.Cast<byte, int>(items);
                int i = 0;
                if (Vector.IsHardwareAccelerated)
                {
                    for (; i + Vector<int>.Count <= ints.Length; i += Vector<int>.Count)
                    {
                        Vector.Widen(new Vector<int>(ints[i..]), out Vector<long> low, out Vector<long> high);
                        low.CopyTo(values[i..]);
                        high.CopyTo(values[(i + Vector<long>.Count)..]);
                    }
                }

                for (; i < ints.Length; i++)
                {
                    values[i] = ints[i];
                }

                return true;
            case 8:
                MemoryMarshal.Cast<byte, long>(items).CopyTo(values);
                return true;
            default:
                for (int item = 0; item < values.Length; item++)
                {
                    values[item] = SealedValues.Widen(items.Slice(item * size, size), signed);
                }

                return true;
        }
    }

    /// <summary>
    /// Integers as frame of reference or deltas (<see cref="PackPlan"/>), as a stepped frame where they are a whole
    /// number of a common step apart (<see cref="WriteStepped"/>), or where the block does not ascend, patched where a
    /// few outliers widen its frame (<see cref="TryPatch"/>) or as a dictionary where it holds few distinct values
    /// (<see cref="TryDictionary"/>), whichever is shortest. An ascending block stays a frame, stepped or not, or takes
    /// Elias-Fano form where that is shorter (<see cref="TryEliasFano"/>), so that a search reads its values in place.
    /// </summary>
    private bool TryIntegers(Span<byte> block, Span<long> values, int plainLength)
    {
        BlockStatistics statistics = BlockStatistics.Of(values, _kind == SealedValueKind.Signed);
        PackPlan plan = PackPlan.Of(statistics, values.Length);
        int unstepped = PackedLength(plan, values.Length, plainLength);
        ulong step = CommonStep(values, statistics.Min);
        int steppedWidth = BitPacking.WidthOf((ulong)(statistics.Max - statistics.Min) / step);
        int stepped = step > 1 && step <= long.MaxValue && steppedWidth <= BitPacking.MaximumWidth
            ? BitPacking.LengthOf(values.Length, steppedWidth) : int.MaxValue;
        int framed = Math.Min(unstepped, stepped);
        if (statistics.Ascending && step <= long.MaxValue && TryEliasFano(block, values, statistics, step, framed))
        {
            return true;
        }

        if (!statistics.Ascending)
        {
            bool patched = TryPatch(block, values, statistics, framed);
            int shortest = patched ? BinaryPrimitives.ReadInt32LittleEndian(block[SealedLayout.BlockPayloadLengthOffset..]) : framed;
            if (TryDictionary(block, values, statistics, SealedCodec.IntegerDictionary, 0, shortest) || patched)
            {
                return true;
            }
        }

        if (stepped < unstepped)
        {
            WriteStepped(block, values, statistics.Min, step, stepped);
            return true;
        }

        return TryPack(block, values, plan, SealedCodec.FrameOfReference, 0, plainLength);
    }

    /// <summary>
    /// The largest integer that divides every value's offset from <paramref name="min"/> (1 where there is none, or
    /// where all are equal). Most blocks without one show it within their first few values; a block of times a
    /// millisecond apart stored as 100 ns ticks costs a remainder a value.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static ulong CommonStep(ReadOnlySpan<long> values, long min)
    {
        ulong step = 0;
        ulong reciprocal = 0;
        foreach (long value in values)
        {
            ulong offset = (ulong)(value - min);
            if (step == 0)
            {
                step = offset;
                reciprocal = ReciprocalOf(step);
                continue;
            }

            if (QuotientOf(offset, reciprocal) * step != offset)
            {
                step = GreatestCommonDivisor(step, offset);
                if (step == 1)
                {
                    return 1;
                }

                reciprocal = ReciprocalOf(step);
            }
        }

        return Math.Max(step, 1);
    }

    /// <summary>
    /// <c>ceil(2^64 / step)</c> (0 for a step of 0 or 1): the high half of its product with an offset is the offset
    /// over the step exactly where the step divides the offset, and never equal times the step where it does not,
    /// which spares a division a value.
    /// </summary>
    private static ulong ReciprocalOf(ulong step) => step <= 1 ? 0 : (ulong.MaxValue / step) + 1;

    /// <summary>The offset over the step where the step divides it (<see cref="ReciprocalOf"/>); 0 for a step of 0 or 1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong QuotientOf(ulong offset, ulong reciprocal) => Math.BigMul(offset, reciprocal, out _);

    private static ulong GreatestCommonDivisor(ulong a, ulong b)
    {
        while (b != 0)
        {
            (a, b) = (b, a % b);
        }

        return a;
    }

    /// <summary>
    /// <paramref name="values"/> as a stepped frame: each the base plus a whole number of <paramref name="step"/>s (at
    /// most <see cref="long.MaxValue"/>), the <paramref name="length"/> bytes of a payload of at most 56-bit offsets.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void WriteStepped(Span<byte> block, ReadOnlySpan<long> values, long min, ulong step, int length)
    {
        int count = values.Length;
        Span<ulong> offsets = _offsets.AsSpan(0, count);
        ulong widest = 0;
        ulong reciprocal = ReciprocalOf(step);
        for (int i = 0; i < count; i++)
        {
            offsets[i] = QuotientOf((ulong)(values[i] - min), reciprocal);
            widest |= offsets[i];
        }

        int width = BitPacking.WidthOf(widest);
        WriteHeader(block, SealedCodec.SteppedFrameOfReference, width, count, length, min, min + ((long)step * (long)offsets[0]),
            BitConverter.Int64BitsToDouble((long)step));
        BitPacking.Pack(offsets, width, block.Slice(SealedLayout.BlockHeaderSize, length));
    }

    /// <summary>
    /// Ascending <paramref name="values"/> in Elias-Fano form, each its number of <paramref name="step"/>s above the
    /// first, where that is shorter than the <paramref name="framed"/> bytes of the block's frame: the gaps of a busy
    /// day's times vary too much for a frame of deltas, and their offsets from the first grow to the widest's bits.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private bool TryEliasFano(Span<byte> block, ReadOnlySpan<long> values, BlockStatistics statistics, ulong step, int framed)
    {
        int count = values.Length;
        ulong largest = (ulong)(statistics.Max - statistics.Min) / step;
        // Compared as the file holds them, padded to 8 bytes: a short last block saves nothing by a few bytes less.
        int lowWidth = EliasFano.LowWidthFor(count, largest, out int length);
        if (lowWidth < 0 || SealedLayout.Align8(length) >= framed)
        {
            return false;
        }

        Span<ulong> steps = _offsets.AsSpan(0, count);
        ulong reciprocal = ReciprocalOf(step);
        for (int i = 0; i < count; i++)
        {
            ulong offset = (ulong)(values[i] - statistics.Min);
            steps[i] = step == 1 ? offset : QuotientOf(offset, reciprocal);
        }

        int upperBits = (int)(largest >> lowWidth) + count;
        WriteHeader(block, SealedCodec.EliasFano, lowWidth, count, length, statistics.Min, upperBits,
            BitConverter.Int64BitsToDouble((long)step));
        EliasFano.Write(steps, lowWidth, upperBits, _highs, block.Slice(SealedLayout.BlockHeaderSize, length));
        return true;
    }

    /// <summary>
    /// The payload of <paramref name="plan"/>, or the <paramref name="plainLength"/> plain bytes where that is shorter
    /// or the plan too wide.
    /// </summary>
    private static int PackedLength(PackPlan plan, int count, int plainLength) =>
        plan.Width <= BitPacking.MaximumWidth ? Math.Min(plainLength, BitPacking.LengthOf(count, plan.Width)) : plainLength;

    /// <summary>
    /// <paramref name="values"/> (integers, or a float block's ticks or decimals) as indexes into a dictionary of their
    /// distinct values, where that is shorter than the <paramref name="shortest"/> bytes the block takes otherwise.
    /// Reading a value in place costs a second packed read; decoding the block, one entry copied a value.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private bool TryDictionary(Span<byte> block, ReadOnlySpan<long> values, BlockStatistics statistics, SealedCodec codec, double step,
        int shortest)
    {
        // Below 3 bits a frame leaves an index nothing to save; indexes as wide as the shortest payload's values cannot
        // be shorter, so a dictionary is given up at the first value past the entries narrower indexes can name.
        int count = values.Length;
        int entryWidth = BitPacking.WidthOf((ulong)(statistics.Max - statistics.Min));
        int widestIndex = 0;
        while (widestIndex < 8 && BitPacking.LengthOf(count, widestIndex + 1) < shortest)
        {
            widestIndex++;
        }

        if (entryWidth < 3 || entryWidth > BitPacking.MaximumWidth || widestIndex == 0
            || !_dictionary.TryBuild(values, statistics.Min, limit: 1 << widestIndex))
        {
            return false;
        }

        ReadOnlySpan<ulong> entries = _dictionary.Entries;
        int indexWidth = BitPacking.WidthOf((ulong)entries.Length - 1);
        int indexBytes = BitPacking.LengthOf(count, indexWidth);
        int length = indexBytes + BitPacking.LengthOf(entries.Length, entryWidth);
        if (length >= shortest)
        {
            return false;
        }

        WriteHeader(block, codec, indexWidth, count, length, statistics.Min, SealedBlock.PartFields(entries.Length, entryWidth), step);
        Span<byte> payload = block.Slice(SealedLayout.BlockHeaderSize, length);
        BitPacking.Pack(_dictionary.Indexes, indexWidth, payload);
        BitPacking.Pack(entries, entryWidth, payload[indexBytes..]);
        return true;
    }

    /// <summary>
    /// <paramref name="values"/> as patched frame of reference, where that saves at least an eighth of the
    /// <paramref name="unpatched"/> bytes the block would take otherwise: reading a value in place then searches the
    /// patches, and decoding the block makes a second pass over them, which a few bytes would not repay.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private bool TryPatch(Span<byte> block, ReadOnlySpan<long> values, BlockStatistics statistics, int unpatched)
    {
        // Below 4 bits a frame has no outliers worth a list of positions.
        int width = BitPacking.WidthOf((ulong)(statistics.Max - statistics.Min));
        if (width < 4)
        {
            return false;
        }

        int count = values.Length;
        Span<ulong> offsets = _offsets.AsSpan(0, count);
        Subtract(values, default, statistics.Min, offsets);
        int worthPatching = unpatched - (unpatched >> 3);
        if (PatchPlan.Of(offsets, width, EstimateStride).Length > worthPatching)
        {
            return false;
        }

        PatchPlan patch = PatchPlan.Of(offsets, width, stride: 1);
        if (patch.Length > worthPatching)
        {
            return false;
        }

        Span<ulong> positions = _positions.AsSpan(0, patch.Patches);
        Span<ulong> highs = _highs.AsSpan(0, patch.Patches);
        ulong lowMask = (1UL << patch.LowWidth) - 1;
        int found = 0;
        for (int i = 0; i < count; i++)
        {
            ulong high = offsets[i] >> patch.LowWidth;
            if (high != 0)
            {
                positions[found] = (ulong)i;
                highs[found++] = high;
                offsets[i] &= lowMask;
            }
        }

        WriteHeader(block, SealedCodec.PatchedFrameOfReference, patch.LowWidth, count, patch.Length, statistics.Min,
            SealedBlock.PartFields(patch.Patches, patch.PatchWidth), 0);
        Span<byte> payload = block.Slice(SealedLayout.BlockHeaderSize, patch.Length);
        int lows = BitPacking.LengthOf(count, patch.LowWidth);
        int positionBytes = BitPacking.LengthOf(patch.Patches, PatchPlan.PositionWidth);
        BitPacking.Pack(offsets, patch.LowWidth, payload);
        BitPacking.Pack(positions, PatchPlan.PositionWidth, payload[lows..]);
        BitPacking.Pack(highs, patch.PatchWidth, payload[(lows + positionBytes)..]);
        return true;
    }

    /// <summary>
    /// Floating-point values as ticks of a power of two or as decimals over a power of ten, whichever packs narrower,
    /// then packed or, where the block does not ascend and that is shorter, as a dictionary of those integers.
    /// A step of an eighth or coarser always packs narrower than a power of ten (which scales by 10 or more), so the
    /// decimals are tried only below it: quarter points are not scaled twice.
    /// </summary>
    private bool TryFloats(Span<byte> block, ReadOnlySpan<double> items, bool single, Span<long> values, int plainLength)
    {
        bool ticks = TryTicks(items, single ? TickLimitSingle : TickLimitDouble, values, out double step);
        BlockStatistics tickStatistics = ticks ? BlockStatistics.Of(values, signed: true) : default;
        PackPlan tickPlan = ticks ? PackPlan.Of(tickStatistics, values.Length) : default;
        if (!ticks || step < 0.125)
        {
            Span<long> scaled = _scaled.AsSpan(0, values.Length);
            if (DecimalScaling.TryScale(items, single, scaled, out double divisor) &&
                BlockStatistics.Of(scaled, signed: true) is var decimalStatistics &&
                PackPlan.Of(decimalStatistics, values.Length) is var decimalPlan && (!ticks || decimalPlan.Width < tickPlan.Width))
            {
                return TryPackOrDictionary(block, scaled, decimalStatistics, decimalPlan, SealedCodec.Decimals, divisor, plainLength);
            }
        }

        return ticks && TryPackOrDictionary(block, values, tickStatistics, tickPlan, SealedCodec.Ticks, step, plainLength);
    }

    /// <summary>A float block's integers packed as <paramref name="plan"/> says, or as a dictionary where that is shorter.</summary>
    private bool TryPackOrDictionary(Span<byte> block, Span<long> values, BlockStatistics statistics, PackPlan plan, SealedCodec codec,
        double step, int plainLength)
    {
        SealedCodec dictionary = codec == SealedCodec.Ticks ? SealedCodec.TickDictionary : SealedCodec.DecimalDictionary;
        int packed = PackedLength(plan, values.Length, plainLength);
        return (!statistics.Ascending && TryDictionary(block, values, statistics, dictionary, step, packed))
            || TryPack(block, values, plan, codec, step, plainLength);
    }

    /// <summary>
    /// <paramref name="values"/> packed as <paramref name="plan"/> says; false when that is not smaller than the
    /// <paramref name="plainLength"/> plain bytes.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private bool TryPack(Span<byte> block, Span<long> values, PackPlan plan, SealedCodec codec, double step, int plainLength)
    {
        int count = values.Length;
        int width = plan.Width;
        int payload = BitPacking.LengthOf(count, width);
        if (width > BitPacking.MaximumWidth || payload >= plainLength)
        {
            return false;
        }

        Span<ulong> offsets = _offsets.AsSpan(0, count);
        if (plan.Deltas)
        {
            Subtract(values[1..], values[..^1], plan.Base, offsets[1..]);
            offsets[0] = 0;
        }
        else
        {
            Subtract(values, default, plan.Base, offsets);
        }

        SealedCodec chosen = (codec, plan.Deltas) switch
        {
            (SealedCodec.Ticks, true) => SealedCodec.TickDeltas,
            (SealedCodec.Decimals, true) => SealedCodec.DecimalDeltas,
            (_, true) => SealedCodec.DeltaFrameOfReference,
            _ => codec,
        };
        WriteHeader(block, chosen, width, count, payload, plan.Base, values[0], step);
        BitPacking.Pack(offsets, width, block.Slice(SealedLayout.BlockHeaderSize, payload));
        return true;
    }

    /// <summary>
    /// <paramref name="values"/> less <paramref name="before"/> (each value's predecessor; empty for none) less
    /// <paramref name="baseValue"/>, into <paramref name="offsets"/>: the packed offsets of either codec.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void Subtract(ReadOnlySpan<long> values, ReadOnlySpan<long> before, long baseValue, Span<ulong> offsets)
    {
        Span<long> into = MemoryMarshal.Cast<ulong, long>(offsets);
        int i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var frame = new Vector<long>(baseValue);
            for (; i + Vector<long>.Count <= values.Length; i += Vector<long>.Count)
            {
                Vector<long> value = new(values[i..]);
                (before.IsEmpty ? value - frame : value - new Vector<long>(before[i..]) - frame).CopyTo(into[i..]);
            }
        }

        for (; i < values.Length; i++)
        {
            into[i] = values[i] - (before.IsEmpty ? 0 : before[i]) - baseValue;
        }
    }

    /// <summary>
    /// Values as whole multiples of the largest power of two that divides them all: false where one is -0.0, NaN,
    /// infinite, would need a tick of <paramref name="tickLimit"/> or more, or does not come back bit for bit.
    /// Singles come here widened, which is exact: their ticks times the step give their doubles back exactly when
    /// the product in single precision, as the decoder takes it, gives the singles back.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static bool TryTicks(ReadOnlySpan<double> values, long tickLimit, Span<long> ticks, out double step)
    {
        ReadOnlySpan<ulong> bits = MemoryMarshal.Cast<double, ulong>(values);
        int exponent = int.MaxValue;
        foreach (ulong value in bits)
        {
            if ((value << 1) == 0)
            {
                if (value != 0)
                {
                    step = 0;
                    return false;
                }

                continue;
            }

            int biased = (int)(value >> 52) & 0x7FF;
            if (biased == 0x7FF)
            {
                step = 0;
                return false;
            }

            ulong mantissa = value & ((1UL << 52) - 1);
            int lowest = biased == 0 ? -1074 : biased - 1075;
            mantissa |= biased == 0 ? 0 : 1UL << 52;
            exponent = Math.Min(exponent, lowest + BitOperations.TrailingZeroCount(mantissa));
        }

        exponent = exponent == int.MaxValue ? 0 : exponent;
        step = Math.ScaleB(1.0, exponent);

        // A product by a normal power of two is exact; ScaleB covers the steps whose inverse is not one.
        double inverse = Math.ScaleB(1.0, -exponent);
        bool multiply = double.IsNormal(inverse);
        for (int i = 0; i < values.Length; i++)
        {
            double tick = multiply ? values[i] * inverse : Math.ScaleB(values[i], -exponent);
            if (!(Math.Abs(tick) < tickLimit))
            {
                return false;
            }

            ticks[i] = (long)tick;
            if (BitConverter.DoubleToInt64Bits(ticks[i] * step) != (long)bits[i])
            {
                return false;
            }
        }

        return true;
    }

    private ReadOnlySpan<double> Widen(ReadOnlySpan<byte> items)
    {
        ReadOnlySpan<float> singles = MemoryMarshal.Cast<byte, float>(items);
        Span<double> widened = _widened.AsSpan(0, singles.Length);
        for (int i = 0; i < singles.Length; i++)
        {
            widened[i] = singles[i];
        }

        return widened;
    }

    private static void WriteHeader(Span<byte> block, SealedCodec codec, int width, int count, int payload, long baseValue, long first, double step)
    {
        block[..SealedLayout.BlockHeaderSize].Clear();
        block[0] = (byte)codec;
        block[SealedLayout.BlockWidthOffset] = (byte)width;
        BinaryPrimitives.WriteUInt16LittleEndian(block[SealedLayout.BlockValuesCountOffset..], (ushort)count);
        BinaryPrimitives.WriteInt32LittleEndian(block[SealedLayout.BlockPayloadLengthOffset..], payload);
        BinaryPrimitives.WriteInt64LittleEndian(block[SealedLayout.BlockBaseOffset..], baseValue);
        BinaryPrimitives.WriteInt64LittleEndian(block[SealedLayout.BlockFirstOffset..], first);
        BinaryPrimitives.WriteInt64LittleEndian(block[SealedLayout.BlockStepOffset..], BitConverter.DoubleToInt64Bits(step));
    }
}
