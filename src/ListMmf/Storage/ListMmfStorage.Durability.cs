using System;
using System.Threading;

namespace ListMmf.Storage;

/// <summary>
/// The flush protocols: what makes items and their count durable, in the order each format needs, and what a writer
/// closing or dropping items does to the durable count.
/// </summary>
internal sealed unsafe partial class ListMmfStorage
{
    /// <summary>How many flushed bytes a value column's flush walks again rather than take a second barrier (<see cref="FlushTogether"/>).</summary>
    private const long OneRangeFlushBytes = 32L << 20;

    /// <summary>
    /// Makes the first <paramref name="count"/> items and the count durable, items before the count that covers them,
    /// every step checked. Version 2: the items are synchronized, then the header's durable count is raised to
    /// <paramref name="count"/> and the header synchronized: two barriers, and since readers of a later boot trust only
    /// the durable count, a live count the system writes back on its own before its items is never believed after a
    /// power loss. Version 1: the pages after the first, then the first page (the header with the count and the first
    /// items); the system may still write a later count back before its items between two flushes.
    /// </summary>
    /// <param name="from">The first item written since the last flush (the items below it are durable already).</param>
    /// <param name="count">The items to make durable.</param>
    public void Flush(long from, long count)
    {
        FlushItems(from, count);
        FlushCount(count);
    }

    /// <summary>
    /// The first step of <see cref="Flush"/>: the items from <paramref name="from"/> to <paramref name="count"/> made
    /// durable, but not the count that covers them (version 1: not the first page, which holds it). Nothing is published
    /// until <see cref="FlushCount"/>, so the first steps of many files may run at once, in any order.
    /// </summary>
    public void FlushItems(long from, long count)
    {
        long start = ItemsOffset + (Math.Clamp(from, 0, count) * ItemSize);
        long end = ItemsOffset + (count * ItemSize);
        if (!Format.HasDurableCount)
        {
            start = Math.Max(start, Math.Min(Environment.SystemPageSize, end));
        }

        SyncRange(start, end - start);
    }

    /// <summary>
    /// The second step of <see cref="Flush"/>, once <see cref="FlushItems"/> returned for <paramref name="count"/>: the
    /// count made durable. Version 2: the header's durable count raised and the header synchronized (nothing where it
    /// was that already). Version 1: the first page, header and first items together.
    /// </summary>
    public void FlushCount(long count)
    {
        if (Format.HasDurableCount)
        {
            if (SetDurableCount(count))
            {
                SyncRange(0, ItemsOffset);
            }

            return;
        }

        SyncRange(0, Math.Min(Environment.SystemPageSize, ItemsOffset + (count * ItemSize)));
    }

    /// <summary>
    /// Version 2: lowers the durable count to <paramref name="count"/> durably, before the writer lowers its live
    /// count and writes new items where the dropped ones were: a durable count above them would cover those items
    /// half rewritten after a power loss.
    /// </summary>
    public void LowerDurableCount(long count)
    {
        if (Format.HasDurableCount && Volatile.Read(ref *(long*)(Pointer + ListMmfHeader.DurableCountOffset)) > count && SetDurableCount(count))
        {
            SyncRange(0, ItemsOffset);
        }
    }

    /// <summary>
    /// Version 2: stores <paramref name="count"/> as the durable count, one aligned 8-byte store, which a writeback of
    /// the page sees whole, old or new; false where it was that already.
    /// </summary>
    private bool SetDurableCount(long count)
    {
        long* durable = (long*)(Pointer + ListMmfHeader.DurableCountOffset);
        long before = Volatile.Read(ref *durable);
        if (before == count)
        {
            return false;
        }

        if (count > before)
        {
            MakeGrowthDurable();
        }

        Volatile.Write(ref *durable, count);
        return true;
    }

    /// <summary>
    /// Makes the file's growth since the last call durable, before a durable count that relies on it is stored. On
    /// ext4 and XFS a new length is metadata, committed with the journal, while the header is a data page the system
    /// may write back at any time: a durable count written back before that commit lay past the file's end after a
    /// power loss, and the table was refused (issue 64). One file barrier per growth, and growth doubles.
    /// </summary>
    private void MakeGrowthDurable()
    {
        if (_growthPending)
        {
            StoragePlatform.Current.FlushFile(_file.SafeFileHandle, Path);
            _growthPending = false;
        }
    }

