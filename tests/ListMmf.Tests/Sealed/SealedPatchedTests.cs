using System;
using System.IO;
using System.Linq;
using System.Numerics;
using ListMmf.Sealed;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// Integers whose blocks a few outliers would widen (trade sizes mostly of a few lots, one trade in ten a hundred times
/// larger): sealed as patched frame of reference, narrow for all but the outliers, every value back bit for bit read
/// in place or decoded, and blocks that ascend kept searchable in place.
/// </summary>
public sealed class SealedPatchedTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("sizes.bin");

    [Fact]
    public void SizesWithRareLargeTradesSealPatchedInUnderOneByteASize()
    {
        int[] sizes = Sizes(100_000, seed: 1);

        Seal(sizes);

        Assert.Equal([SealedCodec.PatchedFrameOfReference], SealedCodecs.Of(FilePath).Distinct());
        using var sealedList = new SealedListMmf<int>(FilePath);
        Assert.True(sealedList.LengthOnDisk < sizes.Length, $"{sealedList.LengthOnDisk:N0} bytes for {sizes.Length:N0} sizes");
    }

    [Fact]
    public void EverySizeReadInPlaceIsTheSizeWritten()
    {
        int[] sizes = Sizes(10_500, seed: 2);
        sizes[0] = 900;
        sizes[1023] = 901;
        sizes[^1] = 902;
        Seal(sizes);
        using var sealedList = new SealedListMmf<int>(FilePath);

        int[] inPlace = new int[sizes.Length];
        for (int i = 0; i < sizes.Length; i++)
        {
            inPlace[i] = sealedList[i];
        }

        Assert.Equal(sizes, inPlace);
    }

    [Fact]
    public void EverySizeDecodedIsTheSizeWritten()
    {
        int[] sizes = Sizes(10_500, seed: 3);
        Seal(sizes);
        using var sealedList = new SealedListMmf<int>(FilePath);

        int[] decoded = new int[sizes.Length - 700];
        sealedList.CopyTo(700, decoded);

        Assert.Equal(sizes[700..], decoded);
    }

    [Fact]
    public void OutliersAtTheEndsOfEachIntegerTypeComeBackBitForBit()
    {
        AssertRoundTrip<byte>();
        AssertRoundTrip<short>();
        AssertRoundTrip<ushort>();
        AssertRoundTrip<int>();
        AssertRoundTrip<uint>();
        AssertRoundTrip<long>();
        AssertRoundTrip<ulong>();
    }

    [Fact]
    public void Int64sThatOnlyTheirOutliersMakeTooWideToPackArePatchedInsteadOfPlain()
    {
        long[] values = Sizes(5_000, seed: 4).Select(size => size > 9 ? long.MaxValue - size : size).ToArray();

        Seal(values);

        Assert.Equal([SealedCodec.PatchedFrameOfReference], SealedCodecs.Of(FilePath).Distinct());
        using var sealedList = new SealedListMmf<long>(FilePath);
        Assert.Equal(values, sealedList.ToArray());
    }

    [Fact]
    public void AscendingTimesWithAGapKeepFrameOfReferenceAndAreSearchedInPlace()
    {
        int[] times = Enumerable.Range(0, 4_096).Select(i => 1_704_186_000 + (i / 3) + (i >= 1_000 ? 86_400 : 0)).ToArray();

        Seal(times);

        Assert.DoesNotContain(SealedCodec.PatchedFrameOfReference, SealedCodecs.Of(FilePath));
        using var sealedList = new SealedListMmf<int>(FilePath);
        Assert.Equal(1_000, sealedList.LowerBound(1_704_186_000 + 334));
    }

    [Fact]
    public void UnsealingAPatchedListGivesItsItemsBackToAppendTo()
    {
        int[] sizes = Sizes(3_000, seed: 5);
        Seal(sizes);

        SealedListMmf.Unseal(FilePath);

        using var list = new ListMmf<int>(FilePath);
        list.Add(7);
        Assert.Equal([.. sizes, 7], list.ToArray());
    }

    [Fact]
    public void VerifyNamesABlockWhosePatchPositionsDoNotAscend()
    {
        Seal(Sizes(2_000, seed: 6));
        using (SealedFile file = SealedFile.Open(FilePath))
        {
            Assert.True(file.Block(0).Patches >= 2);
        }

        SwapFirstTwoPatchPositions();

        using var sealedList = new SealedListMmf<int>(FilePath);
        var exception = Assert.Throws<ListMmfFormatException>(() => sealedList.Verify());
        Assert.Contains("block 0 ", exception.Message, StringComparison.Ordinal);
        Assert.Contains("patches' positions do not ascend", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void APatchedBlockClaimingMorePatchesThanValuesIsRefusedAsDamaged()
    {
        Seal(Sizes(2_000, seed: 8));
        byte[] bytes = File.ReadAllBytes(FilePath);
        int block0 = BitConverter.ToInt32(bytes, SealedLayout.BlocksOffsetOffset);
        BitConverter.TryWriteBytes(bytes.AsSpan(block0 + SealedLayout.BlockFirstOffset, sizeof(ushort)), (ushort)1_025);
        File.WriteAllBytes(FilePath, bytes);

        using var sealedList = new SealedListMmf<int>(FilePath);
        var exception = Assert.Throws<ListMmfFormatException>(() => sealedList[0]);

        Assert.Contains("block 0 ", exception.Message, StringComparison.Ordinal);
        Assert.Contains("does not fit", exception.Message, StringComparison.Ordinal);
    }

    /// <summary>Sizes of 1-9 lots, one in ten of 100-999.</summary>
    private static int[] Sizes(int count, int seed)
    {
        var random = new Random(seed);
        return Enumerable.Range(0, count).Select(_ => random.Next(10) == 0 ? random.Next(100, 1_000) : random.Next(1, 10)).ToArray();
    }

    /// <summary>
    /// Sizes whose outliers are near the type's maximum or its middle (so that neither frame of reference nor deltas,
    /// which wrap, pack them narrow), sealed and read back in place and decoded.
    /// </summary>
    private void AssertRoundTrip<T>()
        where T : unmanaged, IBinaryInteger<T>, IMinMaxValue<T>
    {
        T[] values = Sizes(3_000, seed: 7)
            .Select((size, i) => size <= 9 ? T.CreateTruncating(size)
                : i % 2 == 0 ? T.MaxValue - T.CreateTruncating(size) : (T.MaxValue / (T.One + T.One)) + T.CreateTruncating(size))
            .ToArray();
        Seal(values);

        Assert.Equal([SealedCodec.PatchedFrameOfReference], SealedCodecs.Of(FilePath).Distinct());
        using var sealedList = new SealedListMmf<T>(FilePath);
        Assert.Equal(values, sealedList.ToArray());
        Assert.Equal(values, Enumerable.Range(0, values.Length).Select(i => sealedList[i]));
        sealedList.Dispose();
        File.Delete(FilePath);
    }

    /// <summary>Swaps block 0's first two patch positions in place and mends its checksum, so only the order is wrong.</summary>
    private unsafe void SwapFirstTwoPatchPositions()
    {
        byte[] bytes = File.ReadAllBytes(FilePath);
        fixed (byte* file = bytes)
        {
            byte* start = file + BitConverter.ToInt32(bytes, SealedLayout.BlocksOffsetOffset);
            SealedBlock block = SealedBlock.At(start);
            byte* positions = block.PatchPositions;
            ulong first = BitPacking.Get(positions, PatchPlan.PositionWidth, 0);
            ulong second = BitPacking.Get(positions, PatchPlan.PositionWidth, 1);
            ulong both = *(ulong*)positions;
            both = (both & ~0xFFFFFUL) | second | (first << PatchPlan.PositionWidth);
            *(ulong*)positions = both;
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
