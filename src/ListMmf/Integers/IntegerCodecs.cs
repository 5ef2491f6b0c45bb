using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>
/// How one stored integer width holds a <see cref="long"/>: the code, the range, and the conversions both ways. Each
/// codec is a struct with static members, so that an <see cref="IntegerStore{TRaw, TCodec}"/> is compiled for its
/// width and the conversions inline.
/// </summary>
internal interface IIntegerCodec<TRaw>
    where TRaw : unmanaged
{
    static abstract DataType DataType { get; }

    static abstract long ToInt64(TRaw raw);

    /// <summary>The raw value of <paramref name="value"/>; call only for a value within the width's range.</summary>
    static abstract TRaw FromInt64(long value);
}

/// <summary>Three bytes, little-endian: the items of the Int24 and UInt24 codes.</summary>
[StructLayout(LayoutKind.Sequential, Size = 3)]
internal struct Raw3
{
    public byte B0, B1, B2;
}

/// <summary>Five bytes, little-endian: the items of the Int40 and UInt40 codes.</summary>
[StructLayout(LayoutKind.Sequential, Size = 5)]
internal struct Raw5
{
    public uint Low;
    public byte B4;
}

/// <summary>Six bytes, little-endian: the items of the Int48 and UInt48 codes.</summary>
[StructLayout(LayoutKind.Sequential, Size = 6)]
internal struct Raw6
{
    public uint Low;
    public ushort High;
}

/// <summary>Seven bytes, little-endian: the items of the Int56 and UInt56 codes.</summary>
[StructLayout(LayoutKind.Sequential, Size = 7)]
internal struct Raw7
{
    public uint Low;
    public ushort Middle;
    public byte B6;
}

internal struct SByteCodec : IIntegerCodec<sbyte>
{
    public static DataType DataType => DataType.SByte;

    public static long ToInt64(sbyte raw) => raw;

    public static sbyte FromInt64(long value) => (sbyte)value;
}

internal struct ByteCodec : IIntegerCodec<byte>
{
    public static DataType DataType => DataType.Byte;

    public static long ToInt64(byte raw) => raw;

    public static byte FromInt64(long value) => (byte)value;
}

internal struct Int16Codec : IIntegerCodec<short>
{
    public static DataType DataType => DataType.Int16;

    public static long ToInt64(short raw) => raw;

    public static short FromInt64(long value) => (short)value;
}

internal struct UInt16Codec : IIntegerCodec<ushort>
{
    public static DataType DataType => DataType.UInt16;

    public static long ToInt64(ushort raw) => raw;

    public static ushort FromInt64(long value) => (ushort)value;
}

internal struct Int32Codec : IIntegerCodec<int>
{
    public static DataType DataType => DataType.Int32;

    public static long ToInt64(int raw) => raw;

    public static int FromInt64(long value) => (int)value;
}

internal struct UInt32Codec : IIntegerCodec<uint>
{
    public static DataType DataType => DataType.UInt32;

    public static long ToInt64(uint raw) => raw;

    public static uint FromInt64(long value) => (uint)value;
}

internal struct Int64Codec : IIntegerCodec<long>
{
    public static DataType DataType => DataType.Int64;

    public static long ToInt64(long raw) => raw;

    public static long FromInt64(long value) => value;
}

/// <summary>
/// UInt64 read as long: values above <see cref="long.MaxValue"/> are refused when read (see
/// <see cref="IntegerStore{TRaw, TCodec}"/>).
/// </summary>
internal struct UInt64Codec : IIntegerCodec<ulong>
{
    public static DataType DataType => DataType.UInt64;

    public static long ToInt64(ulong raw) => (long)raw;

    public static ulong FromInt64(long value) => (ulong)value;
}

/// <summary>The odd widths: the low bytes of the value, little-endian; the signed codes sign-extend on reading.</summary>
internal struct Int24Codec : IIntegerCodec<Raw3>
{
    public static DataType DataType => DataType.Int24;

    public static long ToInt64(Raw3 raw) => (long)(Bytes.Read3(raw) << 40) >> 40;

    public static Raw3 FromInt64(long value) => Bytes.Write3(value);
}

internal struct UInt24Codec : IIntegerCodec<Raw3>
{
    public static DataType DataType => DataType.UInt24;

    public static long ToInt64(Raw3 raw) => (long)Bytes.Read3(raw);

    public static Raw3 FromInt64(long value) => Bytes.Write3(value);
}

internal struct Int40Codec : IIntegerCodec<Raw5>
{
    public static DataType DataType => DataType.Int40;

    public static long ToInt64(Raw5 raw) => (long)(Bytes.Read5(raw) << 24) >> 24;

    public static Raw5 FromInt64(long value) => Bytes.Write5(value);
}

internal struct UInt40Codec : IIntegerCodec<Raw5>
{
    public static DataType DataType => DataType.UInt40;

    public static long ToInt64(Raw5 raw) => (long)Bytes.Read5(raw);

    public static Raw5 FromInt64(long value) => Bytes.Write5(value);
}

internal struct Int48Codec : IIntegerCodec<Raw6>
{
    public static DataType DataType => DataType.Int48;

    public static long ToInt64(Raw6 raw) => (long)(Bytes.Read6(raw) << 16) >> 16;

    public static Raw6 FromInt64(long value) => Bytes.Write6(value);
}

internal struct UInt48Codec : IIntegerCodec<Raw6>
{
    public static DataType DataType => DataType.UInt48;

    public static long ToInt64(Raw6 raw) => (long)Bytes.Read6(raw);

    public static Raw6 FromInt64(long value) => Bytes.Write6(value);
}

internal struct Int56Codec : IIntegerCodec<Raw7>
{
    public static DataType DataType => DataType.Int56;

    public static long ToInt64(Raw7 raw) => (long)(Bytes.Read7(raw) << 8) >> 8;

    public static Raw7 FromInt64(long value) => Bytes.Write7(value);
}

internal struct UInt56Codec : IIntegerCodec<Raw7>
{
    public static DataType DataType => DataType.UInt56;

    public static long ToInt64(Raw7 raw) => (long)Bytes.Read7(raw);

    public static Raw7 FromInt64(long value) => Bytes.Write7(value);
}

/// <summary>The little-endian byte arithmetic of the odd widths, unsigned (the signed codecs shift to sign-extend).</summary>
internal static class Bytes
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Read3(Raw3 raw) => raw.B0 | ((ulong)raw.B1 << 8) | ((ulong)raw.B2 << 16);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Read5(Raw5 raw) => raw.Low | ((ulong)raw.B4 << 32);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Read6(Raw6 raw) => raw.Low | ((ulong)raw.High << 32);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Read7(Raw7 raw) => raw.Low | ((ulong)raw.Middle << 32) | ((ulong)raw.B6 << 48);

    public static Raw3 Write3(long value) => new() { B0 = (byte)value, B1 = (byte)(value >> 8), B2 = (byte)(value >> 16) };

    public static Raw5 Write5(long value) => new() { Low = (uint)value, B4 = (byte)(value >> 32) };

    public static Raw6 Write6(long value) => new() { Low = (uint)value, High = (ushort)(value >> 32) };

    public static Raw7 Write7(long value) => new() { Low = (uint)value, Middle = (ushort)(value >> 32), B6 = (byte)(value >> 48) };
}
