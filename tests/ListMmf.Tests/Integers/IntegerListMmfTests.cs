using System;
using System.IO;
using System.Linq;
using ListMmf.Tests.Compatibility;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests.Integers;

public sealed class IntegerListMmfTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("values.bt");

    private string HandMade(DataType code, params long[] values) =>
        HandMadeFile.Write(FilePath, (int)code, DataTypeInfo.Of(code).Size, values);

    private static long[] All(IntegerListMmf list)
    {
        var values = new long[list.Count];
        list.CopyTo(0, values);
        return values;
    }

    [Theory]
    [InlineData(DataType.SByte, -128, -1, 127)]
    [InlineData(DataType.Byte, 0, 1, 255)]
    [InlineData(DataType.Int16, -32768, -2, 32767)]
    [InlineData(DataType.UInt16, 0, 3, 65535)]
    [InlineData(DataType.Int24, -8_388_608, -1, 8_388_607)]
    [InlineData(DataType.UInt24, 0, 4, 16_777_215)]
    [InlineData(DataType.Int32, int.MinValue, -5, int.MaxValue)]
    [InlineData(DataType.UInt32, 0, 6, uint.MaxValue)]
    [InlineData(DataType.Int40, -549_755_813_888, -7, 549_755_813_887)]
    [InlineData(DataType.UInt40, 0, 8, 1_099_511_627_775)]
    [InlineData(DataType.Int48, -140_737_488_355_328, -9, 140_737_488_355_327)]
    [InlineData(DataType.UInt48, 0, 10, 281_474_976_710_655)]
    [InlineData(DataType.Int56, -36_028_797_018_963_968, -11, 36_028_797_018_963_967)]
    [InlineData(DataType.UInt56, 0, 12, 72_057_594_037_927_935)]
    [InlineData(DataType.Int64, long.MinValue, -13, long.MaxValue)]
    [InlineData(DataType.UInt64, 0, 14, long.MaxValue)]
    public void AHandMadeFileOfEveryIntegerCodeReadsAsLongs(DataType code, long min, long middle, long max)
    {
        using var list = IntegerListMmf.Open(HandMade(code, min, middle, max), FileAccess.Read);

        Assert.Equal(code, list.DataType);
        Assert.Equal([min, middle, max], All(list));
        Assert.Equal(max, list[2]);
    }

    [Theory]
    [InlineData(DataType.Byte, 256)]
    [InlineData(DataType.Byte, -1)]
    [InlineData(DataType.Int24, 8_388_608)]
    [InlineData(DataType.UInt40, 1_099_511_627_776)]
    [InlineData(DataType.Int56, long.MinValue)]
    public void AFixedWidthListRefusesAValueItCannotHoldAndWritesNothing(DataType code, long value)
    {
        using var list = IntegerListMmf.Open(HandMade(code, 1, 2));

        var error = Assert.Throws<ArgumentOutOfRangeException>(() => list.Add(value));
        Assert.Throws<ArgumentOutOfRangeException>(() => list.AddRange([3, value]));

        Assert.Contains(code.ToString(), error.Message);
        Assert.Equal(2, list.Count);
        Assert.Equal(code, list.DataType);
    }

    [Fact]
    public void TheSmallestWidthStartsAtOneByteAndWidensToTheNarrowestCodeForItsValues()
    {
        using var list = IntegerListMmf.OpenSmallest(FilePath);
        Assert.Equal(DataType.Byte, list.DataType);

        list.AddRange([0, 255]);
        Assert.Equal(DataType.Byte, list.DataType);
        list.Add(256);
        Assert.Equal(DataType.UInt16, list.DataType);
        list.Add(70_000);
        Assert.Equal(DataType.UInt24, list.DataType);
        list.Add(-1);
        Assert.Equal(DataType.Int24, list.DataType);
        list.AddRange([1L << 40, -5]);
        Assert.Equal(DataType.Int48, list.DataType);
        list.Add(long.MinValue);
        Assert.Equal(DataType.Int64, list.DataType);

        Assert.Equal([0, 255, 256, 70_000, -1, 1L << 40, -5, long.MinValue], All(list));
    }

    [Fact]
    public void AWidenedFileKeepsItsValuesWhenReopened()
    {
        using (var list = IntegerListMmf.OpenSmallest(FilePath))
        {
            list.AddRange(Enumerable.Range(0, 100_000).Select(i => (long)i * 3).ToArray());
        }

        using var reopened = IntegerListMmf.Open(FilePath, FileAccess.Read);
        Assert.Equal(DataType.UInt24, reopened.DataType);
        Assert.Equal(299_997, reopened[99_999]);
        Assert.Empty(Directory.GetFiles(_directory.Path, "*.tmp"));
    }

    [Fact]
    public void AReaderReopensWhenTheWriterWidens()
    {
        using var writer = IntegerListMmf.OpenSmallest(FilePath);
        writer.AddRange([1, 2, 3]);
        using var reader = IntegerListMmf.Open(FilePath, FileAccess.Read);
        Assert.Equal(DataType.Byte, reader.DataType);

        writer.Add(1_000_000);

        Assert.Equal(4, reader.Count);
        Assert.Equal(DataType.UInt24, reader.DataType);
        Assert.Equal([1, 2, 3, 1_000_000], All(reader));
    }

    [Fact]
    public void TruncateBeginningDropsTheFirstValuesForTheWriterAndItsReaders()
    {
        using var writer = IntegerListMmf.OpenSmallest(FilePath);
        writer.AddRange(Enumerable.Range(0, 1000).Select(i => (long)i).ToArray());
        using var reader = IntegerListMmf.Open(FilePath, FileAccess.Read);

        writer.TruncateBeginning(400);
        writer.Add(1000);

        Assert.Equal(601, writer.Count);
        Assert.Equal(400, writer[0]);
        Assert.Equal(601, reader.Count);
        Assert.Equal(Enumerable.Range(400, 601).Select(i => (long)i).ToArray(), All(reader));
        Assert.Throws<ArgumentOutOfRangeException>(() => writer.TruncateBeginning(602));
    }

    [Fact]
    public void TruncateBeginningKeepsStoredValuesALongCannotHold()
    {
        using (var raw = new ListMmf<ulong>(FilePath))
        {
            raw.AddRange([1UL, ulong.MaxValue, 3UL]);
        }

        using (var writer = IntegerListMmf.Open(FilePath))
        {
            writer.TruncateBeginning(1);
            Assert.Equal(2, writer.Count);
        }

        using var stored = new ListMmf<ulong>(FilePath, FileAccess.Read);
        Assert.Equal([ulong.MaxValue, 3UL], stored.AsSpan(0, 2).ToArray());
    }

    [Fact]
    public void TheWriterKeepsItsLockAcrossAReplacement()
    {
        using var writer = IntegerListMmf.OpenSmallest(FilePath);
        writer.Add(100_000);

        Assert.Throws<ListMmfLockedException>(() => IntegerListMmf.OpenSmallest(FilePath));
        Assert.Throws<ListMmfLockedException>(() => new ListMmf<ushort>(FilePath));
    }

    [Fact]
    public void AUInt64ValueAboveLongMaxValueIsRefusedWhenRead()
    {
        using var list = IntegerListMmf.Open(HandMade(DataType.UInt64, 1, -1), FileAccess.Read);

        Assert.Equal(1, list[0]);
        Assert.Throws<ListMmfFormatException>(() => list[1]);
    }

    [Fact]
    public void AFileOfAnotherTypeIsRefused()
    {
        using (var prices = new ListMmf<double>(FilePath))
        {
            prices.Add(1.5);
        }

        var error = Assert.Throws<ListMmfDataTypeException>(() => IntegerListMmf.Open(FilePath, FileAccess.Read));
        Assert.Contains("not integers", error.Message);
    }

    [Fact]
    public void AReaderCannotAppend()
    {
        using var list = IntegerListMmf.Open(HandMade(DataType.Int32, 1), FileAccess.Read);

        Assert.Throws<NotSupportedException>(() => list.Add(2));
        Assert.Throws<NotSupportedException>(() => list.TruncateBeginning(1));
    }

    [TmpfsFact]
    public void WideningOnAFullDiskLeavesTheFileWholeAndSaysSo()
    {
        using var disk = new TmpfsMount("size=1m");
        string path = disk.File("values.bt");
        using var list = IntegerListMmf.OpenSmallest(path);
        list.AddRange(Enumerable.Range(0, 200_000).Select(i => (long)(i % 200)).ToArray());
        File.WriteAllBytes(disk.File("filler"), new byte[(1 << 20) - (int)new FileInfo(path).Length - (64 * 1024)]);

        var error = Assert.Throws<ListMmfException>(() => list.Add(1L << 40));

        Assert.Contains("could not widen", error.Message);
        Assert.Contains("The file is unchanged", error.Message);
        Assert.Equal(DataType.Byte, list.DataType);
        Assert.Equal(200_000, list.Count);
        Assert.Equal(199, list[199_999]);
        Assert.Empty(Directory.GetFiles(disk.Path, "*.tmp"));
        using var reader = IntegerListMmf.Open(path, FileAccess.Read);
        Assert.Equal(DataType.Byte, reader.DataType);
        Assert.Equal(200_000, reader.Count);
    }

    [UnixFact]
    public void WideningThroughASymbolicLinkReplacesTheTargetAndKeepsTheLink()
    {
        string target = _directory.File("real.bt");
        string link = _directory.File("link.bt");
        using (IntegerListMmf.OpenSmallest(target))
        {
        }

        File.CreateSymbolicLink(link, target);
        using var list = IntegerListMmf.OpenSmallest(link);
        list.Add(100_000);

        Assert.NotNull(new FileInfo(link).LinkTarget);
        Assert.Throws<ListMmfLockedException>(() => IntegerListMmf.OpenSmallest(target));
        using var reader = IntegerListMmf.Open(target, FileAccess.Read);
        Assert.Equal(DataType.UInt24, reader.DataType);
        Assert.Equal(100_000, reader[0]);
    }

    [Fact]
    public void AWriterRemovesWhatAnInterruptedReplacementLeft()
    {
        using (IntegerListMmf.OpenSmallest(FilePath))
        {
        }

        string leftover = ListMmf.Storage.DurableFile.TemporaryFor(FilePath);
        File.WriteAllBytes(leftover, new byte[100]);

        using var list = IntegerListMmf.OpenSmallest(FilePath);

        Assert.False(File.Exists(leftover));
    }
}