    /// <summary>
    /// Makes the file as the system holds it now durable, whoever wrote it: for a reader, what its writer published
    /// (items, and the header with the counts it stored), so that a count the reader read stays after a power loss.
    /// A barrier on the file's handle, which a reader's read-only handle allows on Linux and macOS.
    /// </summary>
    public void SyncFile() => StoragePlatform.Current.FlushFile(_file.SafeFileHandle, Path);

    /// <summary>Writes the mapped range to the file and makes it durable: one barrier where the view's flush is one.</summary>
    private void SyncRange(long offset, long length)
    {
        if (length <= 0)
        {
            return;
        }

        _mapping.Flush(offset, length);
        if (!StoragePlatform.Current.ViewFlushIsDurable)
        {
            StoragePlatform.Current.FlushFile(_file.SafeFileHandle, Path);
        }
    }

    /// <summary>
    /// Starts writing back the items from <paramref name="from"/> (the first written since the last flush) to
    /// <paramref name="count"/>, without waiting (<see cref="StoragePlatform.StartWriteback"/>).
    /// </summary>
    /// <remarks>
    /// Never a version 1 file's first page, which holds the count: written back early, a count could reach the disk
    /// before the flushes that must precede it (a table's time column before its value columns; found by the
    /// power-loss harness, 14 of 800 crash images lost rows when the time column's first page was started with the
    /// rest). A version 2 header is never among the items.
    /// </remarks>
    public void StartFlush(long from, long count)
    {
        long start = Math.Max(
            ItemsOffset + (Math.Clamp(from, 0, count) * ItemSize), Format.FirstEarlyWritebackByte(ItemsOffset));
        long end = ItemsOffset + (count * ItemSize);
        if (end > start)
        {
            StoragePlatform.Current.StartWriteback(_file.SafeFileHandle, start, end - start);
        }
    }

    /// <summary>
    /// Makes the first <paramref name="count"/> items and the count durable together, with one barrier: for a file
    /// whose count publishes nothing by itself (a table's value column, whose rows the time column publishes). A
    /// version 2 durable count may then reach the disk before its items; the time column's, which a table trusts
    /// beside it, cannot.
    /// </summary>
    public void FlushTogether(long from, long count)
    {
        if (Format.HasDurableCount)
        {
            SetDurableCount(count);
        }

        // One range from the header to the end is one barrier, but a range sync walks all of it; past this much
        // flushed data, the header and the items written since are two ranges.
        long start = ItemsOffset + (Math.Clamp(from, 0, count) * ItemSize);
        long end = ItemsOffset + (count * ItemSize);
        if (start - ItemsOffset <= OneRangeFlushBytes)
        {
            SyncRange(0, end);
            return;
        }

        SyncRange(0, ItemsOffset);
        SyncRange(start, end - start);
    }

    /// <summary>
    /// Version 2: sets the live count back to the durable count and makes the header durable; returns that count
    /// (<see cref="ListMmfFileInfo.RevertToLastFlush"/>).
    /// </summary>
    public long RevertLiveCount()
    {
        long durable = Volatile.Read(ref *(long*)(Pointer + ListMmfHeader.DurableCountOffset));
        LiveCount = durable;
        SyncRange(0, ItemsOffset);
        return durable;
    }

    /// <summary>
    /// Version 2, a writer closing: where items were published since the last flush, they are synchronized and the
    /// durable count raised to them, so that a file closed by its writer keeps them across a later power loss (once
    /// the system writes the header back) and in a copy read on another machine. Without a barrier for the header,
    /// and nothing raised when the items could not be synchronized: the durable count never runs ahead of its items.
    /// </summary>
    private void MakeLiveCountDurable()
    {
        if (!IsWritable || !Format.HasDurableCount || _mapping.Length < ItemsOffset || IsMarkedReplaced)
        {
            return;
        }

        long count = LiveCount;
        if (count <= Volatile.Read(ref *(long*)(Pointer + ListMmfHeader.DurableCountOffset)) || count > (_mapping.Length - ItemsOffset) / ItemSize)
        {
            return;
        }

        try
        {
            SyncRange(ItemsOffset, count * ItemSize);
            SetDurableCount(count);
        }
        catch (ListMmfException)
        {
            // A writer closing throws nothing: the durable count stays where its items were last made durable.
        }
    }
}
