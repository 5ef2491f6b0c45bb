namespace ListMmf;

/// <summary>The on-disk format a writer creates a new file in (docs/file-format.md). Existing files keep theirs.</summary>
public enum ListMmfFormatVersion
{
    /// <summary>
    /// ListMmf 1.x's format: a 16-byte header (version, data-type code, count) with the items right after it. Readers
    /// of ListMmf 1.x read it. After a power loss its count may be newer than its items, and a struct file's
    /// description lives in a file beside it.
    /// </summary>
    Version1 = 1,

    /// <summary>
    /// The header on a 4 KiB block of its own, with a durable count that a flush raises only after the items it covers
    /// are on stable storage, the boot its writer ran in, the item size, the description and a checksum: after a power
    /// loss readers and the next writer see exactly the last flush, and a file copied alone keeps its description.
    /// The default.
    /// </summary>
    Version2 = 2,
}
