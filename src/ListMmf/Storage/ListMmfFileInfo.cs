using System;
using System.IO;
using ListMmf.Storage;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// What the header of a ListMmf file says, read without knowing its item type: for tools that look inside any
/// file, and for code that must choose the type to open a file with.
/// </summary>
public sealed record ListMmfFileInfo
{
    private ListMmfFileInfo()
    {
    }

    /// <summary>The full path of the file.</summary>
    public string Path { get; private init; } = "";

    /// <summary>
    /// The file's format version, numbered as <see cref="ListMmfFormatVersion"/> numbers them: 1 for the
    /// format of ListMmf 1.x (whose header's version field is 0), 2, or 3 for a sealed file (<see cref="SealedListMmf"/>).
    /// </summary>
    public int Version { get; private init; }

    /// <summary>The data-type code.</summary>
    public DataType DataType { get; private init; }

    /// <summary>
    /// The bytes per item: as the code implies, or as a version 2 header records; 0 where the header
    /// does not say (a version 1 AnyStruct or Bit file).
    /// </summary>
    public int ItemSize { get; private init; }

    /// <summary>
    /// The published items, as a reader of the file counts them now (for a bit file, its Int32 words;
    /// <see cref="ListMmfBitArray.Count"/> has the bits): the header's count, or for a version 2 file last written in an
    /// earlier boot of the machine its durable count.
    /// </summary>
    public long Count { get; private init; }

    /// <summary>How many items the file has room for; -1 where the item size is unknown; a sealed file's count.</summary>
    public long Capacity { get; private init; }

    /// <summary>The file's length in bytes.</summary>
    public long FileLength { get; private init; }

    /// <summary>Where the first item starts: byte 16 (version 1), or a multiple of 4,096 (version 2; a sealed file's first block).</summary>
    public int ItemsOffset { get; private init; } = ListMmfHeader.Version1Size;

    /// <summary>
    ///
    /// Version 2: the count whose items were on stable storage when a flush (or the writer's close) recorded it, what
    /// a power loss keeps; version 1: <see cref="Count"/>.
    ///
    /// </summary>
    public long DurableCount { get; private init; }

    /// <summary>Whether the file is sealed: read-only and compressed, read with <see cref="SealedListMmf{T}"/>.</summary>
    public bool IsSealed => Version == SealedLayout.Version;

    /// <summary>
    ///
    /// Converts the version 1 (ListMmf 1.x) file at <paramref name="path"/> to version 2, by replacement as
    /// <see cref="ListMmf{T}.TruncateBeginning"/> replaces a file: the items are copied into a new file, made durable and
    /// renamed over the old one, atomically; live readers move to it on their next read. A struct file's description
    /// moves from the file beside it into the header. Readers of ListMmf 1.x cannot read the result.
    ///
    /// </summary>
    /// <returns>True if the file was converted; false if it is version 2 already.</returns>
    /// <exception cref="ListMmfLockedException">Another writer has the file open; nothing was changed.</exception>
    /// <exception cref="ListMmfDataTypeException">A bit array (it has no version 2 layout), or a struct file without a
    /// description, whose item size nothing records; nothing was changed.</exception>
    /// <exception cref="ListMmfException">The new file could not be written or put in place; the message says whether
    /// the file is unchanged.</exception>
    public static bool Upgrade(string path) => FormatUpgrade.Upgrade(path);

    /// <summary>
    ///
    /// Sets the version 2 file at <paramref name="path"/> back to its last flush, for when its page cache was lost
    /// without a reboot (a disk detached and attached again, a virtual machine's disk snapshot restored, a removable
    /// disk pulled): the live count on the disk may then be ahead of the items that reached it, and readers of the
    /// same boot, which trust the live count, would read zeros past the last flush. The live count becomes the durable
    /// count, durably, as the next writer after a power loss does it. A sealed file is whole by construction.
    ///
    /// </summary>
    /// <returns>The items the file holds afterwards.</returns>
    /// <exception cref="ListMmfLockedException">Another writer has the file open; nothing was changed.</exception>
    /// <exception cref="ListMmfException">A version 1 file, which records no durable count to go back to.</exception>
    public static long RevertToLastFlush(string path)
    {
        ListMmfFileInfo info = Read(path);
        if (info.IsSealed)
        {
            return info.Count;
        }

        if (info.Version != ListMmfHeader.Version2)
        {
            throw new ListMmfException(path, "it is a version 1 file, which records no durable count: its live count is " +
                "all it has. Upgrade it to version 2 (ListMmfFileInfo.Upgrade, listmmf upgrade) to keep one.");
        }

        using ListMmfStorage storage = ListMmfStorage.OpenItems(path, writable: true, info.ItemSize, info.DataType, WriterOpening.Locked);
        return storage.RevertLiveCount();
    }

