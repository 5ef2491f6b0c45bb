using System;
using System.IO;
using System.Linq;
using System.Numerics;
using ListMmf.Sealed;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// Ascending integers whose gaps vary (a busy day's trade times: whole milliseconds as 100 ns ticks, bursts of equal
/// times, quiet spells): sealed in Elias-Fano form, narrower than their frame, every value back bit for bit read in
/// place or decoded, and every bound found in place as a search of the items finds it.
/// </summary>
public sealed unsafe class SealedEliasFanoTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("times.bin");

    [Fact]
    public void TradeTimesOfABusyDaySealAsEliasFanoInUnderTwoBytesATime()
    {
        long[] times = TradeTimes(100_000, seed: 1);

        Seal(times);

        SealedCodec[] codecs = SealedCodecs.Of(FilePath);
        Assert.All(codecs[..^1], codec => Assert.Equal(SealedCodec.EliasFano, codec));
        using var sealedList = new SealedListMmf<long>(FilePath);
        Assert.True(sealedList.LengthOnDisk < 2L * times.Length, $"{sealedList.LengthOnDisk:N0} bytes for {times.Length:N0} times");
    }

    [Fact]
    public void EveryTimeReadInPlaceIsTheTimeWritten()
    {
        long[] times = TradeTimes(10_500, seed: 2);
        Seal(times);
        using var sealedList = new SealedListMmf<long>(FilePath);

        long[] inPlace = Enumerable.Range(0, times.Length).Select(i => sealedList[i]).ToArray();

        Assert.Equal(times, inPlace);
    }

    [Fact]
    public void EveryTimeDecodedIsTheTimeWritten()
    {
        long[] times = TradeTimes(10_500, seed: 3);
        Seal(times);
        using var sealedList = new SealedListMmf<long>(FilePath);

        long[] decoded = new long[times.Length - 700];
        sealedList.CopyTo(700, decoded);

        Assert.Equal(times[700..], decoded);
    }

    [Fact]
    public void EveryBoundOfEveryTimeAndItsNeighboursIsTheBoundOfTheItems()
    {
        long[] times = TradeTimes(5_000, seed: 4);
        Seal(times);
        using var sealedList = new SealedListMmf<long>(FilePath);

        long[] targets = [.. times.SelectMany(time => new[] { time - 10_000, time - 1, time, time + 1, time + 5_000 }), long.MinValue, long.MaxValue];
        foreach (long target in targets)
        {
            Assert.Equal(LowerBoundOf(times, target), sealedList.LowerBound(target));
            Assert.Equal(UpperBoundOf(times, target), sealedList.UpperBound(target));
        }
    }

    [Theory]
    [InlineData(1, 1_025, 1)]
    [InlineData(2, 2_047, 1_000)]
    [InlineData(3, 1_090, 1_000_000_007)]
    [InlineData(4, 3_000, 1L << 40)]
    public void ValuesOfEveryGapFromNoneToHugeAreReadAndFoundAsTheItems(int seed, int count, long largestGap)
    {
        // Runs of equal values, gaps of a step, and now and then one of up to largestGap: every low width the
        // encoder picks, and blocks of 1 to 1,024 values at the end.
        var random = new Random(seed);
        long[] values = new long[count];
        long value = -5_000_000_000_000;
        for (int i = 0; i < count; i++)
        {
            value += random.Next(4) switch { 0 => 0, 1 => 7, 2 => 7 * random.Next(1, 100), _ => random.NextInt64(0, largestGap) };
            values[i] = value;
        }

        Seal(values);

        Assert.Contains(SealedCodec.EliasFano, SealedCodecs.Of(FilePath));
        using var sealedList = new SealedListMmf<long>(FilePath);
        Assert.Equal(values, sealedList.ToArray());
        Assert.Equal(values, Enumerable.Range(0, count).Select(i => sealedList[i]));
        foreach (long target in values.SelectMany(v => new[] { v - 1, v, v + 1 }))
        {
            Assert.Equal(LowerBoundOf(values, target), sealedList.LowerBound(target));
            Assert.Equal(UpperBoundOf(values, target), sealedList.UpperBound(target));
        }
    }

    [Fact]
    public void AscendingValuesOfEachIntegerTypeComeBackBitForBitAndAreFoundInPlace()
    {
        AssertRoundTrip<short>();
        AssertRoundTrip<ushort>();
        AssertRoundTrip<int>();
        AssertRoundTrip<uint>();
        AssertRoundTrip<long>();
        AssertRoundTrip<ulong>();
    }

    [Fact]
    public void UInt64sSpanningTheWholeRangeAreFoundUpToTheLargest()
    {
        var random = new Random(5);
        ulong[] values = [0, .. Enumerable.Range(0, 2_046).Select(_ => (ulong)random.NextInt64() * 2).Order(), ulong.MaxValue];
        Seal(values);

        Assert.Contains(SealedCodec.EliasFano, SealedCodecs.Of(FilePath));
        using var sealedList = new SealedListMmf<ulong>(FilePath);
        Assert.Equal(values, sealedList.ToArray());
        Assert.Equal(values.Length, sealedList.UpperBound(ulong.MaxValue));
        Assert.Equal(values.Length - 1, sealedList.LowerBound(ulong.MaxValue));
        Assert.Equal(1, sealedList.UpperBound(0UL));
    }

    [Fact]
    public void UnsealingGivesTheTimesBackToAppendTo()
    {
        long[] times = TradeTimes(3_000, seed: 6);
        Seal(times);

        SealedListMmf.Unseal(FilePath);

        using var list = new ListMmf<long>(FilePath);
        list.Add(times[^1] + 1);
        Assert.Equal([.. times, times[^1] + 1], list.ToArray());
    }

    [Fact]
    public void ABlockWhoseSampleIsNotItsValuesBitIsRefusedAsDamaged()
    {
        Seal(TradeTimes(2_000, seed: 7));

        EditBlock0(block => block.Samples[0]++);

        using var sealedList = new SealedListMmf<long>(FilePath);
        var exception = Assert.Throws<ListMmfFormatException>(() => sealedList[0]);
        Assert.Contains("block 0 ", exception.Message, StringComparison.Ordinal);
        Assert.Contains("sample of value 64", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ABlockWithASetBitTooFewIsRefusedAsDamaged()
    {
        Seal(TradeTimes(2_000, seed: 8));

        EditBlock0(block => block.UpperWords[3] &= block.UpperWords[3] - 1);

        using var sealedList = new SealedListMmf<long>(FilePath);
        var exception = Assert.Throws<ListMmfFormatException>(() => sealedList.LowerBound(0L));
        Assert.Contains("block 0 ", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ABlockWhoseValuesDescendWithinABucketIsRefusedAsDamaged()
    {
        // Gaps of 1 and 15 (no common step) put pairs of values in one bucket (equal high parts): their low bits
        // swapped, every bit count and sample still holds.
        long[] times = Enumerable.Range(0, 1_024).Select(i => 1_000L + (i / 2 * 16) + (i % 2)).ToArray();
        Seal(times);
        int swapped = -1;
        EditBlock0(block =>
        {
            int width = block.Width;
            Assert.True(width >= 1, $"low width {width}");
            swapped = Enumerable.Range(1, block.Count - 2).First(i => block.EliasFanoSteps(i) >> width == block.EliasFanoSteps(i + 1) >> width
                && BitPacking.Get(block.Payload, width, i) != BitPacking.Get(block.Payload, width, i + 1));
            ulong first = BitPacking.Get(block.Payload, width, swapped);
            ulong second = BitPacking.Get(block.Payload, width, swapped + 1);
            SetPacked(block.Payload, width, swapped, second);
            SetPacked(block.Payload, width, swapped + 1, first);
        });

        using var sealedList = new SealedListMmf<long>(FilePath);
        var exception = Assert.Throws<ListMmfFormatException>(() => sealedList.Verify());
        Assert.Contains($"value {swapped + 1:N0} is below the one before it", exception.Message, StringComparison.Ordinal);
    }

    private static void SetPacked(byte* packed, int width, int index, ulong value)
    {
        long bit = (long)index * width;
        ulong* word = (ulong*)(packed + (bit >> 3));
        ulong mask = ((1UL << width) - 1) << (int)(bit & 7);
        *word = (*word & ~mask) | (value << (int)(bit & 7));
    }

    /// <summary>
    /// Whole milliseconds of a session as 100 ns ticks: bursts of equal times (one in three), gaps of a few
    /// milliseconds, and a quiet spell of seconds one time in fifty.
    /// </summary>
    private static long[] TradeTimes(int count, int seed)
    {
        var random = new Random(seed);
        long time = new DateTime(2026, 3, 2, 14, 30, 0, DateTimeKind.Utc).Ticks;
        long[] times = new long[count];
        for (int i = 0; i < count; i++)
        {
            int milliseconds = random.Next(3) == 0 ? 0 : random.Next(50) == 0 ? random.Next(1_000, 20_000) : random.Next(1, 200);
            time += milliseconds * TimeSpan.TicksPerMillisecond;
            times[i] = time;
        }

        return times;
    }

    private static long LowerBoundOf(long[] items, long target)
    {
        int index = Array.BinarySearch(items, target);
        index = index < 0 ? ~index : index;
        while (index > 0 && items[index - 1] >= target)
        {
            index--;
        }

        return index;
    }

    private static long UpperBoundOf(long[] items, long target)
    {
        long index = LowerBoundOf(items, target);
        while (index < items.Length && items[index] == target)
        {
            index++;
        }

        return index;
    }

    /// <summary>
    /// Ascending values of <typeparamref name="T"/> near its top, a whole number of 3s apart with bursts of equal
    /// values, sealed and read back in place, decoded, and each found by both bounds.
    /// </summary>
    private void AssertRoundTrip<T>()
        where T : unmanaged, IBinaryInteger<T>, IMinMaxValue<T>
    {
        var random = new Random(9);
        T[] values = new T[3_000];
        T value = T.MaxValue - T.CreateTruncating(3 * 3 * values.Length);
        for (int i = 0; i < values.Length; i++)
        {
            value += T.CreateTruncating(3 * random.Next(0, 4));
            values[i] = value;
        }

        Seal(values);

        Assert.Contains(SealedCodec.EliasFano, SealedCodecs.Of(FilePath));
        using var sealedList = new SealedListMmf<T>(FilePath);
        Assert.Equal(values, sealedList.ToArray());
        Assert.Equal(values, Enumerable.Range(0, values.Length).Select(i => sealedList[i]));
        for (int i = 0; i < values.Length; i += 7)
        {
            Assert.Equal(Array.IndexOf(values, values[i]), sealedList.LowerBound(values[i]));
            Assert.Equal(Array.LastIndexOf(values, values[i]) + 1, sealedList.UpperBound(values[i]));
        }

        sealedList.Dispose();
        File.Delete(FilePath);
    }

    private delegate void BlockEdit(SealedBlock block);

    /// <summary>Edits block 0 in place and mends its checksum, so only the edit is wrong.</summary>
    private void EditBlock0(BlockEdit edit)
    {
        byte[] bytes = File.ReadAllBytes(FilePath);
        fixed (byte* file = bytes)
        {
            byte* start = file + BitConverter.ToInt32(bytes, SealedLayout.BlocksOffsetOffset);
            SealedBlock block = SealedBlock.At(start);
            Assert.Equal(SealedCodec.EliasFano, block.Codec);
            edit(block);
            int payload = block.PayloadLength;
            *(uint*)(start + SealedLayout.BlockChecksumOffset) = BlockEncoder.ChecksumOf(new ReadOnlySpan<byte>(start, SealedLayout.BlockHeaderSize + payload), payload);
        }

        File.WriteAllBytes(FilePath, bytes);
    }

    private void Seal<T>(T[] values)
        where T : unmanaged
    {
        using (var list = new ListMmf<T>(FilePath))
        {
            list.AddRange(values);
        }

        SealedListMmf.Seal(FilePath);
    }
}
