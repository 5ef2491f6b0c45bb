using System;

namespace ListMmf;

/// <summary>The integer codes: which values each holds, and the narrowest that holds a range.</summary>
internal static class IntegerWidths
{
    /// <summary>From narrow to wide: the unsigned codes, for lists without negative values.</summary>
    private static readonly DataType[] Unsigned =
        [DataType.Byte, DataType.UInt16, DataType.UInt24, DataType.UInt32, DataType.UInt40, DataType.UInt48, DataType.UInt56, DataType.Int64];

    /// <summary>From narrow to wide: the signed codes.</summary>
    private static readonly DataType[] Signed =
        [DataType.SByte, DataType.Int16, DataType.Int24, DataType.Int32, DataType.Int40, DataType.Int48, DataType.Int56, DataType.Int64];

    public static bool IsInteger(DataType dataType) =>
        dataType is (>= DataType.SByte and <= DataType.UInt64) or (>= DataType.Int24 and <= DataType.UInt56);

    /// <summary>The smallest and largest value a code holds, as long (UInt64 up to long.MaxValue).</summary>
    public static (long Min, long Max) RangeOf(DataType dataType)
    {
        int bits = 8 * DataTypes.WidthOf(dataType);
        bool signed = dataType is DataType.SByte or DataType.Int16 or DataType.Int32 or DataType.Int64 or (>= DataType.Int24 and <= DataType.Int56);
        if (bits == 64)
        {
            return (signed ? long.MinValue : 0, long.MaxValue);
        }

        return signed ? (-(1L << (bits - 1)), (1L << (bits - 1)) - 1) : (0, (1L << bits) - 1);
    }

    public static bool Holds(DataType dataType, long value)
    {
        (long min, long max) = RangeOf(dataType);
        return value >= min && value <= max;
    }

    /// <summary>The narrowest code that holds every value in <c>[min, max]</c>: unsigned when none is negative.</summary>
    public static DataType Narrowest(long min, long max)
    {
        foreach (DataType candidate in min >= 0 ? Unsigned : Signed)
        {
            if (Holds(candidate, min) && Holds(candidate, max))
            {
                return candidate;
            }
        }

        throw new InvalidOperationException("Int64 holds every long.");
    }
}
