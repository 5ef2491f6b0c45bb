using System;

namespace ListMmf.Storage;

/// <summary>
/// A writer's room for its items: the file grown ahead of them, the pages prefaulted ahead of the appends, a writeback
/// started behind them, and a file shrunk.
/// </summary>
internal sealed unsafe partial class ListMmfStorage
{
    private const long MinimumGrowthBytes = 64 * 1024;

    /// <summary>
    /// How far ahead of its items a writer with <see cref="ListMmfOptions.PrefaultAhead"/> keeps the pages faulted
    /// in, and how much more it faults in on a thread-pool thread: for 192-byte items one prefault every 5,461
    /// appends (10,922 where it runs on to the end of a 2 MiB page), which the append that reaches it takes over.
    /// </summary>
    internal const long PrefaultWindow = 1L << 20;

    /// <summary>
    /// How far past an append a writer that has caught up with its prefaulted pages (at open, after a growth or a new
    /// view) faults in on its own thread, before the background takes the next window: the end of the large page
    /// this reaches into, where the mapping asked for them.
    /// </summary>
    internal const long CaughtUpReach = 256L << 10;

    /// <summary>
    /// How many bytes of appended items a writer with <see cref="ListMmfOptions.WriteBehind"/> lets accumulate before it
    /// starts their writeback.
    /// </summary>
    private const long WriteBehindWindow = 2L << 20;

    /// <summary>
    /// Grows the file to hold at least <paramref name="requiredBytes"/> bytes, by doubling it up to the mapping's
    /// <see cref="FileMapping.LargestGrowthStep"/> (64 MiB where growth extends the file in place, 1 GiB where it maps a
    /// new view), so that appends cost amortized O(1) and a large file does not double at once.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">No file can be that long.</exception>
    /// <exception cref="ListMmfException">The file system refused the space; the file keeps its old length.</exception>
    public void Grow(long requiredBytes)
    {
        long length = _mapping.Length;
        long step = Math.Clamp(length, MinimumGrowthBytes, _mapping.LargestGrowthStep);
        long newLength = RoundUpLength(Math.Max(requiredBytes, length > MaximumLength - step ? MaximumLength : length + step));
        CancelBackgroundPrefault();
        byte* before = _mapping.Pointer;
        _mapping.Grow(newLength);
        _growthPending = true;
        if (_mapping.Pointer != before)
        {
            // A new view has its own page tables: nothing of it is faulted in yet.
            PrefaultedEnd = 0;
        }
    }

    /// <summary>
    /// Whether the writer keeps the pages just ahead of its items faulted in (<see cref="ListMmfOptions.PrefaultAhead"/>):
    /// then it calls <see cref="PrefaultAhead"/> whenever its appends would pass <see cref="PrefaultedEnd"/>.
    /// </summary>
    public bool PrefaultsAhead => _prefault && IsWritable;

    /// <summary>The end of the bytes <see cref="PrefaultAhead"/> has faulted in through the current mapping.</summary>
    public long PrefaultedEnd { get; private set; }

    /// <summary>
    /// Makes the pages from <paramref name="from"/> (where the writer's items end) to <paramref name="to"/> (where the
    /// append about to be made ends) faulted in, as far as one window reaches, and starts faulting in the
    /// <see cref="PrefaultWindow"/> after them on a thread-pool thread (<see cref="BackgroundPrefault"/>), which the
    /// next call takes over. Each window runs on to the end of a large page where the mapping asked for them, and is
    /// faulted in writable and touched from user mode: the appends into it then take no page fault, not even the one
    /// a virtual machine takes on the first access from user mode to a page the kernel faulted in (benchmarks/README.md,
    /// "Figures behind the code"). No more than two windows ahead of the writer, because pages
    /// faulted in long before they are written may be paged out again meanwhile by the kernel's proactive reclaim.
    /// </summary>
    /// <returns>The new <see cref="PrefaultedEnd"/>: at most the file's length.</returns>
    public long PrefaultAhead(long from, long to)
    {
        TakeBackgroundPrefault();
        if (PrefaultedEnd < to)
        {
            // Caught up: only what the appends need first is faulted in here, so that the zeroing of the fresh pages
            // after it runs beside them from the start. A growth of a full file otherwise faulted in a window of 2-3
            // MiB of fresh memory per file on the writer's thread (benchmarks/README.md, "Append then durable").
            long start = Math.Max(from, PrefaultedEnd);
            long length = _ahead is null ? PrefaultWindow : Math.Max(to - start, 0) + CaughtUpReach;
            PrefaultedEnd = _mapping.Prefault(start, length);
        }

        // Past this append, so that the background never faults in a page the writer is writing.
        long next = Math.Max(PrefaultedEnd, to);
        if (_ahead is not null && next < _mapping.Length)
        {
            _ahead.Start(next, PrefaultWindow);
        }

        return PrefaultedEnd;
    }

