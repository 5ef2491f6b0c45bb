using System;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace ListMmf.Sealed;

/// <summary>
/// The decoding loops: packed offsets unpacked, the frame of reference or the running sum applied and the item
/// stored in one pass, eight values at a time. Eight values of <c>w</c> bits take exactly <c>w</c> bytes, so each group
/// starts on a byte and the eight load offsets and shifts are the same for every group of the block. With AVX2, widths
/// up to 25 bits take the eight values as one vector: a byte shuffle into 32-bit lanes and a variable shift.
/// </summary>
internal static unsafe class PackedKernels
{
    /// <summary>Where decoded values go: one implementation per item kind, so that the JIT inlines the store.</summary>
    public interface ISink
    {
        void Put(int index, long value);

        /// <summary>Stores <c>base + offsets[j]</c> at <c>index + j</c> for the eight lanes.</summary>
        void Put8(int index, Vector256<uint> offsets, long baseValue);

        /// <summary>Stores the four values at <c>index</c> to <c>index + 3</c>.</summary>
        void PutValues(int index, Vector256<long> values);
    }

    /// <summary>The widest offset <see cref="Unpack8"/> takes: a shift of up to 7 and the width fit a 32-bit lane.</summary>
    private const int VectorWidthLimit = 25;

    /// <summary>Stores <c>base + u[i]</c> (<paramref name="deltas"/>: a running sum of <c>base + u[i]</c> from <paramref name="first"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    [SkipLocalsInit]
    public static void Decode<TSink>(byte* packed, int width, int count, long baseValue, bool deltas, long first, TSink sink)
        where TSink : struct, ISink
    {
        ulong mask = (1UL << width) - 1;
        int o1 = width >> 3, o2 = (2 * width) >> 3, o3 = (3 * width) >> 3, o4 = (4 * width) >> 3;
        int o5 = (5 * width) >> 3, o6 = (6 * width) >> 3, o7 = (7 * width) >> 3;
        int s1 = width & 7, s2 = (2 * width) & 7, s3 = (3 * width) & 7, s4 = (4 * width) & 7;
        int s5 = (5 * width) & 7, s6 = (6 * width) & 7, s7 = (7 * width) & 7;
        int whole = count & ~7;
        byte* group = packed;
        int at = 0;
        bool vector = Avx2.IsSupported && width is > 0 and <= VectorWidthLimit;

        // The vector loop's groups: each group's two 16-byte loads must stay within the packed bytes and their padding.
        int half = (4 * width) >> 3;
        int room = BitPacking.LengthOf(count, width) - half - 16;
        int vectorEnd = !vector || room < 0 ? 0 : Math.Min(whole, ((room / width) + 1) * 8);
        Vector256<byte> gather = vector ? GatherControls[width] : default;
        Vector256<uint> shifts = vector ? GatherShifts[width] : default;
        var lowBits = Vector256.Create((uint)mask);
        if (deltas)
        {
            // Slot 0 holds 0, so the running sum starts one step before the first value.
            long value = first - baseValue;
            if (vectorEnd > 0)
            {
                var running = Vector256.Create(value);
                for (; at < vectorEnd; at += 8, group += width)
                {
                    (Vector256<long> low, Vector256<long> high) = Widen(Unpack8(group, half, gather, shifts, lowBits), baseValue);
                    low = RunningSum(low);
                    high = RunningSum(high);
                    sink.PutValues(at, low + running);
                    running += Avx2.Permute4x64(low, 0xFF);
                    sink.PutValues(at + 4, high + running);
                    running += Avx2.Permute4x64(high, 0xFF);
                }

                value = running.ToScalar();
            }

            for (; at < whole; at += 8, group += width)
            {
                sink.Put(at, value += baseValue + (long)(Unsafe.ReadUnaligned<ulong>(group) & mask));
                sink.Put(at + 1, value += baseValue + At(group, o1, s1, mask));
                sink.Put(at + 2, value += baseValue + At(group, o2, s2, mask));
                sink.Put(at + 3, value += baseValue + At(group, o3, s3, mask));
                sink.Put(at + 4, value += baseValue + At(group, o4, s4, mask));
                sink.Put(at + 5, value += baseValue + At(group, o5, s5, mask));
                sink.Put(at + 6, value += baseValue + At(group, o6, s6, mask));
                sink.Put(at + 7, value += baseValue + At(group, o7, s7, mask));
            }

            for (; at < count; at++)
            {
                sink.Put(at, value += baseValue + (long)BitPacking.Get(packed, width, at));
            }

            return;
        }

        for (; at < vectorEnd; at += 8, group += width)
        {
            sink.Put8(at, Unpack8(group, half, gather, shifts, lowBits), baseValue);
        }

        for (; at < whole; at += 8, group += width)
        {
            sink.Put(at, baseValue + (long)(Unsafe.ReadUnaligned<ulong>(group) & mask));
            sink.Put(at + 1, baseValue + At(group, o1, s1, mask));
            sink.Put(at + 2, baseValue + At(group, o2, s2, mask));
            sink.Put(at + 3, baseValue + At(group, o3, s3, mask));
            sink.Put(at + 4, baseValue + At(group, o4, s4, mask));
            sink.Put(at + 5, baseValue + At(group, o5, s5, mask));
            sink.Put(at + 6, baseValue + At(group, o6, s6, mask));
            sink.Put(at + 7, baseValue + At(group, o7, s7, mask));
        }

        for (; at < count; at++)
        {
            sink.Put(at, baseValue + (long)BitPacking.Get(packed, width, at));
        }
    }

