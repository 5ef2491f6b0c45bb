using System;
using System.IO;
using System.IO.Hashing;
using ListMmf.Hashing;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// A list's fingerprint is System.IO.Hashing's XXH3-64 of its items' bytes, whether the mapping is hashed in one span
/// or streamed in chunks of any size, and ends at the published count, not at the file's capacity.
/// </summary>
public sealed class MappedXxHash3Tests
{
    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(64)]
    [InlineData(4096)]
    [InlineData(100_003)]
    public unsafe void ChunkedHashEqualsTheOneShotHash(int chunk)
    {
        byte[] bytes = Pattern(100_003);
        fixed (byte* start = bytes)
        {
            Assert.Equal(XxHash3.HashToUInt64(bytes), MappedXxHash3.Hash(start, bytes.Length, chunk));
        }
    }

    [Fact]
    public void ReferenceValueOfXxhsumIsKept()
    {
        // xxhsum -H3 (xxHash 0.8.1) over these 1,024 bytes printed 66a7091480a75327 for the in-house code this replaced.
        byte[] bytes = Pattern(1024);
        Assert.Equal(0x66a7091480a75327UL, XxHash3.HashToUInt64(bytes));
    }

    [Fact]
    public void ListHashCoversThePublishedItemsOnly()
    {
        using var directory = new TempDirectory();
        using var list = new ListMmf<long>(directory.File("values.mmf"), FileAccess.ReadWrite, ListMmfOptions.Default with { InitialCapacity = 10_000 });
        long[] values = new long[1_000];
        for (int i = 0; i < values.Length; i++)
        {
            values[i] = (i * 7919L) - 3;
        }

        list.AddRange(values);
        Assert.Equal(XxHash3.HashToUInt64(System.Runtime.InteropServices.MemoryMarshal.AsBytes(values.AsSpan())), list.ComputeXxHash3());
    }

    private static byte[] Pattern(int length)
    {
        var bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(((i * 167) + 13) >> 3);
        }

        return bytes;
    }
}
