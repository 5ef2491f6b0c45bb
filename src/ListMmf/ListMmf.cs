using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A persistent list of unmanaged <typeparamref name="T"/> values kept in a memory-mapped file: a header (the
/// format version, the data-type code, the count and, in version 2, the durable count and the description) followed by
/// the items. Indices and counts are 64-bit.
/// </summary>
/// <remarks>
/// <para>
/// A file has one writer (opened with <see cref="FileAccess.ReadWrite"/>) and any number of readers (opened with
/// <see cref="FileAccess.Read"/>), in this process or others. The writer stores the items first and then
/// publishes the new count with release semantics; <see cref="Count"/> reads it with acquire semantics, so a
/// reader never sees an item that was not completely written.
/// </para>
/// <para>
/// An instance is not thread-safe: give each thread its own reader (they are cheap). A span from
/// <see cref="AsSpan(long, int)"/> stays valid until the list is disposed or collected, also across growth: earlier
/// mappings are kept until then. Across a replacement of the file (<see cref="TruncateBeginning"/>) it stays valid
/// until the list moves to the file after next: the list keeps the file it left, and closes it at the next move.
/// </para>
/// <para>The operating system keeps what reached the mapping even if the process dies. Call <see cref="Flush"/> for
/// durability against power loss. A version 2 writer's Dispose also makes the items appended since the last flush
/// durable before it records them as the file's durable count, so that a closed file keeps them across a later power
/// loss and in a copy; it waits for no barrier of the header.</para>
/// </remarks>
/// <typeparam name="T">The item type: any unmanaged value type.</typeparam>
public sealed unsafe class ListMmf<T> : IListMmf, IReadOnlyListMmf<T>
    where T : unmanaged
{
    private readonly ListMmfOptions _options;

    /// <summary>
    /// The file's storage across replacements (<see cref="TruncateBeginning"/>, or a reader following one); the file
    /// left last stays mapped for spans taken before, until the next move.
    /// </summary>
    private readonly ReplaceableFile<ListMmfStorage> _file;

    /// <summary>
    /// The replaced mark in the header of the mapping (version 1's version field, version 2's state): 0, or
    /// <see cref="ListMmfHeader.ReplacedMark"/> once the file was replaced.
    /// </summary>
    private int* _version;

    /// <summary>
    /// The published count, in the header of the mapping: the live count, or for a reader of a version 2 file last
    /// written in an earlier boot the durable count (<see cref="ListMmfStorage.TrustsLiveCount"/>); points at a zero
    /// once disposed.
    /// </summary>
    private long* _count;

    /// <summary>What <see cref="_count"/> is read with: a version 2 live count's guard bit off (<see cref="ListMmfStorage.CountMask"/>).</summary>
    private long _countMask = -1;

    /// <summary>What the writer stores its counts with: a version 2 file's guard bit (<see cref="ListMmfStorage.CountGuard"/>).</summary>
    private long _countGuard;

    private T* _items;

    /// <summary>How many items the mapping covers.</summary>
    private long _capacity;

    /// <summary>
    /// How many items <see cref="Add"/> may store without growing: the capacity for the writer, 0 for a reader or
    /// once disposed, so that the one unsigned comparison on the append path also sends those cases, and a
    /// damaged negative count, to the slow path.
    /// </summary>
    private long _appendLimit;

    private bool _disposed;

    /// <summary>
    /// The first item a flush must write: the items below it are as the last <see cref="Flush"/> left them, so that a
    /// flush synchronizes only the range written since (a range sync walks its whole range). Lowered by the
    /// indexer's setter and by <see cref="Truncate"/>, the only writes below the count; 0 at
    /// open, when a killed writer may have left pages unwritten anywhere.
    /// </summary>
    private long _unflushedFrom;

    /// <summary>Whether this list lowered its count (a <see cref="Truncate"/>) since it was opened or last moved to a new file.</summary>
    private bool _lowered;

    /// <summary>
    /// Opens the ListMmf file at <paramref name="path"/>, creating it when opened for writing and missing.
    /// </summary>
    /// <param name="path">The file. A writer also holds an exclusive lock on a sidecar, the file's real path
    /// (symbolic links resolved) plus <c>".writer-lock"</c>, while it lives.</param>
    /// <param name="access"><see cref="FileAccess.ReadWrite"/> for the one writer, <see cref="FileAccess.Read"/> for a reader.</param>
    /// <param name="options">Backend and initial capacity; <see cref="ListMmfOptions.Default"/> when null.</param>
    /// <exception cref="ListMmfFormatException">The file is not a valid ListMmf file. It was not changed.</exception>
    /// <exception cref="ListMmfDataTypeException">The file holds another item type. It was not changed.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the file open for writing.</exception>
    /// <exception cref="ListMmfException">The file could not be created, locked or mapped (a full disk, a read-only
    /// file system, locking unavailable, a failed flush); the message names the file and the OS error.</exception>
    /// <exception cref="FileNotFoundException">A reader was opened on a file, or in a directory, that does not exist.</exception>
    /// <exception cref="DirectoryNotFoundException">A writer was opened in a directory that does not exist.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><see cref="ListMmfOptions.InitialCapacity"/> is negative or
    /// more than any file can hold.</exception>
    /// <exception cref="PlatformNotSupportedException">A 32-bit or big-endian process, or a system other than Windows, Linux and macOS.</exception>
    public ListMmf(string path, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
        : this(path, access, options, DataTypeInfo.Of<T>().DataType, requireDataType: false, ListMmfDescription.ForList<T>())
    {
    }

    /// <summary>
    /// Opens the file; a new file is created with the data-type code <paramref name="dataType"/>, and with
    /// <paramref name="requireDataType"/> an existing file must have exactly that code. <paramref name="opening"/>
    /// says whether a writer takes the file's lock or its caller holds it. With a <paramref name="description"/>, a
    /// file that records one must match it (<see cref="CheckDescription"/>), and a writer of an empty file that
    /// records none writes it; without one, the file's description is neither read nor written.
    /// </summary>
    internal ListMmf(
        string path,
        FileAccess access,
        ListMmfOptions? options,
        DataType dataType,
        bool requireDataType,
        ListMmfDescription? description,
        WriterOpening opening = WriterOpening.Locked,
        NewFileFormat? newFile = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        if (access is not (FileAccess.Read or FileAccess.ReadWrite))
        {
            throw new ArgumentOutOfRangeException(nameof(access), access, "A ListMmf is opened with FileAccess.Read or FileAccess.ReadWrite.");
        }

        if (typeof(T) == typeof(DateTime) || typeof(T) == typeof(DateTimeOffset))
        {
            throw new NotSupportedException($"A ListMmf<{typeof(T).Name}> would store the raw bits of each {typeof(T).Name} " +
                "(its Kind or offset included), which no other reader of the file understands: store times in a " +
                "ListMmfTimeSeriesDateTime (DateTime ticks) or a ListMmfTimeSeriesDateTimeSeconds (Unix seconds).");
        }

        options ??= ListMmfOptions.Default;
        _options = options;
        Path = System.IO.Path.GetFullPath(path);
        newFile ??= new NewFileFormat(options.FormatVersion, description?.ToJson());
        ListMmfStorage storage = ListMmfStorage.Open<T>(
            Path, access == FileAccess.ReadWrite, options, dataType, requireDataType, opening, newFile: newFile);
        _file = new ReplaceableFile<ListMmfStorage>(Path, storage, static file => file, keepsPrevious: true);
        UpdatePointers();
        try
        {
            // Read the count through the mapping, atomically: a count past the file is damage, refused here.
            storage.Opened(storage.ItemsOffset + (Count * sizeof(T)));
            if (description is not null && opening == WriterOpening.Locked)
            {
                Description = CheckDescription(storage, description);
            }
        }
        catch
        {
            storage.Dispose();
            throw;
        }
    }

    /// <summary>
    /// What the file's description records (<see cref="ListMmfDescription"/>), or null where it has none or the
    /// list was opened without looking.
    /// </summary>
    internal ListMmfDescription? Description { get; }

    /// <summary>The full path of the file.</summary>
    public string Path { get; }

    /// <summary>Whether this instance is the file's writer.</summary>
    public bool IsWritable => _file.Current.IsWritable;

    /// <summary>The data-type code in the file's header.</summary>
    public DataType DataType => _file.Current.DataType;

    /// <summary>The backend that maps the file.</summary>
    internal MappingBackend Backend => _file.Current.Backend;

    /// <summary>
    /// The number of items: the count published in the file's header. A reader sees the writer's appends here as
    /// they are published, and maps the grown file when the count passes its mapping.
    /// </summary>
    /// <exception cref="ListMmfFormatException">The count in the header has been damaged since the file was opened:
    /// it is negative or past the end of the file.</exception>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    public long Count
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            long count = Volatile.Read(ref *_count) & _countMask;
            return (ulong)count <= (ulong)_capacity && *_version == 0 ? count : FollowWriter(count);
        }
    }

    /// <summary>The number of items the file has room for before it must grow.</summary>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    public long Capacity
    {
        get
        {
            ThrowIfDisposed();
            return _capacity;
        }
    }

    /// <summary>The item at <paramref name="index"/>. Only items below <see cref="Count"/> can be read or replaced.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative or not below <see cref="Count"/>.</exception>
    /// <exception cref="NotSupportedException">Setting on a list opened read-only.</exception>
    public T this[long index]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            // Not Count: the indexer skips the check for a replaced file (TruncateBeginning), so that a read costs
            // what it did; it reads the file it has, whole and consistent, until Count, a search or AsSpan moves the
            // list to the new file; so does an index past the count it read.
            long count = Volatile.Read(ref *_count) & _countMask;
            if ((ulong)count > (ulong)_capacity)
            {
                count = FollowWriter(count);
            }

            if ((ulong)index >= (ulong)count)
            {
                return ItemPastCount(index);
            }

            T item = _items[index];

            // A list collected while its item is read would be unmapped under the read.
            GC.KeepAlive(this);
            return item;
        }

        set
        {
            if (!IsWritable)
            {
                ThrowIfDisposed();
                ThrowHelper.ReadOnly(Path);
            }

            if ((ulong)index >= (ulong)Count)
            {
                ThrowIndexOutOfRange(index);
            }

            _items[index] = value;
            if (index < _unflushedFrom)
            {
                _unflushedFrom = index;
            }
        }
    }

    /// <summary>Appends <paramref name="item"/> and publishes the new count. Grows the file when it is full.</summary>
    /// <exception cref="ListMmfFormatException">The count in the header has been damaged since the file was opened; nothing was written.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Add(T item)
    {
        long count = *_count & _countMask;
        if ((ulong)count >= (ulong)_appendLimit)
        {
            PrepareAppend(count, 1);
        }

        _items[count] = item;
        Volatile.Write(ref *_count, (count + 1) | _countGuard);
    }

    /// <summary>
    /// <see cref="Count"/>, and the last of those items in <paramref name="last"/> when there is one (default
    /// otherwise): an append's order check reads the count once for both.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal long CountAndLast(out T last)
    {
        long count = Count;
        last = count > 0 ? _items[count - 1] : default;
        GC.KeepAlive(this);
        return count;
    }

    /// <summary>Appends all of <paramref name="items"/> and publishes them with one count update.</summary>
    /// <exception cref="ListMmfFormatException">The count in the header has been damaged since the file was opened; nothing was written.</exception>
    public void AddRange(ReadOnlySpan<T> items)
    {
        items.CopyTo(Reserve(items.Length));
        PublishReserved(items.Length);
    }

    /// <summary>
    /// Room for <paramref name="length"/> items past the published count, growing the file if needed, for a caller
    /// that fills them in place and then publishes them with <see cref="PublishReserved"/>; until then no reader sees
    /// them, and a caller that gives up simply never publishes.
    /// </summary>
    internal Span<T> Reserve(int length) => ReserveAfter(0, length);

    /// <summary>
    /// As <see cref="Reserve"/>, past the <paramref name="pending"/> items already reserved and filled but not
    /// published: a writer that must publish many batches at once (an import, whole or not at all) stages them so.
    /// </summary>
    internal Span<T> ReserveAfter(long pending, int length)
    {
        // Unsigned, and no sum that can wrap: a negative or oversized count, a reader (limit 0) or a disposed list
        // (count -1) fails the first test; only a count below the limit reaches the subtraction.
        long count = (*_count & _countMask) + pending;
        if ((ulong)count >= (ulong)_appendLimit || (ulong)length > (ulong)(_appendLimit - count))
        {
            PrepareAppend(count, length);
        }

        return new Span<T>(_items + count, length);
    }

    /// <summary>Publishes the first <paramref name="length"/> items reserved past the count, with one count update.</summary>
    internal void PublishReserved(long length)
    {
        long count = *_count & _countMask;
        Volatile.Write(ref *_count, (count + length) | _countGuard);
    }

    /// <summary>Grows the file, if needed, so that it holds at least <paramref name="capacity"/> items.</summary>
    /// <returns>The capacity afterwards.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is negative or more than any file can hold.</exception>
    /// <exception cref="ListMmfException">The file system refused the space; the file keeps its old length.</exception>
    public long EnsureCapacity(long capacity)
    {
        ThrowIfNotWritable();
        long required = _file.Current.LengthFor(capacity, nameof(capacity));
        if (capacity > _capacity)
        {
            Grow(required);
        }

        return _capacity;
    }

    /// <summary>
    /// Lowers <see cref="Count"/> to <paramref name="newCount"/>: a maintenance operation, for when no reader relies
    /// on the dropped items. The file keeps its length, because shrinking a file that another process has mapped
    /// would crash that process.
    /// </summary>
    /// <remarks>
    /// The file format has no generation number, so readers cannot tell a truncation from a slow writer. A reader's
    /// next <see cref="Count"/> and the searches after it see the lower count, and then whatever the writer appends
    /// again. A span, an enumerator or a search that a reader took before the truncation may see the dropped items
    /// change under it when the writer appends again, because the new items are written where they were.
    /// </remarks>
    public void Truncate(long newCount)
    {
        ThrowIfNotWritable();
        long count = Count;
        if ((ulong)newCount > (ulong)count)
        {
            ThrowHelper.ArgumentOutOfRange(nameof(newCount), newCount, $"The new count must be at least 0 and at most Count ({count:N0}).");
        }

        _lowered |= newCount < count;
        _unflushedFrom = Math.Min(_unflushedFrom, newCount);
        _file.Current.LowerDurableCount(newCount);
        Volatile.Write(ref *_count, newCount | _countGuard);
    }

    /// <summary>
    /// Drops the first <paramref name="count"/> items, for rolling windows: a maintenance operation that writes the
    /// rest into a new file under a temporary name, makes it durable and renames it over this one. The old file's
    /// items are never changed, so a failure before the rename (a full disk) leaves the list as it was.
    /// Readers move to the new file on their next <see cref="Count"/>, read or search and see the shorter list; an
    /// index or count a reader kept from before now points <paramref name="count"/> items further on. Spans and
    /// enumerators taken before keep showing the old file until the list moves again (see the remarks).
    /// </summary>
    /// <remarks>On Windows the new file replaces the old by a rename with POSIX semantics, or, where the file system
    /// has none, by moving the old file aside, renaming the new one into its path and deleting the old one, which goes
    /// when its last reader closes it.</remarks>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative or more than <see cref="Count"/>.</exception>
    /// <exception cref="ListMmfException">The new file could not be written or renamed into place (the list is
    /// unchanged); or it was renamed into place but could not be opened, and the list refuses every later call (the message says which).</exception>
    public void TruncateBeginning(long count)
    {
        ThrowIfNotWritable();
        long total = Count;
        if ((ulong)count > (ulong)total)
        {
            ThrowHelper.ArgumentOutOfRange(nameof(count), count, $"The count to drop must be at least 0 and at most Count ({total:N0}).");
        }

        if (count == 0)
        {
            return;
        }

        ReplaceWithItems("truncate the beginning of", $"the {total - count:N0} items after the first {count:N0}", count, total);
    }

    /// <summary>
    /// Gives the file's unused space back to the file system: <see cref="Capacity"/> becomes <see cref="Count"/>
    /// (the file's length rounded up to 64 KiB), for a file that is complete, such as an import's. Appending
    /// afterwards grows the file again. Readers in any process keep working: none ever reads past the published
    /// items, and on Linux and macOS the file is cut where it is.
    /// </summary>
    /// <remarks>
    /// <para>Where a mapped file cannot be cut (Windows, or the <see cref="MappingBackend.MemoryMappedFile"/>
    /// backend), and after this list lowered its count with <see cref="Truncate"/> (a reader may still hold a span
    /// or an enumerator over the dropped items, which would then read past the end of the file and die of SIGBUS),
    /// the items are written into a new file of exactly that length instead, which replaces this one as
    /// <see cref="TruncateBeginning"/>'s does: readers move to it the same way, and what they held stays mapped.</para>
    /// <para>The new length is durable with the next <see cref="Flush"/>; a crash before it leaves the longer file,
    /// which is just as valid.</para>
    /// </remarks>
    /// <exception cref="NotSupportedException">The list was opened read-only.</exception>
    /// <exception cref="ListMmfException">The file could not be cut or replaced; the list is unchanged.</exception>
    public void TrimExcess()
    {
        ThrowIfNotWritable();
        long count = Count;
        ListMmfStorage storage = _file.Current;
        long length = storage.LengthFor(count, nameof(count));
        if (length >= storage.Length)
        {
            return;
        }

        if (TrimsInPlace)
        {
            storage.Shrink(length);
            UpdatePointers();
            return;
        }

        ReplaceWithItems("give back the unused space of", $"its {count:N0} items", 0, count);
    }

    /// <summary>
    /// Whether <see cref="TrimExcess"/> cuts the file where it is, while mapped (the POSIX backend can); otherwise it
    /// writes the items into a new file that replaces it.
    /// </summary>
    internal bool TrimsInPlace => _file.Current.CanShrinkInPlace && !_lowered;

    /// <summary>Replaces the file with a new one holding the items <c>[start, end)</c>; see <see cref="TruncateBeginning"/>.</summary>
    private void ReplaceWithItems(string action, string items, long start, long end)
    {
        int generation = _file.Generation;
        try
        {
            _file.Replace(
                action,
                items,
                temporary => WriteItems(temporary, start, end),
                target => ListMmfStorage.Open<T>(target, writable: true, _options, DataType, requireDataType: true, WriterOpening.LockHeld));
        }
        finally
        {
            // The list moved (even if a step after the move failed), or cannot go on; "unchanged" leaves it as it is.
            if (_file.Generation != generation || _file.Failure is not null)
            {
                Repoint();
            }
        }

        // No reader maps the new file past its items yet.
        _lowered &= _file.Generation == generation;
    }

    /// <summary>A replacement's new file at <paramref name="temporary"/>: the items <c>[start, end)</c>, made durable.</summary>
    private void WriteItems(string temporary, long start, long end)
    {
        var options = _options with { InitialCapacity = end - start, CreateIfMissing = true };
        using var copy = new ListMmf<T>(
            temporary, FileAccess.ReadWrite, options, DataType, requireDataType: true, description: null, WriterOpening.Copy,
            _file.Current.SameFormat);
        for (long from = start; from < end; from += int.MaxValue / 2)
        {
            copy.AddRange(new ReadOnlySpan<T>(_items + from, (int)Math.Min(int.MaxValue / 2, end - from)));
        }

        copy.Flush();
    }

    /// <summary>
    /// How many times this list has moved to a new file (its own <see cref="TruncateBeginning"/>, or a reader
    /// following one): what a page index built over the old items checks.
    /// </summary>
    internal int Generation => _file.Generation;

    /// <summary>
    /// Whether a reader reopens the path when its file is marked replaced (the default); an
    /// <see cref="IntegerListMmf"/> turns it off for its lists, because it reopens at another width itself.
    /// </summary>
    internal bool ReopensOnReplacement { get; init; } = true;

    /// <summary>A read-only span over <paramref name="length"/> items starting at <paramref name="start"/>, straight over the mapping.</summary>
    /// <remarks>
    /// The span stays valid across growth, until the list is disposed or collected: keep the list referenced (a
    /// <c>using</c>) while you use the span. A span used after that reads unmapped memory, which the runtime cannot
    /// catch. See <see cref="Truncate"/> for what a span sees when the writer truncates.
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the first <see cref="Count"/> items.</exception>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    public ReadOnlySpan<T> AsSpan(long start, int length)
    {
        long count = CountFor(start, length);
        if (start < 0 || length < 0 || start > count - length)
        {
            ThrowHelper.RangeOutOfBounds(start, length, count);
        }

        return new ReadOnlySpan<T>(_items + start, length);
    }

    /// <summary>
    /// A read-only span over the items of <paramref name="range"/>, straight over the mapping; see
    /// <see cref="AsSpan(long, int)"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the first <see cref="Count"/> items, or
    /// holds more than <see cref="int.MaxValue"/> items, the most a span can.</exception>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    public ReadOnlySpan<T> AsSpan(IndexRange range) =>
        AsSpan(range.Start, ThrowHelper.SpanLength(range.Start, range.Length, CountFor(range.Start, range.Length)));

    /// <summary>The items of <paramref name="range"/> as memory over the mapping; see <see cref="AsMemory(long, int)"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the first <see cref="Count"/> items, or
    /// holds more than <see cref="int.MaxValue"/> items, the most a span can.</exception>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    public ReadOnlyMemory<T> AsMemory(IndexRange range) =>
        AsMemory(range.Start, ThrowHelper.SpanLength(range.Start, range.Length, CountFor(range.Start, range.Length)));

    /// <summary>Copies the items of <paramref name="range"/> into <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the first <see cref="Count"/> items, or
    /// holds more than <see cref="int.MaxValue"/> items.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    public void CopyTo(IndexRange range, Span<T> destination)
    {
        ReadOnlySpan<T> items = AsSpan(range);
        ThrowHelper.CheckDestination(destination.Length, items.Length);
        items.CopyTo(destination);
    }

    /// <inheritdoc/>
    bool IReadOnlyListMmf<T>.IsSealed => false;

    /// <summary>
    /// Whether the list holds times that are UTC, by the time series' rule: as its description records, else as
    /// <see cref="ListMmfOptions.TimesAreUtc"/> said; false for a list of anything but times.
    /// </summary>
    public bool TimesAreUtc => (Description?.TimesAreUtc ?? _options.TimesAreUtc) && DataTypeInfo.Of(DataType).IsTime;

    /// <inheritdoc/>
    ReadOnlySpan<T> IReadOnlyListMmf<T>.Read(IndexRange range, Span<T> buffer) => AsSpan(range);

    /// <inheritdoc/>
    bool IReadOnlyListMmf<T>.TryGetMemory(IndexRange range, out ReadOnlyMemory<T> memory)
    {
        memory = AsMemory(range);
        return true;
    }

    /// <summary>
    /// The same items as <see cref="AsSpan(long, int)"/>, as a <see cref="ReadOnlyMemory{T}"/> for APIs that keep or pass on
    /// memory (Arrow buffers, Parquet writers, async code): it points into the mapping, copies nothing, and keeps
    /// the list from being collected while it is reachable.
    /// </summary>
    /// <remarks>
    /// Valid as long as a span from <see cref="AsSpan(long, int)"/> would be. Unlike a span it is checked on every use: once the
    /// list is disposed, or has moved to a new file twice (and closed the one it read), using it throws instead of
    /// reading unmapped memory. A pin (<see cref="ReadOnlyMemory{T}.Pin"/>) keeps the mapping until its handle is disposed,
    /// even past the list's Dispose, so that a native consumer (Arrow's C Data Interface pins what it exports until
    /// the consumer releases it) never reads unmapped pages; a pin never disposed keeps the file mapped.
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the first <see cref="Count"/> items.</exception>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    public ReadOnlyMemory<T> AsMemory(long start, int length)
    {
        long count = CountFor(start, length);
        if (start < 0 || length < 0 || start > count - length)
        {
            ThrowHelper.RangeOutOfBounds(start, length, count);
        }

        return new MappedMemoryManager<T>(this, _file.Current, _items + start, length).Memory;
    }

    /// <summary>
    /// Makes the items and the count durable: returns once they are on stable storage. The items are made durable
    /// first, then the count that covers them (version 2: the header's durable count, two barriers), so that the
    /// flushed count never becomes durable before its items. Appends themselves make no system call; only this does.
    /// </summary>
    /// <remarks>
    /// What a power loss keeps is the state of the last <see cref="Flush"/> that returned. What was appended after it
    /// may be lost. A version 2 file is read after a power loss at exactly that state: readers and the next writer of
    /// a later boot trust only the durable count. In a version 1 file the count may be ahead of its items, because the
    /// system writes pages back in any order: the items past the last flush may read as zeros.
    /// <see cref="Verify()"/> checks a file after a crash.
    /// </remarks>
    /// <exception cref="ListMmfException">The system reported that writing or flushing failed; the data may not be durable.</exception>
    public void Flush() => FlushCount(FlushItems());

    /// <summary>
    /// The first step of <see cref="Flush"/>: the items made durable, not the count; returns the count that
    /// <see cref="FlushCount"/> then makes durable. The first steps of several lists may run at once.
    /// </summary>
    internal long FlushItems()
    {
        ThrowIfNotWritable();
        long count = Count;
        _file.Current.FlushItems(_unflushedFrom, count);
        return count;
    }

    /// <summary>
    /// The second step of <see cref="Flush"/>: <paramref name="count"/>, whose items <see cref="FlushItems"/> made
    /// durable, made durable.
    /// </summary>
    internal void FlushCount(long count)
    {
        ThrowIfNotWritable();
        _file.Current.FlushCount(count);
        _unflushedFrom = count;
    }

    /// <summary>The items a power loss now keeps, below <see cref="Count"/> (see <see cref="Flush"/>).</summary>
    internal long DurableCount => Math.Min(Count, _file.Current.DurableCount);

    /// <summary>Makes the file as the system holds it now durable, a reader's too (<see cref="ListMmfStorage.SyncFile"/>).</summary>
    internal void SyncFile() => _file.Current.SyncFile();

    /// <summary>Starts writing the items (never the count) back without waiting, so that the flushes of several lists overlap.</summary>
    internal void StartFlush()
    {
        ThrowIfNotWritable();
        _file.Current.StartFlush(_unflushedFrom, Count);
    }

    /// <summary>
    /// As <see cref="Flush"/>, in one flush of the file: the count may become durable before its items, for a list
    /// whose count publishes nothing (a table's value column).
    /// </summary>
    internal void FlushTogether()
    {
        ThrowIfNotWritable();
        long count = Count;
        _file.Current.FlushTogether(_unflushedFrom, count);
        _unflushedFrom = count;
    }

    /// <summary>
    /// Checks the file as it is on disk, for use after a crash or a power loss: the header is read again from the
    /// file (not the mapping) and validated as at open, and every item below the count is read through the file, so
    /// that a damaged header or an unreadable block is reported here rather than met later.
    /// </summary>
    /// <exception cref="ListMmfFormatException">The header is no longer valid.</exception>
    /// <exception cref="ListMmfException">Part of the items could not be read.</exception>
    public void Verify() => Verify(null);

    /// <inheritdoc cref="Verify()"/>
    /// <param name="progress">Told the fraction of the items read so far, from 0 to 1, as the check goes (on this thread).</param>
    public void Verify(IProgress<double>? progress)
    {
        ThrowIfDisposed();
        _file.Current.Verify<T>(progress);
    }

    /// <summary>
    /// The XXH3-64 hash (seed 0) of the bytes of the published items, as <c>xxhsum -H3</c> computes it over those
    /// bytes: a fingerprint for checking that two copies of a list hold the same items.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    public ulong ComputeXxHash3()
    {
        long count = Count;
        ulong hash = Hashing.MappedXxHash3.Hash((byte*)_items, count * sizeof(T));
        GC.KeepAlive(this);
        return hash;
    }

    /// <summary>
    /// Reads the file's description (version 2: in its header; version 1: the file beside it) and checks that it
    /// describes <typeparamref name="T"/> items: their size, and for a struct file the offset, size and type of every
    /// field. The writer of an empty version 1 file records <paramref name="expected"/> where the file records none or
    /// another (one left by a deleted file of the same name), before any item can be published, so that its readers
    /// are checked from the first; a version 2 file keeps the description it was created with, as a file with items
    /// does.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file records items of another size or layout.</exception>
    private ListMmfDescription? CheckDescription(ListMmfStorage storage, ListMmfDescription expected)
    {
        string realPath = storage.IsWritable ? storage.RealPath : StoragePlatform.Current.CanonicalPath(Path);
        bool inHeader = storage.Format.DescribesItems;
        ListMmfDescription? recorded = inHeader
            ? ListMmfDescription.FromJson(storage.DescriptionJson, Path, "the description in its header")
            : ListMmfDescription.Read(realPath);
        // A version 2 header is never rewritten in place: its checksum covers the description.
        if (storage.IsWritable && Count == 0 && !inHeader)
        {
            byte[] json = expected.ToJson();
            if (recorded is null || !recorded.ToJson().AsSpan().SequenceEqual(json))
            {
                // Under the writer's lock; a crash between the two leaves an empty file without a description, as before.
                string descriptionPath = ListMmfDescription.PathFor(realPath);
                File.Delete(descriptionPath);
                DurableFile.Create(descriptionPath, json, static (file, bytes) => file.Write(bytes));
                return expected;
            }
        }

        if (recorded is null)
        {
            return null;
        }

        string where = inHeader ? "its header records" : $"its description '{ListMmfDescription.PathFor(realPath)}' records";
        recorded.CheckHolds<T>(expected, Path, where);
        return recorded;
    }

    /// <summary>
    /// The items for a search: the count is read once (acquire), then the pointer, which reading the count may
    /// have moved; every item below that count is completely written. The caller keeps the list alive
    /// (<see cref="GC.KeepAlive"/>) until its last read through the source: a collected list is unmapped.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    internal T* Snapshot(out long count)
    {
        count = Count;
        return _items;
    }

    /// <inheritdoc cref="IReadOnlyListMmf{T}.Gather"/>
    public void Gather(ReadOnlySpan<long> indices, Span<T> destination, T missing = default)
    {
        ThrowHelper.CheckDestination(destination.Length, indices.Length);
        int generation = Generation;
        T* items = Snapshot(out long count);
        for (int i = 0; i < indices.Length; i++)
        {
            long index = indices[i];
            if ((ulong)index < (ulong)count)
            {
                destination[i] = items[index];
            }
            else if (index != -1)
            {
                // Past the count read at the start: the indexer follows the writer (or throws); where it moved the
                // list to a new file, the rest are read from that file, the one it maps.
                destination[i] = this[index];
                if (Generation != generation)
                {
                    generation = Generation;
                    items = Snapshot(out count);
                }
            }
            else
            {
                destination[i] = missing;
            }
        }

        GC.KeepAlive(this);
    }

    /// <summary>Whether the list has been disposed.</summary>
    internal bool IsDisposed => _disposed;

    /// <summary>The mapped first byte of the file (the header); the mapping covers the whole file.</summary>
    internal byte* FileStart => _file.Current.Pointer;

    /// <summary>
    /// Whether the file has been marked replaced by a new one under its path (a widening, a TruncateBeginning): the
    /// replacing writer marks the old file's header just before the rename, so a reader that sees the mark looks at
    /// the path again.
    /// </summary>
    internal bool IsReplaced
    {
        get
        {
            ThrowIfDisposed();
            return Volatile.Read(ref *_version) == ListMmfHeader.ReplacedMark;
        }
    }

    /// <summary>The storage of the file this list maps now: what a replacement of the file marks.</summary>
    internal ListMmfStorage Storage
    {
        get
        {
            ThrowIfDisposed();
            return _file.Current;
        }
    }

    /// <summary>
    /// An allocation-free enumerator over the items present when enumeration starts. It checks the list on every
    /// step: after the list is disposed, <c>MoveNext</c> throws <see cref="ObjectDisposedException"/>.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The list has been disposed.</exception>
    public Enumerator GetEnumerator()
    {
        // Count first: it may move a reader to a replacement file, whose items the enumeration then reads.
        long count = Count;
        return new(this, _items, count, Generation);
    }

    IEnumerator<T> IEnumerable<T>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>
    /// Unmaps the file and closes it; a writer also gives up the file's writer lock. Afterwards every member throws
    /// <see cref="ObjectDisposedException"/>, except <see cref="Dispose"/> (a no-op), <see cref="ToString"/> and the
    /// properties that describe the file (<see cref="Path"/>, <see cref="IsWritable"/>, <see cref="DataType"/>,
    /// <see cref="Backend"/>). Disposing while another thread uses the list is not supported (an instance is not
    /// thread-safe); it cannot change the file, since nothing is written after the count is published.
    /// </summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        Unpoint();
        _file.Dispose();
    }

    /// <inheritdoc/>
    public override string ToString() =>
        _disposed ? $"{DataTypeInfo.ListName<T>()}('{Path}', disposed)" : $"{DataTypeInfo.ListName<T>()}('{Path}', Count = {Count:N0})";

    private void UpdatePointers()
    {
        ListMmfStorage storage = _file.Current;
        byte* start = storage.Pointer;
        _version = (int*)(start + storage.MarkOffset);
        _count = (long*)(start + storage.PublishedCountOffset);
        _countMask = storage.CountMask;
        _countGuard = storage.CountGuard;
        _items = (T*)(start + storage.ItemsOffset);
        _capacity = Math.Max(0, storage.Length - storage.ItemsOffset) / sizeof(T);
        _appendLimit = IsWritable ? AppendLimit(_file.Current) : 0;
    }

    /// <summary>
    /// The count read is not within the mapping, or the file is marked replaced: the list is disposed, the count is
    /// damaged, the writer published past this reader's mapping, or a reader's file is being replaced. The writer
    /// grows the file before it publishes, so the file, read after the count, holds every published item: a count
    /// still past it is damage.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private long FollowWriter(long count)
    {
        ThrowIfDisposed();
        int version = Volatile.Read(ref *_version);
        if (version == ListMmfHeader.ReplacedMark)
        {
            if (ReopensOnReplacement && !IsWritable && TryFollowReplacement())
            {
                return Count;
            }
        }
        else if (version != 0)
        {
            throw new ListMmfFormatException(Path, $"the header's {_file.Current.Format.MarkField} has " +
                $"changed to {version} since the file was opened; another program damaged it.");
        }

        if ((ulong)count <= (ulong)_capacity)
        {
            return count;
        }

        if (count < 0)
        {
            ThrowHelper.DamagedCount(Path, count, _capacity);
        }

        _file.Current.Refresh();
        UpdatePointers();
        ThrowIfDamaged(count);
        return count;
    }

    /// <summary>
    /// The reader's file is marked replaced: it moves to the file at the path when that is another file (see
    /// <see cref="ReplaceableFile{TFile}.TryFollow"/>).
    /// </summary>
    private bool TryFollowReplacement(bool evenIfPostponed = false)
    {
        bool moved = _file.TryFollow(attempts => ListMmfStorage.Open<T>(
            Path,
            writable: false,
            _options,
            DataType,
            requireDataType: false,
            replacedAttempts: attempts), evenIfPostponed);
        if (moved)
        {
            Repoint();
        }

        return moved;
    }

    /// <summary>
    /// After the list may have moved to a new file: points at it, with what the options ask of an opened file
    /// (prefault, populate); or, when the list can no longer go on, at the disposed count, so that the hot paths take
    /// the slow path, which throws, and no write goes to the old file, which no name reaches any more.
    /// </summary>
    private void Repoint()
    {
        if (_file.Failure is not null)
        {
            Unpoint();
            return;
        }

        UpdatePointers();
        _unflushedFrom = 0;
        _file.Current.Opened(_file.Current.ItemsOffset + (Math.Clamp(Volatile.Read(ref *_count) & _countMask, 0, _capacity) * sizeof(T)));
    }

    /// <summary>Points the list at the disposed count, so that every member's first read of it takes the slow path, which throws.</summary>
    private void Unpoint()
    {
        _count = DisposedCount.Pointer;
        _countMask = -1;
        _countGuard = 0;
        _version = (int*)DisposedCount.Pointer;
        _items = null;
        _capacity = 0;
        _appendLimit = 0;
    }

    /// <summary>The slow path of the appends: a reader or a disposed list, a damaged count, or a full file.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void PrepareAppend(long count, int added)
    {
        ThrowIfNotWritable();
        ThrowIfDamaged(count);
        if (added > _capacity - count)
        {
            Grow(_file.Current.LengthFor(count + added, "items"));
        }

        ListMmfStorage storage = _file.Current;
        long end = storage.ItemsOffset + (count * sizeof(T));
        if (storage.PrefaultsAhead && count + added > ItemsBelow(storage.PrefaultedEnd))
        {
            storage.PrefaultAhead(end, end + ((long)added * sizeof(T)));
        }

        if (storage.WritesBehind && count >= ItemsBelow(storage.WriteBehindEnd))
        {
            storage.WriteBehind(end);
        }

        _appendLimit = AppendLimit(storage);
    }

    /// <summary>
    /// The count at which the next append goes through <see cref="PrepareAppend"/>: the capacity, or earlier where
    /// the storage has work to do as the items reach a point (the prefault window's end, the next write-behind); past
    /// the count, so that appends always progress.
    /// </summary>
    private long AppendLimit(ListMmfStorage storage)
    {
        long limit = _capacity;
        if (storage.PrefaultsAhead)
        {
            limit = Math.Min(limit, ItemsBelow(storage.PrefaultedEnd));
        }

        if (storage.WritesBehind)
        {
            limit = Math.Min(limit, ItemsBelow(storage.WriteBehindEnd));
        }

        return limit;
    }

    /// <summary>How many items fit in the file below byte <paramref name="end"/>.</summary>
    private long ItemsBelow(long end) => Math.Max(0, end - _file.Current.ItemsOffset) / sizeof(T);

    /// <summary>
    /// The header was checked when the file was opened; a count that has since left <c>[0, capacity]</c> is damage
    /// by another program, never an index.
    /// </summary>
    private void ThrowIfDamaged(long count)
    {
        if ((ulong)count > (ulong)_capacity)
        {
            ThrowHelper.DamagedCount(Path, count, _capacity);
        }
    }

    private void Grow(long requiredBytes)
    {
        _file.Current.Grow(requiredBytes);
        UpdatePointers();
    }

    private void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.Disposed(Path);
        }

        if (_file.Failure is { } failure)
        {
            throw new ListMmfException(Path, failure.Problem, failure);
        }
    }

    private void ThrowIfNotWritable()
    {
        ThrowIfDisposed();
        if (!IsWritable)
        {
            ThrowHelper.ReadOnly(Path);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowIndexOutOfRange(long index) => ThrowHelper.IndexOutOfRange(index, Count);

    /// <summary>
    /// The indexer's item past the count it read, which skips a replacement: a reader whose file was replaced (a
    /// table's column, asked for a row its time column already has in the new file) finds it once it has moved.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T ItemPastCount(long index)
    {
        long count = CountReaching(index, 1);
        if ((ulong)index >= (ulong)count)
        {
            ThrowHelper.IndexOutOfRange(index, count);
        }

        T item = _items[index];
        GC.KeepAlive(this);
        return item;
    }

    /// <summary>
    /// <see cref="Count"/>, for a read of <paramref name="length"/> items from <paramref name="start"/>; see
    /// <see cref="CountReaching"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private long CountFor(long start, long length)
    {
        long count = Count;
        return start >= 0 && length >= 0 && start <= count - length ? count : CountReaching(start, length);
    }

    /// <summary>
    /// <see cref="Count"/>, for a read of <paramref name="length"/> items from <paramref name="start"/> that reaches
    /// past the count the list read: a reader whose file is marked replaced looks at the path now, even within the
    /// wait between looks (<see cref="ReplacementCheck"/>), because another column of its table may already have
    /// shown those rows in the new file.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private long CountReaching(long start, long length)
    {
        long count = Count;
        bool past = start >= 0 && length >= 0 && start > count - length;
        if (past && ReopensOnReplacement && !IsWritable && Volatile.Read(ref *_version) == ListMmfHeader.ReplacedMark
            && TryFollowReplacement(evenIfPostponed: true))
        {
            count = Count;
        }

        return count;
    }

    /// <summary>
    /// Whether the mapping of <paramref name="generation"/> is still mapped: the list is open and has moved to a new
    /// file at most once since (it keeps the file it left).
    /// </summary>
    internal bool StillMaps(int generation) => _items != null && Generation - generation <= 1;

    /// <summary>
    /// Throws for a read through the mapping of <paramref name="generation"/>, which <see cref="StillMaps"/> says is
    /// gone since <paramref name="since"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal void ThrowReadEnded(int generation, string since)
    {
        ThrowIfDisposed();
        throw new InvalidOperationException($"'{Path}': the list has moved to a new file {Generation - generation} " +
            $"times since {since} (TruncateBeginning), and the file it read is closed.");
    }

    /// <summary>
    /// Enumerates the items present when enumeration started, without allocating. It holds the list, so the list
    /// stays mapped while it is enumerated, and checks on every step that it has not been disposed. It reads the
    /// mapping it started on: after a <see cref="TruncateBeginning"/> (or a reader following one) it goes on showing
    /// the old file, which stays mapped until the list moves to a new file once more; then <c>MoveNext</c> throws
    /// <see cref="InvalidOperationException"/>.
    /// </summary>
    [StructLayout(LayoutKind.Auto)]
    public struct Enumerator : IEnumerator<T>
    {
        private readonly ListMmf<T> _list;
        private readonly T* _items;
        private readonly long _count;
        private readonly int _generation;
        private long _index;
        private T _current;

        internal Enumerator(ListMmf<T> list, T* items, long count, int generation)
        {
            _list = list;
            _items = items;
            _count = count;
            _generation = generation;
            _index = -1;
            _current = default;
        }

        /// <inheritdoc/>
        public readonly T Current => _current;

        /// <summary>The index of <see cref="Current"/>.</summary>
        internal readonly long Index => _index;

        readonly object IEnumerator.Current => Current;

        /// <summary>Advances; past the end, <see cref="Current"/> is the default value and nothing is read.</summary>
        /// <exception cref="ObjectDisposedException">The list was disposed.</exception>
        /// <exception cref="InvalidOperationException">The list has moved to a new file twice since the enumeration
        /// started, and closed the file it read.</exception>
        public bool MoveNext()
        {
            if (!_list.StillMaps(_generation))
            {
                _list.ThrowReadEnded(_generation, "this enumeration started");
            }

            if (++_index < _count)
            {
                _current = _items[_index];
                GC.KeepAlive(_list);
                return true;
            }

            _index = _count;
            _current = default;
            return false;
        }

        /// <inheritdoc/>
        public void Reset()
        {
            _index = -1;
            _current = default;
        }

        /// <inheritdoc/>
        public readonly void Dispose()
        {
        }
    }
}
