using System;
using System.Linq;

namespace ListMmf;

/// <summary>The integer codes: which values each holds, and the narrowest that holds a range.</summary>
internal static class IntegerWidths
{
    /// <summary>From narrow to wide: the unsigned codes below 8 bytes, then Int64 (a long list holds no value above long.MaxValue).</summary>
    private static readonly DataType[] Unsigned = Widths(DataTypeKind.UnsignedInteger).Where(type => type.Size < 8)
        .Select(type => type.DataType).Append(DataType.Int64).ToArray();

    /// <summary>From narrow to wide: the signed codes.</summary>
    private static readonly DataType[] Signed = Widths(DataTypeKind.SignedInteger).Select(type => type.DataType).ToArray();

    public static bool IsInteger(DataType dataType) =>
        DataTypeInfo.Of(dataType).Kind is DataTypeKind.SignedInteger or DataTypeKind.UnsignedInteger;

    /// <summary>The smallest and largest value a code holds, as long (UInt64 up to long.MaxValue).</summary>
    public static (long Min, long Max) RangeOf(DataType dataType)
    {
        DataTypeInfo type = DataTypeInfo.Of(dataType);
        int bits = 8 * type.Size;
        bool signed = type.Kind == DataTypeKind.SignedInteger;
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

    private static IOrderedEnumerable<DataTypeInfo> Widths(DataTypeKind kind) =>
        DataTypeInfo.All.Where(type => type.Kind == kind).OrderBy(type => type.Size);
}
