using System;
using System.Buffers.Binary;
using System.IO;
using System.IO.Hashing;
using ListMmf.Storage;

namespace ListMmf.Sealed;

/// <summary>
/// Writes the sealed form of a list's items to a new file: the header page, the blocks one after another, the
/// directory, then the header again with its fields filled in. Every block is decoded again as soon as it is encoded
/// and compared with the items, so that a codec's fault fails the seal instead of changing a value.
/// </summary>
internal static unsafe class SealedWriter
{
    private const int BufferSize = 1 << 20;

    /// <summary>
    /// Creates <paramref name="temporary"/> holding the <paramref name="count"/> items at <paramref name="items"/>,
    /// sealed and made durable; <paramref name="path"/> names the list in messages.
    /// </summary>
    /// <exception cref="ListMmfException">A block did not decode to its items (a fault of this library).</exception>
    public static void Create(string temporary, string path, byte* items, long count, int itemSize, DataType dataType, byte[] description)
    {
        using FileStream file = ExclusiveFile.CreateNew(temporary, FileAccess.Write, BufferSize);
        var header = new SealedHeader(dataType, itemSize, count, 0, 0, description);
        file.Write(new byte[header.BlocksOffset]);

        SealedValueKind kind = SealedFile.KindOf(dataType, itemSize);
        var encoder = new BlockEncoder(itemSize, kind);
        byte[] block = new byte[encoder.MaximumLength];
        byte[] decoded = new byte[SealedLayout.BlockValues * itemSize];
        long blocks = SealedLayout.BlocksFor(count);
        byte[] directory = new byte[SealedLayout.Align8(blocks * itemSize) + ((blocks + 1) * sizeof(ulong))];
        Span<byte> offsets = directory.AsSpan((int)SealedLayout.Align8(blocks * itemSize));
        long offset = header.BlocksOffset;
        for (long b = 0; b < blocks; b++)
        {
            int values = SealedLayout.ValuesIn(b, count);
            var source = new ReadOnlySpan<byte>(items + ((b << SealedLayout.BlockShift) * itemSize), values * itemSize);
            int length = encoder.Encode(source, block);
            CheckDecodes(block, source, decoded, itemSize, kind, path, b);
            source[..itemSize].CopyTo(directory.AsSpan((int)(b * itemSize)));
            BinaryPrimitives.WriteInt64LittleEndian(offsets[(int)(b * sizeof(ulong))..], offset);
            file.Write(block, 0, length);
            offset += length;
        }

        BinaryPrimitives.WriteInt64LittleEndian(offsets[(int)(blocks * sizeof(ulong))..], offset);
        file.Write(directory);
        fixed (byte* bytes = directory)
        {
            header = new SealedHeader(dataType, itemSize, count, offset, ChecksumOf(bytes, directory.Length), description);
        }

        byte[] page = new byte[header.BlocksOffset];
        header.Write(page);
        file.Flush();
        RandomAccess.Write(file.SafeFileHandle, page, 0);
        StoragePlatform.Current.FlushFile(file.SafeFileHandle, temporary);
    }

    /// <summary>CRC-32 (zlib's) of <paramref name="length"/> bytes at <paramref name="bytes"/>, in pieces a span can hold.</summary>
    public static uint ChecksumOf(byte* bytes, long length)
    {
        var crc = new Crc32();
        for (long done = 0; done < length; done += int.MaxValue)
        {
            crc.Append(new ReadOnlySpan<byte>(bytes + done, (int)Math.Min(int.MaxValue, length - done)));
        }

        return crc.GetCurrentHashAsUInt32();
    }

    private static void CheckDecodes(byte[] block, ReadOnlySpan<byte> items, byte[] decoded, int itemSize, SealedValueKind kind, string path, long b)
    {
        bool same;
        fixed (byte* start = block)
        fixed (byte* to = decoded)
        {
            SealedBlock view = SealedBlock.At(start);
            same = view.Count * itemSize == items.Length;
            if (same)
            {
                view.Decode(to, itemSize, kind);
                same = decoded.AsSpan(0, items.Length).SequenceEqual(items);
            }
        }

        if (!same)
        {
            throw new ListMmfException(path, $"could not seal the list: block {b:N0} (codec {block[0]}) did not decode to its items; " +
                "this is a fault of the library. The file is unchanged.");
        }
    }
}
