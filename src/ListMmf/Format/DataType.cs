namespace ListMmf;

/// <summary>
/// The data-type code stored at offset 4 of every ListMmf file. The values are those written by ListMmf 1.x, so
/// that its files open unchanged.
/// </summary>
public enum DataType
{
    /// <summary>Any fixed-size struct; the header does not record its size.</summary>
    AnyStruct = 0,
    /// <summary>Packed bits: opened by <see cref="ListMmfBitArray"/>, not by <see cref="ListMmf{T}"/>.</summary>
    Bit = 1,
    /// <summary><see cref="sbyte"/>.</summary>
    SByte = 2,
    /// <summary><see cref="byte"/>.</summary>
    Byte = 3,
    /// <summary><see cref="short"/>.</summary>
    Int16 = 4,
    /// <summary><see cref="ushort"/>.</summary>
    UInt16 = 5,
    /// <summary><see cref="int"/>.</summary>
    Int32 = 6,
    /// <summary><see cref="uint"/>.</summary>
    UInt32 = 7,
    /// <summary><see cref="long"/>.</summary>
    Int64 = 8,
    /// <summary><see cref="ulong"/>.</summary>
    UInt64 = 9,
    /// <summary><see cref="float"/>.</summary>
    Single = 10,
    /// <summary><see cref="double"/>.</summary>
    Double = 11,
    /// <summary><see cref="System.DateTime"/> ticks stored as <see cref="long"/>.</summary>
    DateTime = 12,
    /// <summary>Unix seconds stored as <see cref="int"/>.</summary>
    UnixSeconds = 13,
    /// <summary>3-byte signed integer.</summary>
    Int24 = 14,
    /// <summary>5-byte signed integer.</summary>
    Int40 = 15,
    /// <summary>6-byte signed integer.</summary>
    Int48 = 16,
    /// <summary>7-byte signed integer.</summary>
    Int56 = 17,
    /// <summary>3-byte unsigned integer.</summary>
    UInt24 = 18,
    /// <summary>5-byte unsigned integer.</summary>
    UInt40 = 19,
    /// <summary>6-byte unsigned integer.</summary>
    UInt48 = 20,
    /// <summary>7-byte unsigned integer.</summary>
    UInt56 = 21,
}
