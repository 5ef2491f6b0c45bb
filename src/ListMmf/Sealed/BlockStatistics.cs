using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ListMmf.Sealed;

/// <summary>
/// What the encoder needs to know of a block's values before it picks a codec, found in one vectorised pass: their
/// range in their type's order, the range of their deltas (as signed 64-bit differences, which wrap as the
/// decoder's sums do), and whether they ascend.
/// </summary>
internal readonly struct BlockStatistics
{
    public long Min { get; private init; }

    public long Max { get; private init; }

    public long MinDelta { get; private init; }

    public long MaxDelta { get; private init; }

    public bool Ascending { get; private init; }

    /// <summary>The statistics of <paramref name="values"/> (at least one), compared as signed or unsigned 64-bit integers.</summary>
    public static BlockStatistics Of(ReadOnlySpan<long> values, bool signed) =>
        signed ? Measure(values) : Measure(MemoryMarshal.Cast<long, ulong>(values));

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static BlockStatistics Measure<T>(ReadOnlySpan<T> values)
        where T : unmanaged, IBinaryInteger<T>
    {
        ref T start = ref MemoryMarshal.GetReference(values);
        T min = start;
        T max = start;
        long minDelta = long.MaxValue;
        long maxDelta = long.MinValue;
        bool ascending = true;
        int i = 1;
        int lanes = Vector<T>.Count;
        if (Vector.IsHardwareAccelerated && values.Length > lanes)
        {
            var lowest = new Vector<T>(min);
            Vector<T> highest = lowest;
            var lowestDelta = new Vector<long>(long.MaxValue);
            var highestDelta = new Vector<long>(long.MinValue);
            Vector<T> descents = Vector<T>.Zero;
            for (; i + lanes <= values.Length; i += lanes)
            {
                Vector<T> current = Load(ref start, i);
                Vector<T> previous = Load(ref start, i - 1);
                lowest = Vector.Min(lowest, current);
                highest = Vector.Max(highest, current);
                Vector<long> delta = Vector.AsVectorInt64(current - previous);
                lowestDelta = Vector.Min(lowestDelta, delta);
                highestDelta = Vector.Max(highestDelta, delta);
                descents |= Vector.LessThan(current, previous);
            }

            ascending = descents == Vector<T>.Zero;
            for (int lane = 0; lane < lanes; lane++)
            {
                min = T.Min(min, lowest[lane]);
                max = T.Max(max, highest[lane]);
                minDelta = Math.Min(minDelta, lowestDelta[lane]);
                maxDelta = Math.Max(maxDelta, highestDelta[lane]);
            }
        }

        for (; i < values.Length; i++)
        {
            T value = Unsafe.Add(ref start, i);
            T before = Unsafe.Add(ref start, i - 1);
            long delta = long.CreateTruncating(value - before);
            minDelta = Math.Min(minDelta, delta);
            maxDelta = Math.Max(maxDelta, delta);
            ascending &= value >= before;
            min = T.Min(min, value);
            max = T.Max(max, value);
        }

        return new BlockStatistics
        {
            Min = long.CreateTruncating(min),
            Max = long.CreateTruncating(max),
            MinDelta = minDelta,
            MaxDelta = maxDelta,
            Ascending = ascending,
        };
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector<T> Load<T>(ref T start, int index)
        where T : unmanaged => Unsafe.ReadUnaligned<Vector<T>>(ref Unsafe.As<T, byte>(ref Unsafe.Add(ref start, index)));
}
