using System;

namespace ListMmf;

/// <summary>
/// The sealed form's fixed numbers and offsets (docs/file-format.md, "The sealed form"): a header page whose first
/// 64 bytes mean what a version 2 header's do, the blocks, then the directory.
/// </summary>
internal static class SealedLayout
{
    /// <summary>The version field of a sealed file.</summary>
    public const int Version = 3;

    /// <summary>The values in every block but the last.</summary>
    public const int BlockValues = 1024;

    /// <summary>log2 of <see cref="BlockValues"/>.</summary>
    public const int BlockShift = 10;

    /// <summary>The fixed header each block starts with; blocks start on a multiple of 8.</summary>
    public const int BlockHeaderSize = 40;

    /// <summary>The bytes of a block header its checksum covers, before its payload.</summary>
    public const int BlockChecksummed = 32;

    /// <summary>Where the blocks start: header and description on whole 4 KiB pages, as in version 2.</summary>
    public const int Alignment = 4096;

    /// <summary>The eight ASCII bytes at <see cref="MagicOffset"/>.</summary>
    public static ReadOnlySpan<byte> Magic => "LMSEALED"u8;

    // Offsets 0-63 keep version 2's meaning (Format/ListMmfHeader).
    public const int DataTypeOffset = 4;
    public const int CountOffset = 8;
    public const int StateOffset = 16;
    public const int BlocksOffsetOffset = 20;
    public const int DurableCountOffset = 24;
    public const int ItemSizeOffset = 44;
    public const int DescriptionLengthOffset = 48;
    public const int ChecksumOffset = 56;

    // The sealed part.
    public const int MagicOffset = 64;
    public const int LayoutVersionOffset = 72;
    public const int BlockValuesOffset = 76;
    public const int BlockCountOffset = 80;
    public const int DirectoryOffsetOffset = 88;
    public const int DirectoryChecksumOffset = 96;
    public const int RawLengthOffset = 104;

    /// <summary>The header's fixed part; the description follows.</summary>
    public const int DescriptionOffset = 128;

    /// <summary>
    /// The header's fields that are always zero (version 2's session and generation, the padding beside the
    /// description length, the checksum and the directory's checksum, and the last 16 bytes before the description).
    /// </summary>
    public static ReadOnlySpan<(int Start, int Length)> ZeroRanges => s_zeroRanges;

    private static readonly (int Start, int Length)[] s_zeroRanges = [(32, 12), (52, 4), (60, 4), (100, 4), (112, 16)];

    /// <summary>The sealed layout this library writes and reads.</summary>
    public const int LayoutVersion = 1;

    /// <summary>
    /// Block header: UInt8 codec, UInt8 width, UInt16 values, UInt32 payload length, Int64 base, Int64 first, Float64
    /// step, UInt32 CRC-32, UInt32 zero.
    /// </summary>
    public const int BlockWidthOffset = 1;
    public const int BlockValuesCountOffset = 2;
    public const int BlockPayloadLengthOffset = 4;
    public const int BlockBaseOffset = 8;
    public const int BlockFirstOffset = 16;
    public const int BlockStepOffset = 24;
    public const int BlockChecksumOffset = 32;

    /// <summary>The blocks of <paramref name="count"/> values.</summary>
    public static long BlocksFor(long count) => (count + BlockValues - 1) >> BlockShift;

    /// <summary>The values block <paramref name="block"/> of a file of <paramref name="count"/> holds.</summary>
    public static int ValuesIn(long block, long count) => (int)Math.Min(BlockValues, count - (block << BlockShift));

    /// <summary><paramref name="value"/> rounded up to a multiple of 8.</summary>
    public static long Align8(long value) => (value + 7) & ~7L;

    /// <summary>The header's size, on whole pages, holding a description of <paramref name="descriptionLength"/> bytes.</summary>
    public static int HeaderSizeFor(int descriptionLength) =>
        (DescriptionOffset + descriptionLength + Alignment - 1) / Alignment * Alignment;
}
