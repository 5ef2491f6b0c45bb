namespace ListMmf.Search;

/// <summary>
/// How a file's items fall into blocks of a fixed number of bytes, counted so that block 0 holds the first item:
/// the one rule of the in-RAM page index (<see cref="PageIndex{T, TItem}"/>) and the fence file
/// (<see cref="FenceFile{T}"/>), whose fence of a block is the key of the first item that starts in it.
/// </summary>
internal static class FileBlocks
{
    /// <summary>The index of the first item that starts in <paramref name="block"/>.</summary>
    /// <param name="block">The block.</param>
    /// <param name="blockBytes">The block's size.</param>
    /// <param name="offset">Where the first item starts within block 0: the items' offset in the file modulo the block size.</param>
    /// <param name="itemSize">The item's size.</param>
    public static long FirstItemOf(long block, int blockBytes, int offset, int itemSize) =>
        block == 0 ? 0 : ((block * blockBytes) - offset + itemSize - 1) / itemSize;

    /// <summary>The number of blocks that hold the start of one of the first <paramref name="count"/> items.</summary>
    public static long BlocksFor(long count, int blockBytes, int offset, int itemSize) =>
        count == 0 ? 0 : ((offset + ((count - 1) * itemSize)) / blockBytes) + 1;
}
