using System.Runtime.CompilerServices;

namespace ListMmf.Sealed;

/// <summary>
/// The decoding loops: packed offsets unpacked, the frame of reference or the running sum applied and the item
/// stored in one pass, eight values at a time. Eight values of <c>w</c> bits take exactly <c>w</c> bytes, so each group
/// starts on a byte and the eight load offsets and shifts are the same for every group of the block.
/// </summary>
internal static unsafe class PackedKernels
{
    /// <summary>Where decoded values go: one implementation per item kind, so that the JIT inlines the store.</summary>
    public interface ISink
    {
        void Put(int index, long value);
    }

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
        if (deltas)
        {
            // Slot 0 holds 0, so the running sum starts one step before the first value.
            long value = first - baseValue;
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

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long At(byte* group, int offset, int shift, ulong mask) =>
        (long)((Unsafe.ReadUnaligned<ulong>(group + offset) >> shift) & mask);

    /// <summary>Items of 4 bytes: the low 32 bits.</summary>
    public readonly struct Int32Sink(int* items) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = (int)value;
    }

    /// <summary>Items of 8 bytes.</summary>
    public readonly struct Int64Sink(long* items) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = value;
    }

    /// <summary>Items of 1, 2, 3, 5, 6 or 7 bytes: the low bytes.</summary>
    public readonly struct NarrowSink(byte* items, int size) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => SealedValues.Narrow(items + ((long)index * size), size, value);
    }

    /// <summary>Doubles: the tick times the step, in binary64.</summary>
    public readonly struct DoubleSink(double* items, double step) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = value * step;
    }

    /// <summary>Singles: the tick times the step, in binary32.</summary>
    public readonly struct SingleSink(float* items, float step) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = value * step;
    }

    /// <summary>Singles: the integer over the power of ten, in binary32 (<see cref="DecimalScaling"/>).</summary>
    public readonly struct SingleQuotientSink(float* items, float divisor) : ISink
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Put(int index, long value) => items[index] = DecimalScaling.Decode(value, divisor);
    }
}
