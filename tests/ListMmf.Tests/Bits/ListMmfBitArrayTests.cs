using System;
using System.Buffers.Binary;
using System.Collections;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Bits;

public sealed class ListMmfBitArrayTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("bits.bt");

    /// <summary>
    /// A bit file in the existing library's layout, byte by byte: header (version 0, code 1, count = Int32 words),
    /// the Int64 bit count at offset 16, the words from offset 24, bit i at bit i % 32 of word i / 32.
    /// </summary>
    private string HandMade(long bitCount, params uint[] words)
    {
        var bytes = new byte[24 + (words.Length * 4) + 256];
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(4), 1);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(8), words.Length);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(16), bitCount);
        for (int i = 0; i < words.Length; i++)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(24 + (i * 4)), words[i]);
        }

        File.WriteAllBytes(FilePath, bytes);
        return FilePath;
    }

    private static bool[] Random(int count, int seed)
    {
        var random = new Random(seed);
        return Enumerable.Range(0, count).Select(_ => random.Next(3) == 0).ToArray();
    }

    [Fact]
    public void AHandMadeFileInTheExistingLayoutReadsBitByBit()
    {
        using var bits = new ListMmfBitArray(HandMade(35, 0x8000_0005u, 0b110u), FileAccess.Read);

        Assert.Equal(35, bits.Count);
        Assert.True(bits[0]);
        Assert.False(bits[1]);
        Assert.True(bits[2]);
        Assert.True(bits[31]);
        Assert.False(bits[32]);
        Assert.True(bits[33]);
        Assert.True(bits[34]);
        Assert.Equal(5, bits.PopCount());
    }

    [Fact]
    public void BitsAddedHereAreWrittenInTheExistingLayout()
    {
        using (var bits = new ListMmfBitArray(FilePath))
        {
            bits.AddRange([true, false, true]);
            bits.AddRange(Enumerable.Repeat(false, 29).ToArray());
            bits.Add(true);
        }

        byte[] file = File.ReadAllBytes(FilePath);
        Assert.Equal(1, BinaryPrimitives.ReadInt32LittleEndian(file.AsSpan(4)));
        Assert.Equal(2, BinaryPrimitives.ReadInt64LittleEndian(file.AsSpan(8)));
        Assert.Equal(33, BinaryPrimitives.ReadInt64LittleEndian(file.AsSpan(16)));
        Assert.Equal(0b101u, BinaryPrimitives.ReadUInt32LittleEndian(file.AsSpan(24)));
        Assert.Equal(1u, BinaryPrimitives.ReadUInt32LittleEndian(file.AsSpan(28)));
    }

    [Fact]
    public void BulkOperationsAgreeWithSystemCollectionsBitArray()
    {
        bool[] left = Random(100_003, 1), right = Random(100_003, 2);
        using var a = new ListMmfBitArray(_directory.File("a.bt"));
        using var b = new ListMmfBitArray(_directory.File("b.bt"));
        a.AddRange(left);
        b.AddRange(right);
        var expected = new BitArray(left);
        var other = new BitArray(right);

        a.And(b);
        expected.And(other);
        Assert.Equal(Bools(expected), Read(a));
        a.Or(b);
        expected.Or(other);
        Assert.Equal(Bools(expected), Read(a));
        a.Xor(b);
        expected.Xor(other);
        Assert.Equal(Bools(expected), Read(a));
        a.Not();
        expected.Not();
        Assert.Equal(Bools(expected), Read(a));
        Assert.Equal(Bools(expected).Count(bit => bit), a.PopCount());
    }

    [Fact]
    public void IndexOfNextFindsEachBitOfTheValueAndStopsAtTheCount()
    {
        bool[] values = Random(10_000, 3);
        using var bits = new ListMmfBitArray(FilePath);
        bits.AddRange(values);

        foreach (bool value in new[] { true, false })
        {
            for (int start = 0; start < values.Length; start += 37)
            {
                int expected = Array.IndexOf(values, value, start);
                Assert.Equal(expected, bits.IndexOfNext(value, start));
            }
        }

        Assert.Equal(-1, bits.IndexOfNext(true, 10_000));
    }

    [Fact]
    public void BitsPastTheCountAreNeverFound()
    {
        using var bits = new ListMmfBitArray(HandMade(3, 0xFFFF_FFF0u), FileAccess.Read);

        Assert.Equal(-1, bits.IndexOfNext(true, 0));
        Assert.Equal(0, bits.PopCount());
    }

    [Fact]
    public void ArraysOfDifferentCountsCannotBeCombined()
    {
        using var a = new ListMmfBitArray(_directory.File("a.bt"));
        using var b = new ListMmfBitArray(_directory.File("b.bt"));
        a.AddRange([true, true]);
        b.Add(true);

        Assert.Throws<ArgumentException>(() => a.And(b));
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void FlushMakesTheBitsAndTheirCountsDurableInTheExistingLayout(MappingBackend backend)
    {
        using (var bits = new ListMmfBitArray(FilePath, FileAccess.ReadWrite, Backends.Options(backend)))
        {
            for (int i = 0; i < 100_000; i++)
            {
                bits.Add(i % 3 == 0);
            }

            bits.Flush();
            bits.Flush();
        }

        byte[] file = File.ReadAllBytes(FilePath);
        Assert.Equal(0, BitConverter.ToInt32(file, 0));
        Assert.Equal((100_000 + 31) / 32, BitConverter.ToInt64(file, 8));
        Assert.Equal(100_000, BitConverter.ToInt64(file, 16));
        using var reader = new ListMmfBitArray(FilePath, FileAccess.Read);
        Assert.Equal(33_334, reader.PopCount());
    }

    [Fact]
    public void AReaderFollowsTheWriterAcrossGrowth()
    {
        using var writer = new ListMmfBitArray(FilePath);
        using var reader = new ListMmfBitArray(FilePath, FileAccess.Read);
        bool[] values = Random(3_000_000, 4);

        writer.AddRange(values);

        Assert.Equal(values.Length, reader.Count);
        Assert.Equal(values[2_999_999], reader[2_999_999]);
    }

    [Fact]
    public void ABitCountBeyondItsWordsIsAFormatError()
    {
        var error = Assert.Throws<ListMmfFormatException>(() => new ListMmfBitArray(HandMade(65, 1u, 2u), FileAccess.Read));

        Assert.Contains("does not fit the header's 2 words", error.Message);
    }

    [Fact]
    public void AWordCountBeyondTheFileIsAFormatError()
    {
        var bytes = new byte[64];
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(4), 1);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(8), 11);
        File.WriteAllBytes(FilePath, bytes);

        Assert.Throws<ListMmfFormatException>(() => new ListMmfBitArray(FilePath, FileAccess.Read));
    }

    [Fact]
    public void AListOfAnotherTypeCannotOpenABitFileNorTheBitArrayAnotherFile()
    {
        HandMade(3, 5u);
        Assert.Throws<ListMmfDataTypeException>(() => new ListMmf<int>(FilePath, FileAccess.Read));

        string other = _directory.File("ints.bt");
        using (var ints = new ListMmf<int>(other))
        {
            ints.Add(1);
        }

        Assert.Throws<ListMmfDataTypeException>(() => new ListMmfBitArray(other, FileAccess.Read));
    }

    private static bool[] Read(ListMmfBitArray bits) => Enumerable.Range(0, (int)bits.Count).Select(i => bits[i]).ToArray();

    private static bool[] Bools(BitArray bits)
    {
        var values = new bool[bits.Length];
        bits.CopyTo(values, 0);
        return values;
    }
}
