using System;
using System.Buffers.Binary;
using System.IO;
using System.IO.Hashing;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// A sealed file's bytes, edited field by field as a hand-made file would be, then given every checksum right again
/// (<see cref="Save"/>), so that only the rule an edit breaks tells the file apart from a healthy one. The offsets are
/// docs/file-format.md's, written out here rather than taken from the library, so that a test built on this class
/// checks the library against the spec.
/// </summary>
internal sealed class SealedFileBytes
{
    private readonly byte[] _bytes;

    public SealedFileBytes(string path) => _bytes = File.ReadAllBytes(path);

    public int ItemSize => Int32At(44);

    public long BlockCount => Int64At(80);

    private long DirectoryOffset => Int64At(88);

    /// <summary>Where block <paramref name="block"/> starts: its entry in the directory's offsets.</summary>
    public int BlockStart(int block) => (int)Int64At(DirectoryOffset + Align8(BlockCount * ItemSize) + (8L * block));

    /// <summary>The bytes of block <paramref name="block"/>'s payload, after its 40-byte header.</summary>
    public Span<byte> Payload(int block) => _bytes.AsSpan(BlockStart(block) + 40, Int32At(BlockStart(block) + 4));

    /// <summary>The directory's first item of block <paramref name="block"/>.</summary>
    public Span<byte> DirectoryItem(int block) => _bytes.AsSpan((int)DirectoryOffset + (block * ItemSize), ItemSize);

    public byte Codec(int block) => _bytes[BlockStart(block)];

    public byte ByteAt(long offset) => _bytes[offset];

    public int Int32At(long offset) => BinaryPrimitives.ReadInt32LittleEndian(_bytes.AsSpan((int)offset));

    public long Int64At(long offset) => BinaryPrimitives.ReadInt64LittleEndian(_bytes.AsSpan((int)offset));

    public void SetByte(long offset, byte value) => _bytes[offset] = value;

    public void SetInt32(long offset, int value) => BinaryPrimitives.WriteInt32LittleEndian(_bytes.AsSpan((int)offset), value);

    public void SetInt64(long offset, long value) => BinaryPrimitives.WriteInt64LittleEndian(_bytes.AsSpan((int)offset), value);

    public void SetDouble(long offset, double value) => BinaryPrimitives.WriteDoubleLittleEndian(_bytes.AsSpan((int)offset), value);

    /// <summary>A field of block <paramref name="block"/>'s header (0 codec, 4 payload length, 8 base, 16 first, 24 step, 36 reserved).</summary>
    public long BlockField(int block, int offset) => BlockStart(block) + offset;

    /// <summary>Writes the bytes to <paramref name="path"/> with every block's, the directory's and the header's checksum recomputed.</summary>
    public void Save(string path)
    {
        for (int block = 0; block < BlockCount; block++)
        {
            int start = BlockStart(block);
            var crc = new Crc32();
            crc.Append(_bytes.AsSpan(start, 32));
            crc.Append(_bytes.AsSpan(start + 40, Int32At(start + 4)));
            BinaryPrimitives.WriteUInt32LittleEndian(_bytes.AsSpan(start + 32), crc.GetCurrentHashAsUInt32());
        }

        BinaryPrimitives.WriteUInt32LittleEndian(_bytes.AsSpan(96), Crc32.HashToUInt32(_bytes.AsSpan((int)DirectoryOffset)));
        byte[] fixedPart = _bytes.AsSpan(0, 128).ToArray();
        fixedPart.AsSpan(16, 4).Clear();
        fixedPart.AsSpan(56, 4).Clear();
        var header = new Crc32();
        header.Append(fixedPart);
        header.Append(_bytes.AsSpan(128, Int32At(48)));
        BinaryPrimitives.WriteUInt32LittleEndian(_bytes.AsSpan(56), header.GetCurrentHashAsUInt32());
        File.WriteAllBytes(path, _bytes);
    }

    private static long Align8(long value) => (value + 7) & ~7L;
}
