using System;
using System.IO;
using System.Linq;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// Sealing a list and unsealing it: every value back bit for bit whatever codec its block got, searches that agree
/// with the appendable list's, damage and misuse refused with the file named and left as it was.
/// </summary>
public sealed class SealedListMmfTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose()
    {
        FileReplacement.BeforeStep = null;
        _directory.Dispose();
    }

    private string FilePath => _directory.File("list.bin");

    [Fact]
    public void AscendingTimesSealSmallerAndReadBackAsWritten()
    {
        int[] times = BurstyTimes(100_000, seed: 1);
        Write(times);

        Assert.True(SealedListMmf.Seal(FilePath));

        using var sealedList = new SealedListMmf<int>(FilePath);
        Assert.Equal(times, sealedList.ToArray());
        Assert.True(sealedList.LengthOnDisk < times.Length * sizeof(int) / 2, $"{sealedList.LengthOnDisk:N0} bytes");
    }

    [Fact]
    public void QuarterPointPricesSealAsTicksAndReadBackBitForBit()
    {
        var random = new Random(2);
        double price = 4_500;
        double[] prices = new double[50_000];
        for (int i = 0; i < prices.Length; i++)
        {
            price += random.Next(-4, 5) * 0.25;
            prices[i] = price;
        }

        Write(prices);

        SealedListMmf.Seal(FilePath);

        using var sealedList = new SealedListMmf<double>(FilePath);
        Assert.Equal(prices.Select(BitConverter.DoubleToInt64Bits), sealedList.ToArray().Select(BitConverter.DoubleToInt64Bits));
        Assert.True(sealedList.LengthOnDisk < prices.Length, $"{sealedList.LengthOnDisk:N0} bytes for {prices.Length:N0} prices");
    }

    [Fact]
    public void DoublesNoCodecCanHoldStayPlainAndComeBackBitForBit()
    {
        double[] edges =
        [
            -0.0, 0.0, double.NaN, BitConverter.Int64BitsToDouble(0x7FF8_0000_0000_0001),
            BitConverter.Int64BitsToDouble(unchecked((long)0xFFF0_0000_0000_0042)),
            double.PositiveInfinity, double.NegativeInfinity, double.Epsilon, -double.Epsilon, double.MaxValue, double.MinValue, 0.1, 1e300,
        ];
        double[] values = Enumerable.Range(0, 3_000).Select(i => edges[i % edges.Length]).ToArray();
        Write(values);

        SealedListMmf.Seal(FilePath);

        using var sealedList = new SealedListMmf<double>(FilePath);
        Assert.Equal(values.Select(BitConverter.DoubleToInt64Bits), sealedList.ToArray().Select(BitConverter.DoubleToInt64Bits));
    }

    [Fact]
    public void SinglesAsTicksAndAtTheirEdgesComeBackBitForBit()
    {
        float[] values = Enumerable.Range(0, 2_048).Select(i => i * 0.5f - 300)
            .Concat([-0.0f, float.NaN, float.Epsilon, float.MaxValue, float.MinValue, float.PositiveInfinity, 16_777_216f, 16_777_217f])
            .ToArray();
        Write(values);

        SealedListMmf.Seal(FilePath);

        using var sealedList = new SealedListMmf<float>(FilePath);
        Assert.Equal(values.Select(BitConverter.SingleToInt32Bits), sealedList.ToArray().Select(BitConverter.SingleToInt32Bits));
    }

    [Fact]
    public void IntegersThatWrapTheirDeltasComeBackAsWritten()
    {
        long[] values = Enumerable.Range(0, 5_000)
            .Select(i => (i % 3) switch { 0 => long.MinValue + i, 1 => long.MaxValue - i, _ => (long)i * 1_000_003 })
            .ToArray();
        Write(values);

        SealedListMmf.Seal(FilePath);

        using var sealedList = new SealedListMmf<long>(FilePath);
        Assert.Equal(values, sealedList.ToArray());
    }

    [Fact]
    public void RandomAccessAndRangesAcrossBlocksMatchTheList()
    {
        var random = new Random(3);
        short[] values = Enumerable.Range(0, 10_000).Select(_ => (short)random.Next(-2_000, 2_000)).ToArray();
        Write(values);
        SealedListMmf.Seal(FilePath);

        using var sealedList = new SealedListMmf<short>(FilePath);
        for (int i = 0; i < 500; i++)
        {
            int index = random.Next(values.Length);
            Assert.Equal(values[index], sealedList[index]);
        }

        short[] range = new short[3_000];
        sealedList.CopyTo(1_000, range);
        Assert.Equal(values.AsSpan(1_000, 3_000).ToArray(), range);
        Assert.Throws<ArgumentOutOfRangeException>(() => sealedList[values.Length]);
        Assert.Throws<ArgumentOutOfRangeException>(() => sealedList.CopyTo(9_000, new short[1_001]));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(1_024)]
    [InlineData(1_025)]
    [InlineData(70_000)]
    public void LowerAndUpperBoundAgreeWithTheAppendableListAtEveryKey(int count)
    {
        int[] times = BurstyTimes(count, seed: count);
        Write(times);
        SealedListMmf.Seal(FilePath);

        using var sealedList = new SealedListMmf<int>(FilePath);
        int first = count == 0 ? 0 : times[0];
        int last = count == 0 ? 0 : times[^1];
        for (int key = first - 2; key <= last + 2; key++)
        {
            Assert.Equal(LowerBound(times, key), sealedList.LowerBound(key));
            Assert.Equal(UpperBound(times, key), sealedList.UpperBound(key));
        }
    }

    [Fact]
    public void SignedKeysAcrossZeroWithRunsOverBlockBoundariesAreFoundAsByTheList()
    {
        long[] keys = Enumerable.Range(-3_100, 6_200).Select(i => (long)Math.Floor(i / 7.0) * 1_000_000_007L).Append(long.MaxValue).ToArray();
        Write(keys);
        SealedListMmf.Seal(FilePath);

        using var sealedList = new SealedListMmf<long>(FilePath);
        foreach (long key in keys.SelectMany(key => new[] { key - 1, key, key + 1 }).Append(long.MinValue))
        {
            long lower = Array.FindIndex(keys, value => value >= key);
            long upper = Array.FindIndex(keys, value => value > key);
            Assert.Equal(lower < 0 ? keys.Length : lower, sealedList.LowerBound(key));
            Assert.Equal(upper < 0 ? keys.Length : upper, sealedList.UpperBound(key));
        }
    }

    [Fact]
    public void AListOfThousandsOfBlocksIsSearchedAsByTheList()
    {
        // 3,000 blocks: the directory's search runs over three pages of first items before it reaches a block.
        int[] times = BurstyTimes(3_000 * 1_024, seed: 8);
        Write(times);
        SealedListMmf.Seal(FilePath);

        using var sealedList = new SealedListMmf<int>(FilePath);
        var random = new Random(9);
        for (int i = 0; i < 20_000; i++)
        {
            int key = i < 10 ? times[0] - 5 + i : random.Next(times[0] - 2, times[^1] + 3);
            Assert.Equal(LowerBound(times, key), sealedList.LowerBound(key));
            Assert.Equal(UpperBound(times, key), sealedList.UpperBound(key));
        }
    }

    [Fact]
    public void SortedDoublesAndUnsignedKeysAreSearchedInEveryCodec()
    {
        double[] doubles = Enumerable.Range(0, 5_000).Select(i => Math.Floor(i / 3.0) * 0.25).ToArray();
        ulong[] unsigned = Enumerable.Range(0, 5_000).Select(i => ulong.MaxValue - 10_000 + ((ulong)i * 2)).ToArray();
        string doublePath = _directory.File("doubles.bin");
        string unsignedPath = _directory.File("unsigned.bin");
        Write(doubles, doublePath);
        Write(unsigned, unsignedPath);
        SealedListMmf.Seal(doublePath);
        SealedListMmf.Seal(unsignedPath);

        using var sealedDoubles = new SealedListMmf<double>(doublePath);
        using var sealedUnsigned = new SealedListMmf<ulong>(unsignedPath);
        foreach (double key in new[] { -1, 0, 0.1, 0.25, 100.25, 416.5, 416.75, 1e9 })
        {
            Assert.Equal(Array.FindIndex(doubles, value => value >= key) is var i && i < 0 ? doubles.Length : i, sealedDoubles.LowerBound(key));
        }

        foreach (ulong key in new[] { 0UL, ulong.MaxValue - 10_000, ulong.MaxValue - 5_001, ulong.MaxValue - 5_000, ulong.MaxValue })
        {
            Assert.Equal(Array.FindIndex(unsigned, value => value >= key) is var i && i < 0 ? unsigned.Length : i, sealedUnsigned.LowerBound(key));
        }
    }

    [Fact]
    public void AStructListSealsPlainWithItsDescriptionAndUnsealsToTheSameItems()
    {
        Quote192[] quotes = Enumerable.Range(0, 2_500).Select(i => Quote192.For(i)).ToArray();
        using (var list = new ListMmf<Quote192>(FilePath))
        {
            list.AddRange(quotes);
        }

        SealedListMmf.Seal(FilePath);
        using (var sealedList = new SealedListMmf<Quote192>(FilePath))
        {
            Assert.Equal(quotes, sealedList.ToArray());
        }

        Assert.Equal(ListMmfDescription.ForList<Quote192>()!.Fields, ListMmfDescription.Read(FilePath)!.Fields);
        Assert.True(ListMmfFileInfo.Read(FilePath).IsSealed);

        Assert.True(SealedListMmf.Unseal(FilePath));
        using var back = new ListMmf<Quote192>(FilePath);
        Assert.Equal(quotes, back.ToArray());
    }

    [Fact]
    public void UnsealGivesBackAnAppendableListOfTheSameItems()
    {
        int[] times = BurstyTimes(30_000, seed: 4);
        Write(times);
        SealedListMmf.Seal(FilePath);

        Assert.True(SealedListMmf.Unseal(FilePath));
        Assert.False(SealedListMmf.IsSealed(FilePath));
        using var list = new ListMmf<int>(FilePath);
        list.Add(int.MaxValue);
        Assert.Equal(times.Append(int.MaxValue), list.ToArray());
    }

    [Fact]
    public void SealingTwiceOrUnsealingAnAppendableListChangesNothing()
    {
        Write(new long[] { 1, 2, 3 });

        Assert.False(SealedListMmf.Unseal(FilePath));
        Assert.True(SealedListMmf.Seal(FilePath));
        byte[] sealedBytes = File.ReadAllBytes(FilePath);
        Assert.False(SealedListMmf.Seal(FilePath));
        Assert.Equal(sealedBytes, File.ReadAllBytes(FilePath));
    }

    [Fact]
    public void AListWithAWriterIsNotSealedAndStaysAsItWas()
    {
        using var writer = new ListMmf<long>(FilePath);
        writer.AddRange([1, 2, 3]);

        Assert.Throws<ListMmfLockedException>(() => SealedListMmf.Seal(FilePath));
        Assert.False(SealedListMmf.IsSealed(FilePath));
        writer.Add(4);
        Assert.Equal(4, writer.Count);
    }

    [Fact]
    public void AnAppendableListOpenedOnASealedFileIsToldItIsSealed()
    {
        Write(new long[] { 1, 2, 3 });
        SealedListMmf.Seal(FilePath);

        var exception = Assert.Throws<ListMmfFormatException>(() => new ListMmf<long>(FilePath, FileAccess.Read));

        Assert.Contains("sealed", exception.Message, StringComparison.Ordinal);
        Assert.Contains(FilePath, exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ASealedListOfAnotherTypeIsRefused()
    {
        Write(new long[] { 1, 2, 3 });
        SealedListMmf.Seal(FilePath);

        Assert.Throws<ListMmfDataTypeException>(() => new SealedListMmf<double>(FilePath));
        Assert.Throws<ListMmfDataTypeException>(() => new SealedListMmf<int>(FilePath));
    }

    [Fact]
    public void ADamagedBlockFailsVerifyNamingTheBlock()
    {
        Write(BurstyTimes(10_000, seed: 5));
        SealedListMmf.Seal(FilePath);
        using (var stream = new FileStream(FilePath, FileMode.Open, FileAccess.ReadWrite))
        {
            // Block 0 starts on the first page after the header; a byte of its payload is flipped.
            stream.Position = 4096 + 60;
            int value = stream.ReadByte();
            stream.Position--;
            stream.WriteByte((byte)(value ^ 0x10));
        }

        using var sealedList = new SealedListMmf<int>(FilePath);
        var exception = Assert.Throws<ListMmfFormatException>(() => sealedList.Verify());

        Assert.Contains("block 0 ", exception.Message, StringComparison.Ordinal);
        Assert.Contains("checksum", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ASealedFileCutShortIsRefusedAtTheOpen()
    {
        Write(BurstyTimes(10_000, seed: 6));
        SealedListMmf.Seal(FilePath);
        using (var stream = new FileStream(FilePath, FileMode.Open, FileAccess.ReadWrite))
        {
            stream.SetLength(stream.Length - 8);
        }

        var exception = Assert.Throws<ListMmfFormatException>(() => new SealedListMmf<int>(FilePath));

        Assert.Contains("cut short", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ADamagedDirectoryIsRefusedAtTheOpen()
    {
        Write(BurstyTimes(10_000, seed: 7));
        SealedListMmf.Seal(FilePath);
        using (var stream = new FileStream(FilePath, FileMode.Open, FileAccess.ReadWrite))
        {
            stream.Position = stream.Length - 12;
            stream.WriteByte(0x77);
        }

        var exception = Assert.Throws<ListMmfFormatException>(() => new SealedListMmf<int>(FilePath));

        Assert.Contains("directory", exception.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(nameof(ReplacementStep.WriteCopy))]
    [InlineData(nameof(ReplacementStep.MarkOld))]
    [InlineData(nameof(ReplacementStep.Rename))]
    public void ASealThatFailsBeforeTheRenameLeavesTheAppendableList(string stepName)
    {
        var step = Enum.Parse<ReplacementStep>(stepName);
        long[] values = Enumerable.Range(0, 5_000).Select(i => (long)i * 3).ToArray();
        Write(values);
        FileReplacement.BeforeStep = at =>
        {
            if (at == step)
            {
                throw new IOException("injected");
            }
        };

        var exception = Assert.Throws<ListMmfException>(() => SealedListMmf.Seal(FilePath));

        FileReplacement.BeforeStep = null;
        Assert.Contains("unchanged", exception.Message, StringComparison.Ordinal);
        Assert.False(SealedListMmf.IsSealed(FilePath));
        using var list = new ListMmf<long>(FilePath);
        Assert.Equal(values, list.ToArray());
        Assert.Equal(["list.bin", "list.bin.writer-lock"], Directory.GetFiles(_directory.Path).Select(Path.GetFileName).Order());
    }

    [Theory]
    [InlineData(nameof(ReplacementStep.WriteCopy))]
    [InlineData(nameof(ReplacementStep.Rename))]
    public void AnUnsealThatFailsBeforeTheRenameLeavesTheSealedList(string stepName)
    {
        var step = Enum.Parse<ReplacementStep>(stepName);
        long[] values = Enumerable.Range(0, 5_000).Select(i => (long)i * 3).ToArray();
        Write(values);
        SealedListMmf.Seal(FilePath);
        FileReplacement.BeforeStep = at =>
        {
            if (at == step)
            {
                throw new IOException("injected");
            }
        };

        Assert.Throws<ListMmfException>(() => SealedListMmf.Unseal(FilePath));

        FileReplacement.BeforeStep = null;
        using var sealedList = new SealedListMmf<long>(FilePath);
        Assert.Equal(values, sealedList.ToArray());
        Assert.True(SealedListMmf.IsSealed(FilePath));
    }

    /// <summary>Ascending Unix seconds in bursts: runs of one time, steps of a second, and a gap of hours every 10,000 or so.</summary>
    /// <summary>
    /// A sealed seconds series and a sealed ticks series answer every time search as the appendable series do: the
    /// times between seconds, before the first and after the last, DateTime.MinValue (int.MinValue in a seconds file)
    /// and times no Int32 second holds.
    /// </summary>
    [Fact]
    public void TimeSearchesOfSealedSeriesGiveTheAppendableSeriesAnswers()
    {
        DateTime[] times = [DateTime.MinValue, .. BurstyTimes(5_000, seed: 9).Select(ListMmfTimeSeriesDateTimeSeconds.ToDateTime)];
        string seconds = _directory.File("seconds.bin");
        string ticks = _directory.File("ticks.bin");
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(seconds, TimeSeriesOrder.AscendingOrEqual))
        using (var tickSeries = new ListMmfTimeSeriesDateTime(ticks, TimeSeriesOrder.AscendingOrEqual))
        {
            series.AddRange(times);
            tickSeries.AddRange(times.Select(time => time.AddTicks(time.Ticks % 7)).ToArray());
        }

        File.Copy(seconds, seconds + ".appendable");
        File.Copy(ticks, ticks + ".appendable");
        SealedListMmf.Seal(seconds);
        SealedListMmf.Seal(ticks);
        DateTime[] probes =
        [
            DateTime.MinValue, DateTime.MinValue.AddTicks(1), new(1901, 12, 13, 20, 45, 52), new(1901, 12, 13, 20, 45, 53),
            new(2038, 1, 19, 3, 14, 7), new(2038, 1, 19, 3, 14, 8), DateTime.MaxValue,
            .. times.Where((_, i) => i % 37 == 1).SelectMany(time => new[] { time, time.AddTicks(-1), time.AddTicks(1), time.AddSeconds(1) }),
        ];

        using var appendableSeconds = ListMmfTimeSeriesDateTimeSeconds.OpenRead(seconds + ".appendable", TimeSeriesOrder.AscendingOrEqual);
        using var appendableTicks = ListMmfTimeSeriesDateTime.OpenRead(ticks + ".appendable", TimeSeriesOrder.AscendingOrEqual);
        using var sealedSeconds = new SealedListMmf<int>(seconds);
        using var sealedTicks = new SealedListMmf<long>(ticks);
        Assert.Equal(
            probes.Select(time => (appendableSeconds.LowerBound(time), appendableSeconds.UpperBound(time), appendableTicks.LowerBound(time), appendableTicks.UpperBound(time))),
            probes.Select(time => (sealedSeconds.LowerBound(time), sealedSeconds.UpperBound(time), sealedTicks.LowerBound(time), sealedTicks.UpperBound(time))));
    }

    [Fact]
    public void AListOfIntegersThatAreNotTimesIsNotSearchedByTime()
    {
        Write(Enumerable.Range(0, 100).ToArray());
        SealedListMmf.Seal(FilePath);
        using var sealedList = new SealedListMmf<int>(FilePath);

        var refused = Assert.Throws<ListMmfDataTypeException>(() => sealedList.LowerBound(new DateTime(2024, 1, 2)));

        Assert.Contains("not UnixSeconds times", refused.Message, StringComparison.Ordinal);
        Assert.Contains(FilePath, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ASealedSeriesKeepsItsUtcTimesAndConvertsALocalTimeAsTheSeriesDid()
    {
        var utc = new ListMmfOptions { TimesAreUtc = true };
        DateTime[] times = Enumerable.Range(0, 3_000).Select(i => new DateTime(2024, 3, 10, 0, 0, 0, DateTimeKind.Utc).AddMinutes(i)).ToArray();
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending, options: utc))
        {
            series.AddRange(times);
        }

        File.Copy(FilePath, FilePath + ".appendable");
        SealedListMmf.Seal(FilePath);
        DateTime local = new DateTime(2024, 3, 11, 12, 30, 0, DateTimeKind.Utc).ToLocalTime();

        using var appendable = ListMmfTimeSeriesDateTimeSeconds.OpenRead(FilePath + ".appendable", TimeSeriesOrder.Ascending);
        using var sealedSeries = new SealedListMmf<int>(FilePath);
        Assert.True(sealedSeries.TimesAreUtc);
        Assert.Equal(appendable.LowerBound(local), sealedSeries.LowerBound(local));
    }

    [Fact]
    public void ASealedUtcSeriesRefusesAnUnspecifiedTimeAsTheSeriesDid()
    {
        DateTime ten = new(2024, 3, 10, 10, 0, 0, DateTimeKind.Utc);
        using (var series = new ListMmfTimeSeriesDateTime(FilePath, TimeSeriesOrder.Ascending, options: new ListMmfOptions { TimesAreUtc = true }))
        {
            series.Add(ten);
        }

        SealedListMmf.Seal(FilePath);
        using var sealedSeries = new SealedListMmf<long>(FilePath);

        var refused = Assert.Throws<ArgumentException>(() => sealedSeries.LowerBound(DateTime.SpecifyKind(ten, DateTimeKind.Unspecified)));
        Assert.Contains(FilePath, refused.Message, StringComparison.Ordinal);
        Assert.Equal(1, sealedSeries.UpperBound(ten));
    }

    internal static int[] BurstyTimes(int count, int seed)
    {
        var random = new Random(seed);
        int[] times = new int[count];
        int time = 1_704_187_800;
        for (int i = 0; i < count; i++)
        {
            int draw = random.Next(100_000);
            time += draw < 60_000 ? 0 : draw < 99_990 ? 1 : random.Next(3_600, 60_000);
            times[i] = time;
        }

        return times;
    }

    private static long LowerBound(int[] sorted, int key)
    {
        int index = Array.BinarySearch(sorted, key);
        if (index < 0)
        {
            return ~index;
        }

        while (index > 0 && sorted[index - 1] == key)
        {
            index--;
        }

        return index;
    }

    private static long UpperBound(int[] sorted, int key) => key == int.MaxValue ? sorted.Length : LowerBound(sorted, key + 1);

    private void Write<T>(T[] values)
        where T : unmanaged => Write(values, FilePath);

    private static void Write<T>(T[] values, string path)
        where T : unmanaged
    {
        using var list = new ListMmf<T>(path);
        list.AddRange(values);
    }
}
