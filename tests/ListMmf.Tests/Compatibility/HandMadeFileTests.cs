using System;
using System.IO;
using Xunit;

namespace ListMmf.Tests.Compatibility;

/// <summary>Files written byte by byte in the existing library's layout (<see cref="HandMadeFile"/>) open with the type their code names and give back the values written.</summary>
public sealed class HandMadeFileTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private T[] Read<T>(int code, int width, params long[] values)
        where T : unmanaged
    {
        using var list = new ListMmf<T>(HandMadeFile.Write(_directory.File($"code{code}.bt"), code, width, values), FileAccess.Read);
        Assert.Equal((DataType)code, list.DataType);
        return list.AsSpan(0, (int)list.Count).ToArray();
    }

    [Fact]
    public void EveryStandardIntegerCodeOpensWithItsType()
    {
        Assert.Equal([sbyte.MinValue, -1, sbyte.MaxValue], Read<sbyte>(2, 1, sbyte.MinValue, -1, sbyte.MaxValue));
        Assert.Equal([0, 1, byte.MaxValue], Read<byte>(3, 1, 0, 1, byte.MaxValue));
        Assert.Equal([short.MinValue, -2, short.MaxValue], Read<short>(4, 2, short.MinValue, -2, short.MaxValue));
        Assert.Equal([0, ushort.MaxValue], Read<ushort>(5, 2, 0, ushort.MaxValue));
        Assert.Equal([int.MinValue, -3, int.MaxValue], Read<int>(6, 4, int.MinValue, -3, int.MaxValue));
        Assert.Equal([0u, uint.MaxValue], Read<uint>(7, 4, 0, uint.MaxValue));
        Assert.Equal([long.MinValue, -4, long.MaxValue], Read<long>(8, 8, long.MinValue, -4, long.MaxValue));
        Assert.Equal([0ul, ulong.MaxValue], Read<ulong>(9, 8, 0, unchecked((long)ulong.MaxValue)));
    }

    [Fact]
    public void FloatingPointCodesOpenWithTheirTypes()
    {
        Assert.Equal([1.5f, -0.25f], Read<float>(10, 4, BitConverter.SingleToInt32Bits(1.5f), BitConverter.SingleToInt32Bits(-0.25f)));
        Assert.Equal([4500.25, double.MaxValue], Read<double>(11, 8, BitConverter.DoubleToInt64Bits(4500.25), BitConverter.DoubleToInt64Bits(double.MaxValue)));
    }

    [Fact]
    public void ATicksFileOpensAsADateTimeSeries()
    {
        var time = new DateTime(2024, 3, 12, 14, 30, 0, 123);
        using var series = ListMmfTimeSeriesDateTime.OpenRead(HandMadeFile.Write(_directory.File("ticks.bt"), 12, 8, 0, time.Ticks), TimeSeriesOrder.AscendingOrEqual);

        Assert.Equal(DateTime.MinValue, series[0]);
        Assert.Equal(time, series[1]);
        Assert.Equal(1, series.LowerBound(time));
    }

    [Fact]
    public void ASecondsFileOpensAsASecondsSeriesWithItsMinValue()
    {
        using var series = ListMmfTimeSeriesDateTimeSeconds.OpenRead(HandMadeFile.Write(_directory.File("seconds.bt"), 13, 4, int.MinValue, 1710198042, 1710198043), TimeSeriesOrder.AscendingOrEqual);

        Assert.Equal(DateTime.MinValue, series[0]);
        Assert.Equal(new DateTime(2024, 3, 11, 23, 0, 42), series[1]);
        Assert.Equal(2, series.LowerBound(new DateTime(2024, 3, 11, 23, 0, 42, 500)));
    }

    [Fact]
    public void AnOddWidthCodeOpensAsAStructOfItsWidth()
    {
        using var list = new ListMmf<Int24Bytes>(HandMadeFile.Write(_directory.File("int24.bt"), 14, 3, -1, 8_388_607), FileAccess.Read);

        Assert.Equal(DataType.Int24, list.DataType);
        Assert.Equal(2, list.Count);
        Assert.Equal(0x7F, list[1].High);
    }

    [Fact]
    public void AnAnyStructFileOpensAsTheCallersStruct()
    {
        byte[] items = new byte[24];
        System.Buffers.Binary.BinaryPrimitives.WriteInt64LittleEndian(items, 638_000_000_000_000_000);
        System.Buffers.Binary.BinaryPrimitives.WriteSingleLittleEndian(items.AsSpan(8), 4500.25f);
        System.Buffers.Binary.BinaryPrimitives.WriteInt64LittleEndian(items.AsSpan(12), 638_000_000_000_000_001);
        System.Buffers.Binary.BinaryPrimitives.WriteSingleLittleEndian(items.AsSpan(20), 4500.5f);

        using var list = new ListMmf<Tick12>(HandMadeFile.Write(_directory.File("structs.bt"), 0, 2, items), FileAccess.Read);

        Assert.Equal(DataType.AnyStruct, list.DataType);
        Assert.Equal(2, list.Count);
        Assert.Equal(638_000_000_000_000_001, list[1].Ticks);
        Assert.Equal(4500.5f, list[1].Price);
    }

    [Fact]
    public void AnUnknownCodeIsAFormatError()
    {
        var error = Assert.Throws<ListMmfFormatException>(() => new ListMmf<int>(HandMadeFile.Write(_directory.File("code22.bt"), 22, 0, []), FileAccess.Read));

        Assert.Contains("data-type code 22", error.Message);
    }

    [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Sequential, Pack = 4)]
    private readonly struct Tick12
    {
#pragma warning disable CS0649 // Filled by the mapping.
        public readonly long Ticks;
        public readonly float Price;
#pragma warning restore CS0649
    }

    private readonly struct Int24Bytes
    {
#pragma warning disable CS0649 // Filled by the mapping.
        public readonly byte Low;
        public readonly byte Middle;
        public readonly byte High;
#pragma warning restore CS0649
    }
}
