using System;
using System.IO;
using System.IO.Hashing;
using ListMmf.Storage;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Tool.Files;

/// <summary>
/// A struct file read through its description (<see cref="ListMmfDescription"/>) rather than a .NET type: the items
/// present when it was opened, read with positioned reads, one item at a time or in chunks.
/// </summary>
internal sealed class StructFile : IDisposable
{
    private const int ChunkBytes = 1 << 20;
    private readonly SafeFileHandle _file;

    /// <summary>Where the items start: after the header of either format (<see cref="ListMmfFileInfo.ItemsOffset"/>).</summary>
    private readonly long _itemsOffset;

    private StructFile(string path, ListMmfDescription description, SafeFileHandle file, long count, long itemsOffset)
    {
        Path = path;
        Description = description;
        _file = file;
        Count = count;
        _itemsOffset = itemsOffset;
    }

    public string Path { get; }

    public ListMmfDescription Description { get; }

    public long Count { get; }

    /// <summary>Opens the struct file at <paramref name="path"/>, whose description says how to read it.</summary>
    /// <exception cref="DataException">The file has no description, or holds fewer bytes than its count of items needs.</exception>
    public static StructFile Open(string path)
    {
        ListMmfFileInfo info = ListMmfFileInfo.Read(path);
        ListMmfDescription description = ListMmfDescription.Read(path) ?? throw new DataException(
            $"'{path}' holds {info.DataType} items (code {(int)info.DataType}) and records neither their size nor their " +
            $"layout (it has no {ListMmfDescription.FileSuffix} description, as files of ListMmf 1.x have none); open it " +
            "in code as a ListMmf of its struct.");
        if (info.ItemSize > 0 && info.ItemSize != description.ItemSize)
        {
            throw new DataException($"'{path}' records items of {info.ItemSize} bytes in its header and of " +
                $"{description.ItemSize} bytes in its description; the file is damaged.");
        }

        // Divided rather than multiplied: a damaged count of 2^62 items of 32 bytes wraps to 0 bytes in a product.
        if (description.ItemSize <= 0 || info.Count < 0 || info.FileLength < info.ItemsOffset
            || info.Count > (info.FileLength - info.ItemsOffset) / description.ItemSize)
        {
            throw new DataException($"'{path}' counts {info.Count:N0} items of {description.ItemSize} bytes, more than its " +
                $"{info.FileLength:N0} bytes hold; the file is damaged.");
        }

        // The items of the count read above; those a writer appends later are not shown.
        SafeFileHandle file = ListMmfStorage.OpenExisting(System.IO.Path.GetFullPath(path), FileAccess.Read, FileOptions.None);
        return new StructFile(path, description, file, info.Count, info.ItemsOffset);
    }

    /// <summary>Reads the item at <paramref name="index"/> into <paramref name="item"/> (<see cref="ListMmfDescription.ItemSize"/> bytes).</summary>
    public void Read(long index, Span<byte> item)
    {
        if ((ulong)index >= (ulong)Count)
        {
            throw new ArgumentOutOfRangeException(nameof(index), index, $"'{Path}' holds {Count:N0} items.");
        }

        RandomAccess.Read(_file, item[..Description.ItemSize], _itemsOffset + (index * Description.ItemSize));
    }

    /// <summary>The XXH3 of the items' bytes, reading each once: the same fingerprint a ListMmf of the struct gives.</summary>
    public ulong Hash(IProgress<double>? progress)
    {
        var hash = new XxHash3();
        byte[] chunk = new byte[ChunkBytes];
        long end = _itemsOffset + (Count * Description.ItemSize);
        for (long offset = _itemsOffset; offset < end;)
        {
            int read = RandomAccess.Read(_file, chunk.AsSpan(0, (int)Math.Min(chunk.Length, end - offset)), offset);
            if (read == 0)
            {
                throw new DataException($"'{Path}' ended at byte {offset:N0}, before its {Count:N0} items.");
            }

            hash.Append(chunk.AsSpan(0, read));
            offset += read;
            progress?.Report((double)(offset - _itemsOffset) / Math.Max(1, end - _itemsOffset));
        }

        return hash.GetCurrentHashAsUInt64();
    }

    public void Dispose() => _file.Dispose();
}