    /// <summary>The running sums of four lanes: each lane plus those before it (two shifts by lanes, zeros shifted in).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<long> RunningSum(Vector256<long> lanes)
    {
        // Permute2x128 with 0x08 gives [0, 0, lane 0, lane 1]; AlignRight of the lanes over it, by 8 bytes, gives
        // [0, lane 0, lane 1, lane 2].
        lanes += Avx2.AlignRight(lanes, Avx2.Permute2x128(lanes, lanes, 0x08), 8);
        return lanes + Avx2.Permute2x128(lanes, lanes, 0x08);
    }

    /// <summary>
    /// The eight offsets of the group at <paramref name="group"/>: the bytes of values 0-3 from the group's start and
    /// of values 4-7 from byte <paramref name="half"/>, each value's four bytes shuffled into its 32-bit lane, shifted
    /// right by its bit offset and masked.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<uint> Unpack8(byte* group, int half, Vector256<byte> gather, Vector256<uint> shifts, Vector256<uint> lowBits)
    {
        Vector256<byte> bytes = Vector256.Create(Vector128.Load(group), Vector128.Load(group + half));
        return Avx2.ShiftRightLogicalVariable(Avx2.Shuffle(bytes, gather).AsUInt32(), shifts) & lowBits;
    }

    /// <summary>For each width up to 25, the shuffle that puts each of eight values' four bytes in its lane.</summary>
    private static readonly Vector256<byte>[] GatherControls = Enumerable.Range(0, VectorWidthLimit + 1)
        .Select(width => Vector256.Create(Enumerable.Range(0, 32).Select(at => (byte)((LaneBit(width, at / 4) >> 3) + (at % 4))).ToArray()))
        .ToArray();

    /// <summary>For each width up to 25, each of the eight values' shift within its lane's four bytes.</summary>
    private static readonly Vector256<uint>[] GatherShifts = Enumerable.Range(0, VectorWidthLimit + 1)
        .Select(width => Vector256.Create(Enumerable.Range(0, 8).Select(lane => (uint)(LaneBit(width, lane) & 7)).ToArray()))
        .ToArray();

    /// <summary>The first bit of value <paramref name="lane"/> of a group, from the start of its half's load.</summary>
    private static int LaneBit(int width, int lane) => (lane * width) - (lane < 4 ? 0 : 8 * ((4 * width) >> 3));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long At(byte* group, int offset, int shift, ulong mask) =>
        (long)((Unsafe.ReadUnaligned<ulong>(group + offset) >> shift) & mask);