    /// <summary>
    ///
    /// Reads and checks the header of the file at <paramref name="path"/>, as opening a list does: a known version
    /// and code, a count that is not negative and, where the item size is known, items that lie within the file.
    /// The file is only read. A file being replaced (TruncateBeginning, widening) is followed to its replacement,
    /// as a reader does. A sealed file's header is checked as <see cref="SealedListMmf{T}"/> checks it.
    ///
    /// </summary>
    /// <exception cref="FileNotFoundException">The file, or its directory, does not exist.</exception>
    /// <exception cref="ListMmfFormatException">The file is not a valid ListMmf file; the message says why.</exception>
    /// <exception cref="ListMmfException">The path is a directory, or the file cannot be read.</exception>
    public static ListMmfFileInfo Read(string path)
    {
        string fullPath = System.IO.Path.GetFullPath(path);
        if (Directory.Exists(fullPath))
        {
            throw new ListMmfException(fullPath, "the path is a directory, not a ListMmf file.");
        }

        if (ReadSealed(fullPath) is ListMmfFileInfo sealedInfo)
        {
            return sealedInfo;
        }

        SafeFileHandle file = FileReplacement.OpenForReading(fullPath, FileReplacement.OpenAttempts, out ListMmfHeader header, out long length);
        try
        {
            return Read(fullPath, file, header, length);
        }
        finally
        {
            StoragePlatform.Current.Close(file);
        }
    }

    /// <summary>
    /// The information in <paramref name="header"/>, read from <paramref name="file"/>, checked as
    /// <see cref="Read(string)"/> says.
    /// </summary>
    private static ListMmfFileInfo Read(string fullPath, SafeFileHandle file, ListMmfHeader header, long length)
    {
        if (header.IsSealed)
        {
            // Sealed since the look above: a replacement (a seal) put it there between the two opens.
            return Sealed(fullPath, SealedHeader.Read(file, fullPath, length), length);
        }

        header.ValidateCode(fullPath);
        int itemSize = header.KnownFormat.DescribesItems ? header.ItemSize : DataTypeInfo.Of(header.DataType).Size;
        if (itemSize > 0)
        {
            header.ValidateCount(fullPath, length, itemSize, BootSession.Current);
        }
        else if (header.Count < 0)
        {
            throw new ListMmfFormatException(fullPath, $"the header has a negative count ({header.Count:N0}).");
        }

        long capacity = itemSize > 0 ? Math.Max(0, length - header.ItemsOffset) / itemSize : -1;
        return new ListMmfFileInfo
        {
            Path = fullPath,
            Version = (int)header.KnownFormat.Version,
            DataType = header.DataType,
            ItemSize = itemSize,
            Count = header.PublishedCount(BootSession.Current),
            Capacity = capacity,
            FileLength = length,
            ItemsOffset = header.ItemsOffset,
            DurableCount = header.DurableCount,
        };
    }

    /// <summary>
    ///
    /// A sealed file's information read through a mapping (<see cref="MappedFileStart"/>), so that code asking before
    /// its readers map the file leaves it in the large page-cache folios they map it with; null where the file is not
    /// sealed, or cannot be opened: the path may be free for a moment during a replacement, which the reading open that
    /// follows waits out, and that open says why a file cannot be read.
    ///
    /// </summary>
    private static ListMmfFileInfo? ReadSealed(string fullPath)
    {
        try
        {
            using var start = new MappedFileStart(fullPath, SealedHeader.MaximumLength);
            return SealedHeader.IsSealed(start.Bytes)
                ? Sealed(fullPath, SealedHeader.Read(start.Bytes, fullPath, start.FileLength), start.FileLength)
                : null;
        }
        catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static ListMmfFileInfo Sealed(string fullPath, SealedHeader header, long length) =>
        new()
        {
            Path = fullPath,
            Version = SealedLayout.Version,
            DataType = header.DataType,
            ItemSize = header.ItemSize,
            Count = header.Count,
            Capacity = header.Count,
            FileLength = length,
            ItemsOffset = header.BlocksOffset,
            DurableCount = header.Count,
        };
}
