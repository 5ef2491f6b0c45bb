namespace ListMmf.Sealed;

/// <summary>How a sealed file's codecs see its items: which integer domain they widen to, if any.</summary>
internal enum SealedValueKind
{
    /// <summary>Structs and anything else without a number codec: plain blocks only.</summary>
    Opaque,

    /// <summary>Two's-complement integers of 1-8 bytes, sign-extended to 64 bits.</summary>
    Signed,

    /// <summary>Unsigned integers of 1-8 bytes, zero-extended to 64 bits.</summary>
    Unsigned,

    /// <summary>IEEE 754 binary32.</summary>
    Single,

    /// <summary>IEEE 754 binary64.</summary>
    Double,
}