    /// <summary>Items of 4 bytes: the low 32 bits.</summary>
    public readonly struct Int32Sink(int* items) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = (int)value;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put8(int index, Vector256<uint> offsets, long baseValue) =>
            (offsets.AsInt32() + Vector256.Create((int)baseValue)).Store(items + index);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void PutValues(int index, Vector256<long> values) => Low32(values).Store(items + index);
    }

    /// <summary>Items of 8 bytes.</summary>
    public readonly struct Int64Sink(long* items) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = value;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put8(int index, Vector256<uint> offsets, long baseValue)
        {
            (Vector256<long> low, Vector256<long> high) = Widen(offsets, baseValue);
            low.Store(items + index);
            high.Store(items + index + 4);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void PutValues(int index, Vector256<long> values) => values.Store(items + index);
    }

    /// <summary>
    /// Values a whole number of steps above a base (<see cref="SealedCodec.SteppedFrameOfReference"/>), decoded into
    /// <typeparamref name="TSink"/>: <c>base + step * (frame + offset)</c>. AVX2 has no 64-bit product, so eight
    /// offsets (below 2^25) are multiplied by the step's two 32-bit halves.
    /// </summary>
    public readonly struct SteppedSink<TSink>(TSink inner, long baseValue, long step) : ISink
        where TSink : struct, ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => inner.Put(index, baseValue + (step * value));

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put8(int index, Vector256<uint> offsets, long frame)
        {
            var low = Vector256.Create((ulong)(uint)step).AsUInt32();
            var high = Vector256.Create((ulong)step >> 32).AsUInt32();
            var start = Vector256.Create((ulong)(baseValue + (step * frame)));
            Vector256<uint> first = Avx2.ConvertToVector256Int64(offsets.GetLower()).AsUInt32();
            Vector256<uint> second = Avx2.ConvertToVector256Int64(offsets.GetUpper()).AsUInt32();
            inner.PutValues(index, (Avx2.Multiply(first, low) + (Avx2.Multiply(first, high) << 32) + start).AsInt64());
            inner.PutValues(index + 4, (Avx2.Multiply(second, low) + (Avx2.Multiply(second, high) << 32) + start).AsInt64());
        }

        public void PutValues(int index, Vector256<long> values) => PutEach(this, index, values);
    }

    /// <summary>A dictionary's items of 8 bytes: each decoded index's entry from the table of them.</summary>
    public readonly struct Gather64Sink(long* table, long* items) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = table[value];

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put8(int index, Vector256<uint> offsets, long frame)
        {
            long* entries = table + frame;
            Avx2.GatherVector256(entries, offsets.GetLower().AsInt32(), 8).Store(items + index);
            Avx2.GatherVector256(entries, offsets.GetUpper().AsInt32(), 8).Store(items + index + 4);
        }

        public void PutValues(int index, Vector256<long> values) => PutEach(this, index, values);
    }

    /// <summary>A dictionary's items of 4 bytes: each decoded index's entry from the table of them.</summary>
    public readonly struct Gather32Sink(int* table, int* items) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = table[value];

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put8(int index, Vector256<uint> offsets, long frame) =>
            Avx2.GatherVector256(table + frame, offsets.AsInt32(), 4).Store(items + index);

        public void PutValues(int index, Vector256<long> values) => PutEach(this, index, values);
    }

    /// <summary>Items of 1, 2, 3, 5, 6 or 7 bytes: the low bytes.</summary>
    public readonly struct NarrowSink(byte* items, int size) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => SealedValues.Narrow(items + ((long)index * size), size, value);

        public void Put8(int index, Vector256<uint> offsets, long baseValue)
        {
            for (int lane = 0; lane < 8; lane++)
            {
                Put(index + lane, baseValue + offsets.GetElement(lane));
            }
        }

        public void PutValues(int index, Vector256<long> values) => PutEach(this, index, values);
    }

    /// <summary>Doubles: the tick times the step, in binary64.</summary>
    public readonly struct DoubleSink(double* items, double step) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = value * step;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put8(int index, Vector256<uint> offsets, long baseValue)
        {
            // A tick below 2^53 converts exactly, so the product is rounded once, as Put's.
            (Vector256<long> low, Vector256<long> high) = Widen(offsets, baseValue);
            var by = Vector256.Create(step);
            (Vector256.ConvertToDouble(low) * by).Store(items + index);
            (Vector256.ConvertToDouble(high) * by).Store(items + index + 4);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void PutValues(int index, Vector256<long> values) => (Vector256.ConvertToDouble(values) * Vector256.Create(step)).Store(items + index);
    }

    /// <summary>Singles: the tick times the step, in binary32.</summary>
    public readonly struct SingleSink(float* items, float step) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = value * step;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put8(int index, Vector256<uint> offsets, long baseValue) =>
            (Vector256.ConvertToSingle(Ticks(offsets, baseValue)) * Vector256.Create(step)).Store(items + index);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void PutValues(int index, Vector256<long> values) =>
            (Vector128.ConvertToSingle(Low32(values)) * Vector128.Create(step)).Store(items + index);
    }

    /// <summary>Singles: the integer over the power of ten, in binary32 (<see cref="DecimalScaling"/>).</summary>
    public readonly struct SingleQuotientSink(float* items, float divisor) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = DecimalScaling.Decode(value, divisor);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put8(int index, Vector256<uint> offsets, long baseValue) =>
            (Vector256.ConvertToSingle(Ticks(offsets, baseValue)) / Vector256.Create(divisor)).Store(items + index);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void PutValues(int index, Vector256<long> values) =>
            (Vector128.ConvertToSingle(Low32(values)) / Vector128.Create(divisor)).Store(items + index);
    }

    /// <summary>Each of four values through <paramref name="sink"/>'s scalar store: for sinks with no vector store of them.</summary>
    private static void PutEach<TSink>(TSink sink, int index, Vector256<long> values)
        where TSink : struct, ISink
    {
        for (int lane = 0; lane < 4; lane++)
        {
            sink.Put(index + lane, values.GetElement(lane));
        }
    }

    /// <summary>The low 32 bits of each of four values: a single's tick is below 2^24, an Int32 item is those bits.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<int> Low32(Vector256<long> values) =>
        Avx2.PermuteVar8x32(values.AsInt32(), Vector256.Create(0, 2, 4, 6, 1, 3, 5, 7)).GetLower();

    /// <summary><c>base + offsets</c> as two vectors of four longs.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (Vector256<long> Low, Vector256<long> High) Widen(Vector256<uint> offsets, long baseValue)
    {
        var frame = Vector256.Create(baseValue);
        return (Avx2.ConvertToVector256Int64(offsets.GetLower()) + frame, Avx2.ConvertToVector256Int64(offsets.GetUpper()) + frame);
    }

    /// <summary>
    /// A single's ticks, <c>base + offsets</c>, in 32-bit lanes: the encoder keeps them below 2^24, so the sum
    /// modulo 2^32 is the tick itself.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<int> Ticks(Vector256<uint> offsets, long baseValue) => offsets.AsInt32() + Vector256.Create((int)baseValue);
}
