using System;
using System.Runtime.CompilerServices;

namespace ListMmf;

/// <summary>Maps item types to data-type codes and decides which codes a <c>ListMmf&lt;T&gt;</c> may open.</summary>
internal static class DataTypes
{
    /// <summary>The code a new file of <typeparamref name="T"/> items is created with.</summary>
    public static DataType For<T>() where T : unmanaged
    {
        // typeof(T) comparisons on value types are folded by the JIT: each instantiation compiles to a constant.
        if (typeof(T) == typeof(sbyte)) return DataType.SByte;
        if (typeof(T) == typeof(byte)) return DataType.Byte;
        if (typeof(T) == typeof(short)) return DataType.Int16;
        if (typeof(T) == typeof(ushort)) return DataType.UInt16;
        if (typeof(T) == typeof(int)) return DataType.Int32;
        if (typeof(T) == typeof(uint)) return DataType.UInt32;
        if (typeof(T) == typeof(long)) return DataType.Int64;
        if (typeof(T) == typeof(ulong)) return DataType.UInt64;
        if (typeof(T) == typeof(float)) return DataType.Single;
        if (typeof(T) == typeof(double)) return DataType.Double;
        return DataType.AnyStruct;
    }

    /// <summary>The item size in bytes that a code implies, or 0 where the header does not say (AnyStruct, Bit).</summary>
    public static int WidthOf(DataType dataType) => dataType switch
    {
        DataType.SByte or DataType.Byte => 1,
        DataType.Int16 or DataType.UInt16 => 2,
        DataType.Int24 or DataType.UInt24 => 3,
        DataType.Int32 or DataType.UInt32 or DataType.Single or DataType.UnixSeconds => 4,
        DataType.Int40 or DataType.UInt40 => 5,
        DataType.Int48 or DataType.UInt48 => 6,
        DataType.Int56 or DataType.UInt56 => 7,
        DataType.Int64 or DataType.UInt64 or DataType.Double or DataType.DateTime => 8,
        _ => 0,
    };

    /// <summary>Whether the code is one this library knows.</summary>
    public static bool IsDefined(int code) => code >= (int)DataType.AnyStruct && code <= (int)DataType.UInt56;

    /// <summary>
    /// Whether a file with this code holds items that are exactly <typeparamref name="T"/>: the code of T itself,
    /// the time codes over their storage type (UnixSeconds over int, DateTime ticks over long), and, for a struct T,
    /// AnyStruct or an odd-width integer code of the same width.
    /// </summary>
    public static bool CanHold<T>(DataType dataType) where T : unmanaged
    {
        DataType own = For<T>();
        if (dataType == own)
        {
            return true;
        }

        if (dataType == DataType.Bit)
        {
            // Only the bit array opens a bit file: its header counts Int32 words, and its bits start at offset 24.
            return typeof(T) == typeof(BitWord);
        }

        if (own != DataType.AnyStruct)
        {
            return (dataType == DataType.UnixSeconds && own == DataType.Int32)
                || (dataType == DataType.DateTime && own == DataType.Int64);
        }

        return dataType is >= DataType.Int24 and <= DataType.UInt56 && WidthOf(dataType) == Unsafe.SizeOf<T>();
    }

    /// <summary>A readable name of T for messages, e.g. <c>ListMmf&lt;Int32&gt;</c>.</summary>
    public static string ListName<T>() => $"ListMmf<{typeof(T).Name}>";

    /// <summary>A readable description of what a code holds, for messages.</summary>
    public static string Describe(DataType dataType)
    {
        int width = WidthOf(dataType);
        return width == 0
            ? $"{dataType} items (data-type code {(int)dataType})"
            : $"{dataType} items of {width} byte{(width == 1 ? "" : "s")} (data-type code {(int)dataType})";
    }
}
