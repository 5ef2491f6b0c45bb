using System;
using System.Linq;
using ListMmf.Sealed;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// The decoding loops give, for every width and block length, what reading each packed value on its own gives: the
/// vector path (widths up to 25 where the CPU has AVX2) and the scalar path alike.
/// </summary>
public sealed unsafe class PackedKernelsTests
{
    public static TheoryData<int> Widths => [.. Enumerable.Range(0, BitPacking.MaximumWidth + 1)];

    [Theory]
    [MemberData(nameof(Widths))]
    public void EveryWidthDecodesToTheValuesReadOneByOne(int width)
    {
        foreach (int count in new[] { SealedLayout.BlockValues, 1_000, 17, 1 })
        {
            ulong[] offsets = Offsets(count, width, seed: width * 31 + count);
            byte[] packed = new byte[BitPacking.LengthOf(count, width)];
            BitPacking.Pack(offsets, width, packed);
            long baseValue = -(1L << 40) + width;
            long[] expected = offsets.Select(offset => baseValue + (long)offset).ToArray();
            long[] longs = new long[count];
            int[] ints = new int[count];
            fixed (byte* payload = packed)
            fixed (long* toLongs = longs)
            fixed (int* toInts = ints)
            {
                PackedKernels.Decode(payload, width, count, baseValue, deltas: false, 0, new PackedKernels.Int64Sink(toLongs));
                PackedKernels.Decode(payload, width, count, baseValue, deltas: false, 0, new PackedKernels.Int32Sink(toInts));
            }

            Assert.Equal(expected, longs);
            Assert.Equal(expected.Select(value => (int)value), ints);
        }
    }

    [Theory]
    [InlineData(3)]
    [InlineData(17)]
    [InlineData(25)]
    public void TicksDecodeToTheProductOfEachTickAndTheStep(int width)
    {
        const int Count = SealedLayout.BlockValues;
        ulong[] offsets = Offsets(Count, width, seed: width);
        byte[] packed = new byte[BitPacking.LengthOf(Count, width)];
        BitPacking.Pack(offsets, width, packed);
        double[] doubles = new double[Count];
        float[] singles = new float[Count];
        fixed (byte* payload = packed)
        fixed (double* toDoubles = doubles)
        fixed (float* toSingles = singles)
        {
            PackedKernels.Decode(payload, width, Count, -5_000, deltas: false, 0, new PackedKernels.DoubleSink(toDoubles, 0.25));
            PackedKernels.Decode(payload, width, Count, -5_000, deltas: false, 0, new PackedKernels.SingleQuotientSink(toSingles, 100f));
        }

        Assert.Equal(offsets.Select(offset => BitConverter.DoubleToInt64Bits((-5_000 + (long)offset) * 0.25)),
            doubles.Select(BitConverter.DoubleToInt64Bits));
        Assert.Equal(offsets.Select(offset => BitConverter.SingleToInt32Bits((-5_000 + (long)offset) / 100f)),
            singles.Select(BitConverter.SingleToInt32Bits));
    }

    /// <summary><paramref name="count"/> offsets of <paramref name="width"/> bits, the largest among them.</summary>
    private static ulong[] Offsets(int count, int width, int seed)
    {
        var random = new Random(seed);
        ulong largest = width == 0 ? 0 : ulong.MaxValue >> (64 - width);
        ulong[] offsets = Enumerable.Range(0, count).Select(_ => (ulong)random.NextInt64() & largest).ToArray();
        offsets[count / 2] = largest;
        return offsets;
    }
}