    /// <summary>
    /// Ends the background prefault (<see cref="BackgroundPrefault.Finish"/>): its pages join the prefaulted ones,
    /// which they follow, or the pages this append wrote that lie between.
    /// </summary>
    private void TakeBackgroundPrefault()
    {
        if (_ahead is not null)
        {
            PrefaultedEnd = Math.Max(PrefaultedEnd, _ahead.Finish());
        }
    }

    /// <summary>
    /// Before anything that moves, cuts or unmaps the mapping: ends the background prefault, waiting for it where it
    /// runs, dropping it where it has not started (<see cref="BackgroundPrefault.Cancel"/>).
    /// </summary>
    private void CancelBackgroundPrefault()
    {
        if (_ahead is not null)
        {
            PrefaultedEnd = Math.Max(PrefaultedEnd, _ahead.Cancel());
        }
    }

    /// <summary>
    /// Whether the writer starts the writeback of its items as it goes (<see cref="ListMmfOptions.WriteBehind"/>):
    /// then it calls <see cref="WriteBehind"/> whenever its appends reach <see cref="WriteBehindEnd"/>.
    /// </summary>
    public bool WritesBehind { get; }

    /// <summary>Where in the file the appends next start a writeback.</summary>
    public long WriteBehindEnd { get; private set; }

    /// <summary>
    /// Starts writing back the items below <paramref name="end"/> (the end of the items written so far) that no
    /// earlier call started, in whole <see cref="WriteBehindWindow"/> blocks, never the first page (see
    /// <see cref="StartFlush"/>). The block that <paramref name="end"/> falls in is left for the writes still to come:
    /// the page cache keeps a file in folios of up to 2 MiB, written back whole, and one started under the writer
    /// would be dirtied and written again.
    /// </summary>
    public void WriteBehind(long end)
    {
        long from = Math.Max(_writebackStarted, Environment.SystemPageSize);
        long to = end / WriteBehindWindow * WriteBehindWindow;
        if (to > from)
        {
            StoragePlatform.Current.StartWriteback(_file.SafeFileHandle, from, to - from);
            _writebackStarted = to;
        }

        WriteBehindEnd = end + WriteBehindWindow;
    }

    /// <summary>
    /// A new file's writer: copies the first <paramref name="count"/> items of <paramref name="source"/> (items of the
    /// same size) after its own, growing the file as needed, and publishes them.
    /// </summary>
    public void AppendItemsOf(ListMmfStorage source, long count) => AppendItems(source.Pointer + source.ItemsOffset, count);

    /// <summary>
    /// A new file's writer: copies the <paramref name="count"/> items at <paramref name="source"/> after its own,
    /// growing the file as needed, and publishes them.
    /// </summary>
    public void AppendItems(byte* source, long count)
    {
        long live = LiveCount;
        long bytes = count * ItemSize;
        long end = ItemsOffset + (live * ItemSize) + bytes;
        if (end > _mapping.Length)
        {
            Grow(LengthFor(live + count, nameof(count)));
        }

        Buffer.MemoryCopy(source, Pointer + ItemsOffset + (live * ItemSize), bytes, bytes);
        LiveCount = live + count;
    }

    /// <summary>Whether <see cref="Shrink"/> can cut this file where it is, while mapped (see <see cref="FileMapping.CanShrinkInPlace"/>).</summary>
    public bool CanShrinkInPlace => _mapping.CanShrinkInPlace;

    /// <summary>Cuts the file to <paramref name="length"/> bytes, which hold every published item.</summary>
    /// <exception cref="ListMmfException">The file system refused; the file keeps its length.</exception>
    public void Shrink(long length)
    {
        CancelBackgroundPrefault();
        _mapping.Shrink(length);
        PrefaultedEnd = Math.Min(PrefaultedEnd, length);
    }

    /// <summary>
    /// What the options ask for once the list is open and its published items end at byte <paramref name="end"/>:
    /// the pages just after it faulted in writable (<see cref="ListMmfOptions.PrefaultAhead"/>), the items
    /// before it read in (<see cref="ListMmfOptions.PopulateOnOpen"/>).
    /// </summary>
    public void Opened(long end)
    {
        // What was there before this open is not this writer's to start.
        _writebackStarted = end / Environment.SystemPageSize * Environment.SystemPageSize;
        WriteBehindEnd = end + WriteBehindWindow;
        if (PrefaultsAhead)
        {
            PrefaultAhead(end, end);
        }

        if (_populate)
        {
            _mapping.Populate(ItemsOffset, end - ItemsOffset);
        }
    }
}
