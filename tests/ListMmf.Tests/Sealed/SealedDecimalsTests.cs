using System;
using System.Collections.Generic;
using System.Linq;
using ListMmf.Sealed;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// Prices in cents and pips, which no power-of-two step holds: sealed as integers over a power of ten, every value
/// back bit for bit, searched in place, and any block a power of ten cannot give back kept in another codec.
/// </summary>
public sealed class SealedDecimalsTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("prices.bin");

    [Fact]
    public void CentPricesSealAsDecimalDeltasInUnderTwoBytesAPriceAndComeBackBitForBit()
    {
        double[] prices = Walk(200_000, startCents: 18_734, seed: 1).Select(cents => cents / 100.0).ToArray();

        long length = Seal(prices);

        Assert.Equal([SealedCodec.DecimalDeltas], SealedCodecs.Of(FilePath).Distinct());
        Assert.True(length < prices.Length * 2L, $"{length:N0} bytes for {prices.Length:N0} prices");
        using var sealedList = new SealedListMmf<double>(FilePath);
        Assert.Equal(Bits(prices), Bits(sealedList.ToArray()));
    }

    [Fact]
    public void FivePlacePipPricesAsSinglesComeBackBitForBit()
    {
        float[] prices = Walk(20_000, startCents: 108_731, seed: 2).Select(pips => pips / 100_000f).ToArray();
        Write(prices);

        SealedListMmf.Seal(FilePath);

        Assert.Equal([SealedCodec.DecimalDeltas], SealedCodecs.Of(FilePath).Distinct());
        using var sealedList = new SealedListMmf<float>(FilePath);
        Assert.Equal(prices.Select(BitConverter.SingleToInt32Bits), sealedList.ToArray().Select(BitConverter.SingleToInt32Bits));
    }

    [Fact]
    public void AscendingCentPricesAreSearchedInPlaceAndAgreeWithTheList()
    {
        double[] prices = Enumerable.Range(0, 5_000).Select(i => (10_000 + (i / 3 * 7)) / 100.0).ToArray();
        Seal(prices);
        using var sealedList = new SealedListMmf<double>(FilePath);

        Assert.Equal([SealedCodec.Decimals], SealedCodecs.Of(FilePath).Distinct());
        foreach (double key in new[] { -1, 0.01, 100, 100.06, 100.07, 100.08, 181.65, 216.6, 216.61, 1e9 })
        {
            Assert.Equal(LowerBound(prices, key), sealedList.LowerBound(key));
            Assert.Equal(LowerBound(prices, Math.BitIncrement(key)), sealedList.UpperBound(key));
        }

        Assert.Equal(BitConverter.DoubleToInt64Bits(prices[4_321]), BitConverter.DoubleToInt64Bits(sealedList[4_321]));
    }

    [Fact]
    public void ABlockWhoseLaterPricesHaveMorePlacesTakesTheirExponentForAll()
    {
        double[] prices = Enumerable.Range(0, 1_024).Select(i => i < 1_000 ? (18_000 + (i % 9)) / 10.0 : (187_340 + i) / 1_000.0).ToArray();

        Seal(prices);

        using SealedFile file = SealedFile.Open(FilePath);
        Assert.Equal(1_000.0, file.Block(0).Step);
        Assert.Contains(file.Block(0).Codec, (SealedCodec[])[SealedCodec.Decimals, SealedCodec.DecimalDictionary]);
        using var sealedList = new SealedListMmf<double>(FilePath);
        Assert.Equal(Bits(prices), Bits(sealedList.ToArray()));
    }

    [Fact]
    public void DecimalsAtTheEdgesOfTheirIntegersAndExponentsComeBackBitForBit()
    {
        double[] edges =
        [
            (double)((1L << 53) - 1) / 10, -(double)((1L << 53) - 1) / 1e22, 1e-22, 123_456_789.012_345_678_9, 0.1, 0.2,
            0.30000000000000004, 1e-5, -987.654_321, 4_503_599_627_370_495.5,
        ];
        double[] values = Enumerable.Range(0, 3_000).Select(i => edges[i % edges.Length] * (1 + (i % 2))).ToArray();

        Seal(values);

        using var sealedList = new SealedListMmf<double>(FilePath);
        Assert.Equal(Bits(values), Bits(sealedList.ToArray()));
    }

    [Fact]
    public void ABlockWithAValueNoPowerOfTenGivesBackStaysOutOfTheDecimalCodecs()
    {
        double[] prices = Walk(3_072, startCents: 5_000, seed: 3).Select(cents => cents / 100.0).ToArray();
        prices[1_500] = 1.0 / 3;
        prices[2_500] = -0.0;

        Seal(prices);

        Assert.Equal([SealedCodec.DecimalDeltas, SealedCodec.Plain, SealedCodec.Plain], SealedCodecs.Of(FilePath));
        using var sealedList = new SealedListMmf<double>(FilePath);
        Assert.Equal(Bits(prices), Bits(sealedList.ToArray()));
    }

    [Fact]
    public void QuarterPointPricesKeepThePowerOfTwoTicks()
    {
        double[] prices = Walk(2_048, startCents: 18_000, seed: 4).Select(quarters => quarters * 0.25).ToArray();

        Seal(prices);

        Assert.Equal([SealedCodec.TickDeltas], SealedCodecs.Of(FilePath).Distinct());
    }

    [Fact]
    public void UnsealingCentPricesGivesBackTheAppendableFileThatAppends()
    {
        double[] prices = Walk(4_000, startCents: 7_777, seed: 5).Select(cents => cents / 100.0).ToArray();
        Seal(prices);

        Assert.True(SealedListMmf.Unseal(FilePath));

        using var list = new ListMmf<double>(FilePath);
        list.Add(0.07);
        Assert.Equal(Bits([.. prices, 0.07]), Bits(list.ToArray()));
    }

    /// <summary>A walk of <paramref name="count"/> integers by up to 3 a step, as prices move tick by tick.</summary>
    private static IEnumerable<long> Walk(int count, long startCents, int seed)
    {
        var random = new Random(seed);
        long value = startCents;
        for (int i = 0; i < count; i++)
        {
            value += random.Next(-3, 4);
            yield return value;
        }
    }

    private static long[] Bits(double[] values) => values.Select(BitConverter.DoubleToInt64Bits).ToArray();

    private static long LowerBound(double[] sorted, double key) =>
        Array.FindIndex(sorted, value => value >= key) is var i && i < 0 ? sorted.Length : i;

    private long Seal(double[] values)
    {
        Write(values);
        SealedListMmf.Seal(FilePath);
        using var sealedList = new SealedListMmf<double>(FilePath);
        return sealedList.LengthOnDisk;
    }

    private void Write<T>(T[] values)
        where T : unmanaged
    {
        using var list = new ListMmf<T>(FilePath);
        list.AddRange(values);
    }
}
