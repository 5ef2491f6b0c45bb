using System;
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

    /// <summary>The first value in the integer domain (the start of the deltas).</summary>
    public long First { get; }

    /// <summary>
    /// The power of two a tick stands for (<see cref="SealedCodec.Ticks"/>), or the power of ten the integers are
    /// divided by (<see cref="SealedCodec.Decimals"/>).
    /// </summary>
    public double Step { get; }

    public byte* Payload => Start + SealedLayout.BlockHeaderSize;

    /// <summary>Whether value <c>i</c> is read in place, without decoding those before it.</summary>
    public bool IsRandomAccess => Codec is SealedCodec.Plain or SealedCodec.FrameOfReference or SealedCodec.Ticks or SealedCodec.Decimals;

    /// <summary>
    /// Value <paramref name="index"/> in the integer domain (<see cref="SealedCodec.FrameOfReference"/>,
    /// <see cref="SealedCodec.Ticks"/> or <see cref="SealedCodec.Decimals"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long DomainAt(int index) => Base + (long)BitPacking.Get(Payload, Width, index);

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
            case SealedCodec.Ticks when kind == SealedValueKind.Double:
                *(double*)destination = DomainAt(index) * Step;
                break;
            case SealedCodec.Ticks:
                *(float*)destination = DomainAt(index) * (float)Step;
                break;
            case SealedCodec.Decimals when kind == SealedValueKind.Double:
                *(double*)destination = DecimalScaling.Decode(DomainAt(index), Step);
                break;
            case SealedCodec.Decimals:
                *(float*)destination = DecimalScaling.Decode(DomainAt(index), (float)Step);
                break;
            default:
                SealedValues.Narrow(destination, itemSize, DomainAt(index));
                break;
        }
    }
}
