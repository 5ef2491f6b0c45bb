using System;
using System.IO;
using System.IO.Hashing;
using ListMmf.Interop;
using ListMmf.Sealed;
using ListMmf.Storage;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Tool.Files;

/// <summary>
/// A struct file read through its description (<see cref="ListMmfDescription"/>) rather than a .NET type: the items
/// present when it was opened, one item at a time or in chunks, from either form: appendable (positioned reads) or
/// sealed (its plain blocks, each checked before its first use).
/// </summary>
internal abstract class StructFile : IDisposable
{
    private const int ChunkBytes = 1 << 20;

    private StructFile(string path, ListMmfDescription description, long count)
    {
        Path = path;
        Description = description;
        Count = count;
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

        if (info.IsSealed)
        {
            SealedFile blocks = SealedFile.Open(System.IO.Path.GetFullPath(path));
            if (blocks.ItemSize != description.ItemSize)
            {
                blocks.Dispose();
                throw new DataException($"'{path}' records items of {blocks.ItemSize} bytes in its header and of " +
                    $"{description.ItemSize} bytes in its description; the file is damaged, or was replaced while it was opened.");
            }

            return new Sealed(path, description, blocks);
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
        return new Appendable(path, description, file, info.Count, info.ItemsOffset);
    }

    /// <summary>Reads the item at <paramref name="index"/> into <paramref name="item"/> (<see cref="ListMmfDescription.ItemSize"/> bytes).</summary>
    public void Read(long index, Span<byte> item)
    {
        if ((ulong)index >= (ulong)Count)
        {
            throw new ArgumentOutOfRangeException(nameof(index), index, $"'{Path}' holds {Count:N0} items.");
        }

        ReadItem(index, item[..Description.ItemSize]);
    }

    /// <summary>The XXH3 of the items' bytes, reading each once: the same fingerprint a ListMmf of the struct gives, in either form.</summary>
    public ulong Hash(IProgress<double>? progress)
    {
        var hash = new XxHash3();
        int perChunk = ChunkItems;
        byte[] chunk = new byte[(long)perChunk * Description.ItemSize];
        for (long start = 0; start < Count; start += perChunk)
        {
            int items = (int)Math.Min(perChunk, Count - start);
            Span<byte> bytes = chunk.AsSpan(0, items * Description.ItemSize);
            ReadItems(start, bytes);
            hash.Append(bytes);
            progress?.Report((double)(start + items) / Count);
        }

        return hash.GetCurrentHashAsUInt64();
    }

    public abstract void Dispose();

    /// <summary>The items <see cref="Hash"/> reads at a time.</summary>
    protected abstract int ChunkItems { get; }

    /// <summary>Reads item <paramref name="index"/>, below <see cref="Count"/>.</summary>
    protected abstract void ReadItem(long index, Span<byte> item);

    /// <summary>
    /// Reads the items from <paramref name="start"/> that fill <paramref name="destination"/>: any range of an
    /// appendable file; one block, from its first item, of a sealed one (<see cref="ChunkItems"/>).
    /// </summary>
    protected abstract void ReadItems(long start, Span<byte> destination);

    /// <summary>An appendable file, read with positioned reads past its header.</summary>
    private sealed class Appendable(string path, ListMmfDescription description, SafeFileHandle file, long count, long itemsOffset)
        : StructFile(path, description, count)
    {
        protected override int ChunkItems => Math.Max(1, ChunkBytes / Description.ItemSize);

        protected override void ReadItem(long index, Span<byte> item) => ReadItems(index, item);

        protected override void ReadItems(long start, Span<byte> destination)
        {
            long offset = itemsOffset + (start * Description.ItemSize);
            int read = PositionalRead.Fill(file, destination, offset);
            if (read < destination.Length)
            {
                throw new DataException($"'{Path}' ended at byte {offset + read:N0}, before its {Count:N0} items.");
            }
        }

        public override void Dispose() => StoragePlatform.Current.Close(file);
    }

    /// <summary>A sealed file: its struct items are in plain blocks, each checked the first time it is read.</summary>
    private sealed class Sealed(string path, ListMmfDescription description, SealedFile file)
        : StructFile(path, description, file.Count)
    {
        /// <summary>A block: a chunk starts where a block does.</summary>
        protected override int ChunkItems => SealedLayout.BlockValues;

        protected override unsafe void ReadItem(long index, Span<byte> item)
        {
            SealedBlock block = file.Block(index >> SealedLayout.BlockShift);
            int within = (int)(index & (SealedLayout.BlockValues - 1));
            new ReadOnlySpan<byte>(block.Payload + ((long)within * Description.ItemSize), Description.ItemSize).CopyTo(item);
        }

        protected override void ReadItems(long start, Span<byte> destination) => file.Decode(start >> SealedLayout.BlockShift, destination);

        public override void Dispose() => file.Dispose();
    }
}
