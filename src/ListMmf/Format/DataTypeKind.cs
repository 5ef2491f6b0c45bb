namespace ListMmf;

/// <summary>What the items of a <see cref="DataType"/> are, as a converter to another format needs to know it.</summary>
public enum DataTypeKind
{
    /// <summary>A fixed-size struct, described by the file's description rather than by its code.</summary>
    Struct = 0,
    /// <summary>Packed bits.</summary>
    Bits = 1,
    /// <summary>A two's-complement integer of <see cref="DataTypeInfo.Size"/> bytes.</summary>
    SignedInteger = 2,
    /// <summary>An unsigned integer of <see cref="DataTypeInfo.Size"/> bytes.</summary>
    UnsignedInteger = 3,
    /// <summary>An IEEE 754 binary floating-point number of <see cref="DataTypeInfo.Size"/> bytes.</summary>
    FloatingPoint = 4,
    /// <summary>A time as <see cref="int"/> seconds since 1970-01-01 (see <see cref="ListMmfTimeSeriesDateTimeSeconds"/>).</summary>
    UnixSeconds = 5,
    /// <summary>A time as <see cref="System.DateTime.Ticks"/> in a <see cref="long"/> (see <see cref="ListMmfTimeSeriesDateTime"/>).</summary>
    DateTimeTicks = 6,
}
