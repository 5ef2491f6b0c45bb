using System;
using System.IO;
using ListMmf.Sealed;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// Seals a finished list into its compressed, read-only form and gives the appendable form back
/// (docs/guide.md, "Sealed files"). Both replace the file at its path whole: a reader sees the old form or the new,
/// a power loss leaves one of them, and the values are the same bit for bit.
/// </summary>
public static class SealedListMmf
{
    /// <summary>
    /// Whether the file at <paramref name="path"/> is in the sealed form; read through a mapping, so that the check
    /// leaves the file's pages in the large folios its readers map.
    /// </summary>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    public static bool IsSealed(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return SealedFile.IsSealedAt(Path.GetFullPath(path));
    }

    /// <summary>
    /// Replaces the list at <paramref name="path"/> by its sealed form, holding the writer's lock meanwhile: its
    /// published items, compressed in blocks of 1,024 with a checksum each. Readers open it with
    /// <see cref="SealedListMmf{T}"/>.
    /// </summary>
    /// <returns>False where the file is sealed already.</returns>
    /// <exception cref="ListMmfLockedException">A writer has the list open; nothing was changed.</exception>
    /// <exception cref="ListMmfDataTypeException">A bit array (already one bit an item), or a struct file that records
    /// no item size; nothing was changed.</exception>
    /// <exception cref="ListMmfException">The sealed file could not be written or put in place; the message says whether
    /// the file is unchanged.</exception>
    public static bool Seal(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        string full = Path.GetFullPath(path);
        if (IsSealed(full))
        {
            return false;
        }

        ListMmfFileInfo info = ListMmfFileInfo.Read(full);
        if (info.DataType == DataType.Bit)
        {
            throw new ListMmfDataTypeException(full, "it holds a bit array, which takes one bit an item already: it is not sealed.");
        }

        string real = StoragePlatform.Current.CanonicalPath(full);
        ListMmfDescription? beside = info.Version == ListMmfHeader.Version2 ? null : ListMmfDescription.Read(real);
        int itemSize = info.ItemSize > 0 ? info.ItemSize : beside?.ItemSize ?? throw new ListMmfDataTypeException(full,
            $"it holds {info.DataType} items and records no item size (it has no {ListMmfDescription.FileSuffix} description), " +
            "so it cannot be sealed; open it in code as a ListMmf of its struct with a description first.");
        using ListMmfStorage current = ListMmfStorage.OpenItems(full, writable: true, itemSize, info.DataType, WriterOpening.Locked);
        long count = Math.Max(0, current.PublishedCount);
        byte[] description = beside?.ToJson() ?? current.DescriptionJson;
        unsafe
        {
            FileReplacement.Replace(
                full,
                current,
                "seal",
                $"its {count:N0} items, sealed",
                temporary => SealedWriter.Create(temporary, full, current.Pointer + current.ItemsOffset, count, itemSize, info.DataType, description),
                target => SealedFile.Open(target),
                sealedFile => sealedFile,
                sealedFile => sealedFile.DisposeReleasingCachedPages(),
                _ => { });
        }

        if (beside is not null)
        {
            DurableFile.TryDelete(ListMmfDescription.PathFor(real));
        }

        return true;
    }

    /// <summary>
    /// Replaces the sealed file at <paramref name="path"/> by the appendable form (version 2) of the same items,
    /// holding the writer's lock meanwhile; a writer may open it once this returns.
    /// </summary>
    /// <returns>False where the file is not sealed.</returns>
    /// <exception cref="ListMmfLockedException">Another process is sealing or unsealing the file; nothing was changed.</exception>
    /// <exception cref="ListMmfFormatException">The sealed file is damaged; nothing was changed.</exception>
    /// <exception cref="UnauthorizedAccessException">This process may not write the sealed file (its mark for readers);
    /// nothing was changed.</exception>
    /// <exception cref="ListMmfException">The new file could not be written or put in place; the message says whether
    /// the file is unchanged.</exception>
    public static bool Unseal(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        string full = Path.GetFullPath(path);
        if (!IsSealed(full))
        {
            return false;
        }

        using WriterLock writerLock = WriterLock.Acquire(full);
        using SealedFile sealedFile = SealedFile.Open(full, replacing: true);
        SealedHeader header = sealedFile.Header;
        var format = new NewFileFormat(ListMmfFormatVersion.Version2, header.Description.Length == 0 ? null : header.Description);
        FileReplacement.Replace(
            full,
            sealedFile,
            "unseal",
            $"its {header.Count:N0} items, appendable",
            temporary =>
            {
                using ListMmfStorage copy = ListMmfStorage.OpenItems(
                    temporary, writable: true, header.ItemSize, header.DataType, WriterOpening.Copy, format);
                DecodeInto(sealedFile, copy);
                copy.Flush(0, header.Count);
            },
            target => ListMmfStorage.OpenItems(target, writable: true, header.ItemSize, header.DataType, WriterOpening.LockHeld),
            appendable => appendable,
            appendable => appendable.Dispose(),
            _ => { });
        return true;
    }

    /// <summary>Appends every item of <paramref name="sealedFile"/> to <paramref name="copy"/>, a block at a time.</summary>
    private static unsafe void DecodeInto(SealedFile sealedFile, ListMmfStorage copy)
    {
        byte[] items = new byte[SealedLayout.BlockValues * sealedFile.ItemSize];
        copy.Grow(copy.LengthFor(sealedFile.Count, nameof(sealedFile)));
        fixed (byte* decoded = items)
        {
            for (long block = 0; block < sealedFile.BlockCount; block++)
            {
                sealedFile.Decode(block, items);
                copy.AppendItems(decoded, SealedLayout.ValuesIn(block, sealedFile.Count));
            }
        }
    }
}
