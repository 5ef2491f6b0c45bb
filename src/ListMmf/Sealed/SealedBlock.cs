using System;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Sealed;

/// <summary>
/// One block of a sealed file in the mapping, its header checked against the space the directory gives it
/// (<see cref="SealedFile.Block"/>): every read below stays inside the block.
/// </summary>
internal readonly unsafe struct SealedBlock
{
    private SealedBlock(byte* start, SealedCodec codec, int width, int count, int payloadLength, long baseValue, long first, double step)
    {
        Start = start;
        Codec = codec;
        Width = width;
        Count = count;
        PayloadLength = payloadLength;
        Base = baseValue;
        First = first;
        Step = step;
    }

    /// <summary>
    /// The block whose header starts at <paramref name="start"/>, with the fields its header gives: the one reader of
    /// a block header. Whether they fit the file is the caller's to check (<see cref="SealedFile.Block"/>).
    /// </summary>
    public static SealedBlock At(byte* start) => new(
        start,
        (SealedCodec)start[0],
        start[SealedLayout.BlockWidthOffset],
        *(ushort*)(start + SealedLayout.BlockValuesCountOffset),
        *(int*)(start + SealedLayout.BlockPayloadLengthOffset),
        *(long*)(start + SealedLayout.BlockBaseOffset),
        *(long*)(start + SealedLayout.BlockFirstOffset),
        *(double*)(start + SealedLayout.BlockStepOffset));

    /// <summary>The block's header; the payload follows it.</summary>
    public byte* Start { get; }

    public SealedCodec Codec { get; }

    /// <summary>The bits of each packed value.</summary>
    public int Width { get; }

    /// <summary>The values the block holds.</summary>
    public int Count { get; }

    public int PayloadLength { get; }

    /// <summary>The frame of reference: what every packed value is added to.</summary>
    public long Base { get; }

    /// <summary>
    /// The first value in the integer domain (the start of the deltas); for <see cref="SealedCodec.PatchedFrameOfReference"/>,
    /// <see cref="Patches"/> and <see cref="PatchWidth"/>; for a dictionary, <see cref="Entries"/> and <see cref="EntryWidth"/>.
    /// </summary>
    public long First { get; }

    /// <summary>How many values of a patched block are wider than <see cref="Width"/> (the header's bytes 16-17).</summary>
    public int Patches => PartCount;

    /// <summary>The bits of each patch's high part (the header's byte 18).</summary>
    public int PatchWidth => PartWidth;

    /// <summary>How many distinct values a dictionary block holds (the header's bytes 16-17).</summary>
    public int Entries => PartCount;

    /// <summary>The bits of each of a dictionary's packed offsets from the base (the header's byte 18).</summary>
    public int EntryWidth => PartWidth;

    /// <summary>Whether the block's values are indexes into a dictionary of its distinct values.</summary>
    public bool IsDictionary => Codec is SealedCodec.IntegerDictionary or SealedCodec.TickDictionary or SealedCodec.DecimalDictionary;

    /// <summary>A dictionary block's packed entries, after its indexes.</summary>
    public byte* DictionaryEntries => Payload + BitPacking.LengthOf(Count, Width);

    private int PartCount => (int)(First & 0xFFFF);

    private int PartWidth => (int)((First >> 16) & 0xFF);

    /// <summary>A patched block's packed positions, after its low parts.</summary>
    public byte* PatchPositions => Payload + BitPacking.LengthOf(Count, Width);

    /// <summary>A patched block's packed high parts, after its positions.</summary>
    public byte* PatchHighs => PatchPositions + BitPacking.LengthOf(Patches, PatchPlan.PositionWidth);

    /// <summary>
    /// What a patched or dictionary block's header holds where the others hold their first value: how many patches or
    /// entries follow the packed values, and the bits of each.
    /// </summary>
    public static long PartFields(int count, int width) => (long)(ushort)count | ((long)(byte)width << 16);

    /// <summary>
    /// The power of two a tick stands for (<see cref="SealedCodec.Ticks"/>), or the power of ten the integers are
    /// divided by (<see cref="SealedCodec.Decimals"/>).
    /// </summary>
    public double Step { get; }

    /// <summary>
    /// A stepped frame's or an Elias-Fano block's step (<see cref="SealedCodec.SteppedFrameOfReference"/>,
    /// <see cref="SealedCodec.EliasFano"/>): the header's step field as an integer.
    /// </summary>
    public long IntegerStep => BitConverter.DoubleToInt64Bits(Step);

    /// <summary>An Elias-Fano block's upper bitmap's bits (the header's bytes 16-19): its last set bit's position plus one.</summary>
    public int UpperBits => (int)(uint)First;

    /// <summary>An Elias-Fano block's upper bitmap, after its packed low bits.</summary>
    public ulong* UpperWords => (ulong*)(Payload + BitPacking.LengthOf(Count, Width));

    /// <summary>An Elias-Fano block's samples, after its upper bitmap.</summary>
    public ushort* Samples => (ushort*)(UpperWords + EliasFano.WordsOf(UpperBits));

    /// <summary>
    /// The steps above the base of an Elias-Fano block's value <paramref name="index"/>: its high part (its bit's
    /// position less the values before it) above its low bits.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ulong EliasFanoSteps(int index) =>
        ((ulong)(EliasFano.Select(UpperWords, Samples, index) - index) << Width) | BitPacking.Get(Payload, Width, index);

    /// <summary>
    /// An Elias-Fano block's largest number of steps, its last value's, from its header and one packed read: the bitmap
    /// has one zero a high part, so the last value's high part is its bits less its values.
    /// </summary>
    public ulong EliasFanoLargestSteps => ((ulong)(UpperBits - Count) << Width) | BitPacking.Get(Payload, Width, Count - 1);

    /// <summary>
    /// How many of an Elias-Fano block's values are fewer than <paramref name="limit"/> steps above its base (at most
    /// its largest's steps), read in place: the values whose high part is below the limit's lie before the bitmap's
    /// zero of that number, found from the last sample before it by counting the zeros of a word or two; then the few
    /// values of the limit's own high part are compared by their low bits.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public int EliasFanoBefore(ulong limit)
    {
        ulong* words = UpperWords;
        int width = Width;
        int bucket = (int)(limit >> width);
        ulong lowLimit = limit & ((1UL << width) - 1);
        int start = 0;
        if (bucket > 0)
        {
            // Sample j's value (value 64j) has sample[j] - 64j zeros before its bit: its high part.
            ushort* samples = Samples;
            int low = 0;
            for (int high = EliasFano.SamplesOf(Count); low < high;)
            {
                int middle = (low + high + 1) >>> 1;
                if (samples[middle - 1] - (middle * EliasFano.SampleEvery) < bucket)
                {
                    low = middle;
                }
                else
                {
                    high = middle - 1;
                }
            }

            int position = low == 0 ? 0 : samples[low - 1];
            int zerosLeft = bucket - (position - (low * EliasFano.SampleEvery));
            int word = position >> 6;
            ulong zeros = ~words[word] & (ulong.MaxValue << (position & 63));
            for (int passed = BitOperations.PopCount(zeros); zerosLeft > passed; passed = BitOperations.PopCount(zeros))
            {
                zerosLeft -= passed;
                zeros = ~words[++word];
            }

            start = (word << 6) + EliasFano.SelectInWord(zeros, zerosLeft - 1) + 1;
        }

        // The bucket's values are the set bits from its start; a zero ends it, and every value after has more steps.
        byte* lows = Payload;
        int count = Count;
        int i = start - bucket;
        for (int at = start; i < count && (words[at >> 6] & (1UL << (at & 63))) != 0; i++, at++)
        {
            if (BitPacking.Get(lows, width, i) >= lowLimit)
            {
                return i;
            }
        }

        return i;
    }

    public byte* Payload => Start + SealedLayout.BlockHeaderSize;

    /// <summary>Whether value <c>i</c> is read in place, without decoding those before it.</summary>
    public bool IsRandomAccess => Codec is SealedCodec.Plain or SealedCodec.FrameOfReference or SealedCodec.Ticks or SealedCodec.Decimals
        or SealedCodec.PatchedFrameOfReference or SealedCodec.SteppedFrameOfReference or SealedCodec.EliasFano || IsDictionary;

    /// <summary>
    /// Value <paramref name="index"/> in the integer domain (<see cref="SealedCodec.FrameOfReference"/>,
    /// <see cref="SealedCodec.Ticks"/> or <see cref="SealedCodec.Decimals"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long DomainAt(int index) => Base + (long)BitPacking.Get(Payload, Width, index);

    /// <summary>Value <paramref name="index"/> of a stepped frame (<see cref="SealedCodec.SteppedFrameOfReference"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long SteppedAt(int index) => Base + (IntegerStep * (long)BitPacking.Get(Payload, Width, index));

    /// <summary>Dictionary entry <paramref name="entry"/> in the integer domain.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long EntryAt(int entry) => Base + (long)BitPacking.Get(DictionaryEntries, EntryWidth, entry);

    /// <summary>
    /// Writes the block's values, as items of <paramref name="itemSize"/> bytes of <paramref name="kind"/>, to
    /// <paramref name="destination"/> (<see cref="Count"/> items).
    /// </summary>
    public void Decode(byte* destination, int itemSize, SealedValueKind kind)
    {
        if (Codec == SealedCodec.Plain)
        {
            Buffer.MemoryCopy(Payload, destination, (long)Count * itemSize, (long)Count * itemSize);
            return;
        }

        if (IsDictionary)
        {
            DecodeDictionary(destination, itemSize, kind);
            return;
        }

        if (Codec == SealedCodec.SteppedFrameOfReference)
        {
            DecodeStepped(destination, itemSize);
            return;
        }

        if (Codec == SealedCodec.EliasFano)
        {
            DecodeEliasFano(destination, itemSize);
            return;
        }

        bool deltas = Codec is SealedCodec.DeltaFrameOfReference or SealedCodec.TickDeltas or SealedCodec.DecimalDeltas;
        if (Codec is SealedCodec.Decimals or SealedCodec.DecimalDeltas)
        {
            if (kind == SealedValueKind.Double)
            {
                PackedKernels.Decode(Payload, Width, Count, Base, deltas, First, new PackedKernels.Int64Sink((long*)destination));
                DecimalScaling.DivideInPlace((long*)destination, Count, Step);
            }
            else
            {
                var singles = new PackedKernels.SingleQuotientSink((float*)destination, (float)Step);
                PackedKernels.Decode(Payload, Width, Count, Base, deltas, First, singles);
            }
        }
        else if (Codec is SealedCodec.Ticks or SealedCodec.TickDeltas)
        {
            if (kind == SealedValueKind.Double)
            {
                PackedKernels.Decode(Payload, Width, Count, Base, deltas, First, new PackedKernels.DoubleSink((double*)destination, Step));
            }
            else
            {
                PackedKernels.Decode(Payload, Width, Count, Base, deltas, First, new PackedKernels.SingleSink((float*)destination, (float)Step));
            }
        }
        else if (itemSize == sizeof(int))
        {
            PackedKernels.Decode(Payload, Width, Count, Base, deltas, First, new PackedKernels.Int32Sink((int*)destination));
        }
        else if (itemSize == sizeof(long))
        {
            PackedKernels.Decode(Payload, Width, Count, Base, deltas, First, new PackedKernels.Int64Sink((long*)destination));
        }
        else
        {
            PackedKernels.Decode(Payload, Width, Count, Base, deltas, First, new PackedKernels.NarrowSink(destination, itemSize));
        }

        if (Codec == SealedCodec.PatchedFrameOfReference)
        {
            Patch(destination, itemSize);
        }
    }

    /// <summary>A stepped frame's items: its offsets unpacked, each times the step plus the base.</summary>
    private void DecodeStepped(byte* destination, int itemSize)
    {
        switch (itemSize)
        {
            case sizeof(long):
                PackedKernels.Decode(Payload, Width, Count, 0, false, 0, new PackedKernels.SteppedSink<PackedKernels.Int64Sink>(
                    new PackedKernels.Int64Sink((long*)destination), Base, IntegerStep));
                break;
            case sizeof(int):
                PackedKernels.Decode(Payload, Width, Count, 0, false, 0, new PackedKernels.SteppedSink<PackedKernels.Int32Sink>(
                    new PackedKernels.Int32Sink((int*)destination), Base, IntegerStep));
                break;
            default:
                PackedKernels.Decode(Payload, Width, Count, 0, false, 0, new PackedKernels.SteppedSink<PackedKernels.NarrowSink>(
                    new PackedKernels.NarrowSink(destination, itemSize), Base, IntegerStep));
                break;
        }
    }

    /// <summary>
    /// An Elias-Fano block's items: its low bits unpacked as 64-bit values (into the items where they are 64-bit),
    /// then the bitmap walked a set bit at a time, each bit's position less its index the high part above them, each
    /// value stored as its item by the sink of the item's size.
    /// </summary>
    private void DecodeEliasFano(byte* destination, int itemSize)
    {
        long* lows = stackalloc long[itemSize == sizeof(long) ? 0 : SealedLayout.BlockValues];
        switch (itemSize)
        {
            case sizeof(long):
                WalkEliasFano((long*)destination, new PackedKernels.Int64Sink((long*)destination));
                break;
            case sizeof(int):
                WalkEliasFano(lows, new PackedKernels.Int32Sink((int*)destination));
                break;
            default:
                WalkEliasFano(lows, new PackedKernels.NarrowSink(destination, itemSize));
                break;
        }
    }

    /// <summary>Unpacks the low bits into <paramref name="lows"/>, then puts each value into <paramref name="sink"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void WalkEliasFano<TSink>(long* lows, TSink sink)
        where TSink : PackedKernels.ISink
    {
        PackedKernels.Decode(Payload, Width, Count, 0, false, 0, new PackedKernels.Int64Sink(lows));
        ulong* words = UpperWords;
        int width = Width;
        int count = Count;
        long baseValue = Base;
        long step = IntegerStep;
        for (int word = 0, i = 0; i < count; word++)
        {
            for (ulong bits = words[word]; bits != 0 && i < count; bits &= bits - 1, i++)
            {
                ulong high = (ulong)((word << 6) + BitOperations.TrailingZeroCount(bits) - i);
                sink.Put(i, baseValue + (step * (long)((high << width) | (ulong)lows[i])));
            }
        }
    }

    /// <summary>
    /// A dictionary block's items: its entries made items once, then each value's item copied by its index. The rules
    /// (<see cref="SealedBlockRules"/>) hold every index below <see cref="Entries"/> before the block is decoded.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void DecodeDictionary(byte* destination, int itemSize, SealedValueKind kind)
    {
        int entries = Entries;
        byte* table = stackalloc byte[entries * itemSize];
        for (int entry = 0; entry < entries; entry++)
        {
            WriteItem(EntryAt(entry), table + (entry * itemSize), itemSize, kind);
        }

        switch (itemSize)
        {
            case sizeof(long):
                PackedKernels.Decode(Payload, Width, Count, 0, false, 0, new PackedKernels.Gather64Sink((long*)table, (long*)destination));
                break;
            case sizeof(int):
                PackedKernels.Decode(Payload, Width, Count, 0, false, 0, new PackedKernels.Gather32Sink((int*)table, (int*)destination));
                break;
            default:
                for (int i = 0; i < Count; i++)
                {
                    Buffer.MemoryCopy(table + ((long)BitPacking.Get(Payload, Width, i) * itemSize), destination + ((long)i * itemSize),
                        itemSize, itemSize);
                }

                break;
        }
    }

    /// <summary>
    /// Whether a patched block's positions ascend strictly within the block, as the encoder writes them (<c>verify</c>
    /// checks it; a reader skips a position past the block rather than write outside its destination).
    /// </summary>
    public bool PatchesInOrder()
    {
        byte* positions = PatchPositions;
        int previous = -1;
        for (int patch = 0; patch < Patches; patch++)
        {
            int position = (int)BitPacking.Get(positions, PatchPlan.PositionWidth, patch);
            if (position <= previous || position >= Count)
            {
                return false;
            }

            previous = position;
        }

        return true;
    }

    /// <summary>
    /// Value <paramref name="index"/> of a patched block in the integer domain: its low bits, and its high bits where a
    /// patch names it (a binary search of the patches' positions).
    /// </summary>
    public long PatchedAt(int index)
    {
        byte* positions = PatchPositions;
        ulong value = BitPacking.Get(Payload, Width, index);
        int low = 0;
        int high = Patches - 1;
        while (low <= high)
        {
            int middle = (low + high) >>> 1;
            int position = (int)BitPacking.Get(positions, PatchPlan.PositionWidth, middle);
            if (position == index)
            {
                return Base + (long)(value | (BitPacking.Get(PatchHighs, PatchWidth, middle) << Width));
            }

            if (position < index)
            {
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }

        return Base + (long)value;
    }

    /// <summary>Writes a patched block's wide values over the low parts the frame-of-reference decode wrote.</summary>
    private void Patch(byte* destination, int itemSize)
    {
        switch (itemSize)
        {
            case sizeof(long):
                AddHighParts((long*)destination);
                break;
            case sizeof(int):
                AddHighParts((int*)destination);
                break;
            case sizeof(short):
                AddHighParts((short*)destination);
                break;
            case sizeof(byte):
                AddHighParts(destination);
                break;
            default:
                NarrowPatches(destination, itemSize);
                break;
        }
    }

    /// <summary>
    /// Adds each patch's high part, shifted above the low bits, to the item the frame-of-reference decode wrote: that
    /// item is the base plus the low bits, and the sum wraps in the item's width as the whole value's low bytes do.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void AddHighParts<TItem>(TItem* items)
        where TItem : unmanaged, IBinaryInteger<TItem>
    {
        byte* positions = PatchPositions;
        byte* highs = PatchHighs;
        int patches = Patches;
        int patchWidth = PatchWidth;
        int width = Width;
        uint count = (uint)Count;
        for (int patch = 0; patch < patches; patch++)
        {
            uint position = (uint)BitPacking.Get(positions, PatchPlan.PositionWidth, patch);
            if (position < count)
            {
                items[position] += TItem.CreateTruncating(BitPacking.Get(highs, patchWidth, patch) << width);
            }
        }
    }

    /// <summary>The patches of items of 3, 5, 6 or 7 bytes, each whole value written again.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void NarrowPatches(byte* destination, int itemSize)
    {
        byte* positions = PatchPositions;
        byte* highs = PatchHighs;
        for (int patch = 0; patch < Patches; patch++)
        {
            int position = (int)BitPacking.Get(positions, PatchPlan.PositionWidth, patch);
            if (position < Count)
            {
                ulong value = BitPacking.Get(Payload, Width, position) | (BitPacking.Get(highs, PatchWidth, patch) << Width);
                SealedValues.Narrow(destination + ((long)position * itemSize), itemSize, Base + (long)value);
            }
        }
    }

    /// <summary>
    /// Writes the block's first item to <paramref name="destination"/>, whatever its codec: the item the directory
    /// holds for the block.
    /// </summary>
    public void FirstItem(byte* destination, int itemSize, SealedValueKind kind)
    {
        if (Codec is SealedCodec.DeltaFrameOfReference or SealedCodec.TickDeltas or SealedCodec.DecimalDeltas)
        {
            WriteItem(First, destination, itemSize, kind);
        }
        else
        {
            ItemAt(0, destination, itemSize, kind);
        }
    }

    /// <summary>
    /// Writes value <paramref name="index"/> as an item to <paramref name="destination"/>; the block must be
    /// <see cref="IsRandomAccess"/>.
    /// </summary>
    public void ItemAt(int index, byte* destination, int itemSize, SealedValueKind kind)
    {
        switch (Codec)
        {
            case SealedCodec.Plain:
                Buffer.MemoryCopy(Payload + ((long)index * itemSize), destination, itemSize, itemSize);
                break;
            case SealedCodec.PatchedFrameOfReference:
                WriteItem(PatchedAt(index), destination, itemSize, kind);
                break;
            case SealedCodec.IntegerDictionary or SealedCodec.TickDictionary or SealedCodec.DecimalDictionary:
                WriteItem(EntryAt((int)BitPacking.Get(Payload, Width, index)), destination, itemSize, kind);
                break;
            case SealedCodec.SteppedFrameOfReference:
                WriteItem(SteppedAt(index), destination, itemSize, kind);
                break;
            case SealedCodec.EliasFano:
                WriteItem(Base + (IntegerStep * (long)EliasFanoSteps(index)), destination, itemSize, kind);
                break;
            default:
                WriteItem(DomainAt(index), destination, itemSize, kind);
                break;
        }
    }

    /// <summary>
    /// Writes the item of <paramref name="value"/>, a value of this block in the integer domain: times the step for
    /// the tick codecs, over it for the decimal codecs, its low bytes for the integer codecs.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteItem(long value, byte* destination, int itemSize, SealedValueKind kind)
    {
        switch (Codec)
        {
            case SealedCodec.Ticks or SealedCodec.TickDeltas or SealedCodec.TickDictionary when kind == SealedValueKind.Double:
                *(double*)destination = value * Step;
                break;
            case SealedCodec.Ticks or SealedCodec.TickDeltas or SealedCodec.TickDictionary:
                *(float*)destination = value * (float)Step;
                break;
            case SealedCodec.Decimals or SealedCodec.DecimalDeltas or SealedCodec.DecimalDictionary when kind == SealedValueKind.Double:
                *(double*)destination = DecimalScaling.Decode(value, Step);
                break;
            case SealedCodec.Decimals or SealedCodec.DecimalDeltas or SealedCodec.DecimalDictionary:
                *(float*)destination = DecimalScaling.Decode(value, (float)Step);
                break;
            default:
                SealedValues.Narrow(destination, itemSize, value);
                break;
        }
    }
}
