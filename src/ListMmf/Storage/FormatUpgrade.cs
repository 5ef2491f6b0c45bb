using System;
using System.IO;

namespace ListMmf.Storage;

/// <summary>
/// Converts a version 1 file to version 2 by replacement, as <see cref="ListMmf{T}.TruncateBeginning"/> replaces a
/// file (<see cref="FileReplacement"/>): the items are copied into a version 2 file under the temporary name, made
/// durable, renamed over the old file, and readers follow. The description beside the file moves into the new
/// header; the file beside is removed once the rename is durable.
/// </summary>
internal static class FormatUpgrade
{
    /// <summary>Upgrades the file at <paramref name="path"/>; false where it is version 2 already.</summary>
    /// <exception cref="ListMmfLockedException">Another writer has the file open.</exception>
    /// <exception cref="ListMmfDataTypeException">A struct file without a description (its item size is unknown), or a
    /// bit array, which has no version 2 layout.</exception>
    /// <exception cref="ListMmfException">The new file could not be written or put in place; the message says whether
    /// the file is unchanged.</exception>
    public static bool Upgrade(string path)
    {
        string full = Path.GetFullPath(path);
        ListMmfFileInfo info = ListMmfFileInfo.Read(full);
        if (info.Version == ListMmfHeader.Version2)
        {
            return false;
        }

        if (info.DataType == DataType.Bit)
        {
            throw new ListMmfDataTypeException(full, "it holds a bit array, which has no version 2 layout: it stays version 1.");
        }

        // A version 1 writer records the description beside the file's real path.
        string real = StoragePlatform.Current.CanonicalPath(full);
        ListMmfDescription? description = ListMmfDescription.Read(real);
        int itemSize = info.ItemSize > 0 ? info.ItemSize : description?.ItemSize ?? throw new ListMmfDataTypeException(full,
            $"it holds {info.DataType} items and records no item size (it has no {ListMmfDescription.FileSuffix} " +
            "description), so it cannot be copied; open it in code as a ListMmf of its struct with a description first.");
        var format = new NewFileFormat(ListMmfFormatVersion.Version2, description?.ToJson());
        ListMmfStorage current = ListMmfStorage.OpenItems(full, writable: true, itemSize, info.DataType, WriterOpening.Locked);
        try
        {
            if (current.Format == HeaderFormat.Version2)
            {
                return false;
            }

            long count = Math.Max(0, current.PublishedCount);
            FileReplacement.Replace(
                full,
                current,
                "upgrade",
                $"its {count:N0} items in version 2",
                temporary =>
                {
                    using ListMmfStorage copy = ListMmfStorage.OpenItems(
                        temporary, writable: true, itemSize, info.DataType, WriterOpening.Copy, format);
                    copy.AppendItemsOf(current, count);
                    copy.Flush(0, count);
                },
                target => ListMmfStorage.OpenItems(target, writable: true, itemSize, info.DataType, WriterOpening.LockHeld),
                next => next,
                next =>
                {
                    current.HandLockTo(next);
                    current.Dispose();
                    current = next;
                },
                _ => { });
        }
        finally
        {
            current.Dispose();
        }

        if (description is not null)
        {
            DurableFile.TryDelete(ListMmfDescription.PathFor(real));
        }

        return true;
    }
}
