using System;
using System.Buffers.Binary;
using System.IO;

namespace ListMmf.Tests.Compatibility;

/// <summary>
/// Files in the existing library's layout written byte by byte, not by this library: a 16-byte header (Int32 version
/// 0, Int32 code, Int64 count), the items little-endian, then unused capacity.
/// </summary>
public static class HandMadeFile
{
    public static string Write(string path, int code, long count, ReadOnlySpan<byte> items)
    {
        var bytes = new byte[16 + items.Length + 4096];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, 0);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(4), code);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(8), count);
        items.CopyTo(bytes.AsSpan(16));
        File.WriteAllBytes(path, bytes);
        return path;
    }

    /// <summary>A file of <paramref name="values"/>, each stored as its low <paramref name="width"/> bytes.</summary>
    public static string Write(string path, int code, int width, params long[] values)
    {
        var items = new byte[values.Length * width];
        Span<byte> eight = stackalloc byte[8];
        for (int i = 0; i < values.Length; i++)
        {
            BinaryPrimitives.WriteInt64LittleEndian(eight, values[i]);
            eight[..width].CopyTo(items.AsSpan(i * width));
        }

        return Write(path, code, values.Length, items);
    }
}
