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
    [MemberData(nameof(Widths))]
    public void EveryWidthDecodesDeltasToTheirRunningSum(int width)
    {
        foreach (int count in new[] { SealedLayout.BlockValues, 1_000, 17, 1 })
        {
            ulong[] offsets = Offsets(count, width, seed: (width * 37) + count);
            offsets[0] = 0;
            byte[] packed = new byte[BitPacking.LengthOf(count, width)];
            BitPacking.Pack(offsets, width, packed);
            long baseValue = -(1L << (width / 2));
            long first = long.MaxValue - 1_000;
            long[] expected = new long[count];
            expected[0] = first;
            for (int i = 1; i < count; i++)
            {
                expected[i] = unchecked(expected[i - 1] + baseValue + (long)offsets[i]);
            }

            long[] longs = new long[count];
            int[] ints = new int[count];
            fixed (byte* payload = packed)
            fixed (long* toLongs = longs)
            fixed (int* toInts = ints)
            {
                PackedKernels.Decode(payload, width, count, baseValue, deltas: true, first, new PackedKernels.Int64Sink(toLongs));
                PackedKernels.Decode(payload, width, count, baseValue, deltas: true, first, new PackedKernels.Int32Sink(toInts));
            }

            Assert.Equal(expected, longs);
            Assert.Equal(expected.Select(value => (int)value), ints);
        }
    }

    [Theory]
    [InlineData(3, false)]
    [InlineData(17, false)]
    [InlineData(25, false)]
    [InlineData(5, true)]
    [InlineData(20, true)]
    public void TicksAndDecimalsDecodeToEachIntegerTimesOrOverTheStep(int width, bool deltas)
    {
        const int Count = SealedLayout.BlockValues;
        ulong[] offsets = Offsets(Count, width, seed: width);
        offsets[0] = 0;
        byte[] packed = new byte[BitPacking.LengthOf(Count, width)];
        BitPacking.Pack(offsets, width, packed);
        long baseValue = deltas ? -(1L << (width - 1)) : -5_000;
        long[] integers = new long[Count];
        for (int i = 0; i < Count; i++)
        {
            integers[i] = !deltas ? baseValue + (long)offsets[i] : i == 0 ? 7 : integers[i - 1] + baseValue + (long)offsets[i];
        }

        double[] doubles = new double[Count];
        float[] singles = new float[Count];
        float[] quotients = new float[Count];
        fixed (byte* payload = packed)
        fixed (double* toDoubles = doubles)
        fixed (float* toSingles = singles)
        fixed (float* toQuotients = quotients)
        {
            PackedKernels.Decode(payload, width, Count, baseValue, deltas, 7, new PackedKernels.DoubleSink(toDoubles, 0.25));
            PackedKernels.Decode(payload, width, Count, baseValue, deltas, 7, new PackedKernels.SingleSink(toSingles, 0.5f));
            PackedKernels.Decode(payload, width, Count, baseValue, deltas, 7, new PackedKernels.SingleQuotientSink(toQuotients, 100f));
        }

        Assert.Equal(integers.Select(k => BitConverter.DoubleToInt64Bits(k * 0.25)), doubles.Select(BitConverter.DoubleToInt64Bits));
        Assert.Equal(integers.Select(k => BitConverter.SingleToInt32Bits(k * 0.5f)), singles.Select(BitConverter.SingleToInt32Bits));
        Assert.Equal(integers.Select(k => BitConverter.SingleToInt32Bits(k / 100f)), quotients.Select(BitConverter.SingleToInt32Bits));
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
