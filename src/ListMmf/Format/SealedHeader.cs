using System;
using System.Buffers.Binary;
using System.IO;
using System.IO.Hashing;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// The header page of a sealed file (docs/file-format.md, "The sealed form"): bytes 0-63 as in version 2 with
/// version 3, then <c>LMSEALED</c>, the block and directory fields, and the description at 128.
/// </summary>
internal readonly struct SealedHeader
{
    public SealedHeader(DataType dataType, int itemSize, long count, long directoryOffset, uint directoryChecksum, byte[] description)
    {
        DataType = dataType;
        ItemSize = itemSize;
        Count = count;
        DirectoryOffset = directoryOffset;
        DirectoryChecksum = directoryChecksum;
        Description = description;
    }

    public DataType DataType { get; }

    public int ItemSize { get; }

    public long Count { get; }

    public long BlockCount => SealedLayout.BlocksFor(Count);

    /// <summary>Where block 0 starts: the header's whole pages.</summary>
    public int BlocksOffset => SealedLayout.HeaderSizeFor(Description.Length);

    public long DirectoryOffset { get; }

    public uint DirectoryChecksum { get; }

    /// <summary>The description's UTF-8 JSON, as in version 2; empty where there is none.</summary>
    public byte[] Description { get; }

    /// <summary>The first items of the blocks start the directory, padded to 8 bytes; the block offsets follow.</summary>
    public long OffsetsOffset => DirectoryOffset + SealedLayout.Align8(BlockCount * ItemSize);

    /// <summary>The file's length: the directory ends it.</summary>
    public long FileLength => OffsetsOffset + ((BlockCount + 1) * sizeof(ulong));

    /// <summary>The largest header read: a description of up to about 1 MiB, as in version 2.</summary>
    public const int MaximumLength = 1 << 20;

    /// <summary>Reads and checks the header of the sealed file open as <paramref name="file"/>, <paramref name="length"/> bytes long.</summary>
    /// <exception cref="ListMmfFormatException">It is not a sealed file, or its header is damaged.</exception>
    public static SealedHeader Read(SafeFileHandle file, string path, long length)
    {
        byte[] page = new byte[(int)Math.Min(length, MaximumLength)];
        int read = PositionalRead.Fill(file, page, 0);
        return Read(page.AsSpan(0, read), path, length);
    }

    /// <summary>Whether <paramref name="firstBytes"/>, a file's start, is a sealed file's.</summary>
    public static bool IsSealed(ReadOnlySpan<byte> firstBytes) =>
        firstBytes.Length >= SealedLayout.MagicOffset + 8
            && BinaryPrimitives.ReadInt32LittleEndian(firstBytes) == SealedLayout.Version
            && firstBytes.Slice(SealedLayout.MagicOffset, 8).SequenceEqual(SealedLayout.Magic);

    /// <summary>Writes this header to <paramref name="page"/> (<see cref="BlocksOffset"/> bytes), with its checksum.</summary>
    public void Write(Span<byte> page)
    {
        page.Clear();
        BinaryPrimitives.WriteInt32LittleEndian(page, SealedLayout.Version);
        BinaryPrimitives.WriteInt32LittleEndian(page[SealedLayout.DataTypeOffset..], (int)DataType);
        BinaryPrimitives.WriteInt64LittleEndian(page[SealedLayout.CountOffset..], Count | ListMmfHeader.LiveCountGuard);
        BinaryPrimitives.WriteInt32LittleEndian(page[SealedLayout.BlocksOffsetOffset..], BlocksOffset);
        BinaryPrimitives.WriteInt64LittleEndian(page[SealedLayout.DurableCountOffset..], Count);
        BinaryPrimitives.WriteInt32LittleEndian(page[SealedLayout.ItemSizeOffset..], ItemSize);
        BinaryPrimitives.WriteInt32LittleEndian(page[SealedLayout.DescriptionLengthOffset..], Description.Length);
        SealedLayout.Magic.CopyTo(page[SealedLayout.MagicOffset..]);
        BinaryPrimitives.WriteInt32LittleEndian(page[SealedLayout.LayoutVersionOffset..], SealedLayout.LayoutVersion);
        BinaryPrimitives.WriteInt32LittleEndian(page[SealedLayout.BlockValuesOffset..], SealedLayout.BlockValues);
        BinaryPrimitives.WriteInt64LittleEndian(page[SealedLayout.BlockCountOffset..], BlockCount);
        BinaryPrimitives.WriteInt64LittleEndian(page[SealedLayout.DirectoryOffsetOffset..], DirectoryOffset);
        BinaryPrimitives.WriteUInt32LittleEndian(page[SealedLayout.DirectoryChecksumOffset..], DirectoryChecksum);
        BinaryPrimitives.WriteInt64LittleEndian(page[SealedLayout.RawLengthOffset..], Count * ItemSize);
        Description.CopyTo(page[SealedLayout.DescriptionOffset..]);
        BinaryPrimitives.WriteUInt32LittleEndian(page[SealedLayout.ChecksumOffset..], Checksum(page, Description.Length));
    }

    /// <summary>
    /// Reads and checks the header at the start of a sealed file of <paramref name="fileLength"/> bytes
    /// (<paramref name="page"/>: at least its first page, or the whole file where shorter).
    /// </summary>
    /// <exception cref="ListMmfFormatException">The header is damaged or does not match the file; the message says how.</exception>
    public static SealedHeader Read(ReadOnlySpan<byte> page, string path, long fileLength)
    {
        if (!IsSealed(page) || page.Length < SealedLayout.DescriptionOffset)
        {
            throw new ListMmfFormatException(path, "it is not a sealed ListMmf file (version 3 with the LMSEALED mark).");
        }

        int layout = BinaryPrimitives.ReadInt32LittleEndian(page[SealedLayout.LayoutVersionOffset..]);
        int blockValues = BinaryPrimitives.ReadInt32LittleEndian(page[SealedLayout.BlockValuesOffset..]);
        if (layout != SealedLayout.LayoutVersion || blockValues != SealedLayout.BlockValues)
        {
            throw new ListMmfFormatException(path, $"its sealed layout is version {layout} with blocks of {blockValues:N0} values; " +
                $"this library reads version {SealedLayout.LayoutVersion} with blocks of {SealedLayout.BlockValues:N0}.");
        }

        int descriptionLength = BinaryPrimitives.ReadInt32LittleEndian(page[SealedLayout.DescriptionLengthOffset..]);
        if (descriptionLength < 0 || descriptionLength > page.Length - SealedLayout.DescriptionOffset)
        {
            throw new ListMmfFormatException(path, $"the sealed header's description length ({descriptionLength:N0}) does not fit in the file.");
        }

        uint stored = BinaryPrimitives.ReadUInt32LittleEndian(page[SealedLayout.ChecksumOffset..]);
        uint computed = Checksum(page, descriptionLength);
        if (stored != computed)
        {
            throw new ListMmfFormatException(path, $"the sealed header's checksum does not match (stored 0x{stored:X8}, computed " +
                $"0x{computed:X8}): the header is damaged.");
        }

        var header = new SealedHeader(
            (DataType)BinaryPrimitives.ReadInt32LittleEndian(page[SealedLayout.DataTypeOffset..]),
            BinaryPrimitives.ReadInt32LittleEndian(page[SealedLayout.ItemSizeOffset..]),
            ListMmfHeader.LiveCountOf(BinaryPrimitives.ReadInt64LittleEndian(page[SealedLayout.CountOffset..])),
            BinaryPrimitives.ReadInt64LittleEndian(page[SealedLayout.DirectoryOffsetOffset..]),
            BinaryPrimitives.ReadUInt32LittleEndian(page[SealedLayout.DirectoryChecksumOffset..]),
            page.Slice(SealedLayout.DescriptionOffset, descriptionLength).ToArray());
        header.Validate(page, path, fileLength);
        return header;
    }

    private void Validate(ReadOnlySpan<byte> page, string path, long fileLength)
    {
        if (!DataTypeInfo.IsDefined((int)DataType) || DataType == DataType.Bit)
        {
            throw new ListMmfFormatException(path, $"the sealed header has data-type code {(int)DataType}, which no sealed file holds.");
        }

        int known = DataTypeInfo.Of(DataType).Size;
        if (ItemSize <= 0 || (known > 0 && ItemSize != known) || Count < 0 || Count > long.MaxValue / 2 / ItemSize)
        {
            throw new ListMmfFormatException(path, $"the sealed header's item size ({ItemSize:N0}) or count ({Count:N0}) is " +
                $"impossible for {DataTypeInfo.Of(DataType).Describe()}.");
        }

        int blocksOffset = BinaryPrimitives.ReadInt32LittleEndian(page[SealedLayout.BlocksOffsetOffset..]);
        long durable = BinaryPrimitives.ReadInt64LittleEndian(page[SealedLayout.DurableCountOffset..]);
        long raw = BinaryPrimitives.ReadInt64LittleEndian(page[SealedLayout.RawLengthOffset..]);
        if (blocksOffset != BlocksOffset || durable != Count || raw != Count * ItemSize)
        {
            throw new ListMmfFormatException(path, $"the sealed header's fields disagree: blocks at {blocksOffset:N0} for a " +
                $"description of {Description.Length:N0} bytes (so {BlocksOffset:N0}), {Count:N0} and {durable:N0} items, " +
                $"{raw:N0} raw bytes for items of {ItemSize} bytes.");
        }

        int state = BinaryPrimitives.ReadInt32LittleEndian(page[SealedLayout.StateOffset..]);
        if (state is not (0 or ListMmfHeader.ReplacedMark) || !AreZero(page, SealedLayout.ZeroRanges))
        {
            throw new ListMmfFormatException(path, $"the sealed header's state is {state} (0, or {ListMmfHeader.ReplacedMark} " +
                "once an unseal replaces the file) or a field that is always zero is not: the file was not written by a " +
                "sealed writer of this layout.");
        }

        long blocks = BinaryPrimitives.ReadInt64LittleEndian(page[SealedLayout.BlockCountOffset..]);
        if (blocks != BlockCount || DirectoryOffset < BlocksOffset || DirectoryOffset % 8 != 0 || FileLength != fileLength)
        {
            throw new ListMmfFormatException(path, $"the sealed header does not match the file: {blocks:N0} blocks for " +
                $"{Count:N0} items, a directory at {DirectoryOffset:N0}, so {FileLength:N0} bytes, and the file has " +
                $"{fileLength:N0} (cut short, or not written whole).");
        }
    }

    private static bool AreZero(ReadOnlySpan<byte> page, ReadOnlySpan<(int Start, int Length)> ranges)
    {
        foreach ((int start, int length) in ranges)
        {
            if (page.Slice(start, length).ContainsAnyExcept((byte)0))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// CRC-32 (zlib's) of the first 128 bytes with the state and the checksum as zeros (the state is the replaced mark
    /// an unseal sets), then the description.
    /// </summary>
    private static uint Checksum(ReadOnlySpan<byte> page, int descriptionLength)
    {
        Span<byte> fixedPart = stackalloc byte[SealedLayout.DescriptionOffset];
        page[..SealedLayout.DescriptionOffset].CopyTo(fixedPart);
        fixedPart.Slice(SealedLayout.StateOffset, 4).Clear();
        fixedPart.Slice(SealedLayout.ChecksumOffset, 4).Clear();
        var crc = new Crc32();
        crc.Append(fixedPart);
        crc.Append(page.Slice(SealedLayout.DescriptionOffset, descriptionLength));
        return crc.GetCurrentHashAsUInt32();
    }
}
