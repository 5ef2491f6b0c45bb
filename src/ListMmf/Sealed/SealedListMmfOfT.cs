using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;
using ListMmf.Search;
using ListMmf.Sealed;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A sealed list (<see cref="SealedListMmf.Seal"/>) mapped for reading: its items decoded a block of 1,024 at a time
/// straight from the mapping, never the whole file. Any number of processes read it; it never changes. Once an unseal
/// puts the appendable form back at its path (<see cref="SealedListMmf.Unseal"/>), the list moves to the file there, as
/// an appendable reader follows a replacement: the items it held stay the same, and it reads the later appends too.
/// </summary>
/// <remarks>Locals are not zeroed: the stack buffers a block is decoded into are written whole before they are read.</remarks>
/// <typeparam name="T">The item type the list was written with (or another type of the same data-type code and size).</typeparam>
[SkipLocalsInit]
public sealed unsafe class SealedListMmf<T> : IReadOnlyListMmf<T>, IDisposable
    where T : unmanaged
{
    /// <summary>The block this thread's indexer decoded last, of any list of <typeparamref name="T"/>.</summary>
    [ThreadStatic]
    private static DecodedBlock? t_decoded;

    private readonly SealedFile _file;
    private readonly ListMmfOptions? _options;

    /// <summary>Held while the list moves to the file an unseal put at its path, or is disposed.</summary>
    private readonly object _moving = new();

    /// <summary>When the list looks at its path again while its file is marked and the path still holds it.</summary>
    private ReplacementCheck _check;

    /// <summary>The list at the path since an unseal of this file (appendable, or sealed again since); null before.</summary>
    private IReadOnlyListMmf<T>? _moved;

    /// <summary>Set under <see cref="_moving"/> by <see cref="Dispose"/>: no move starts after it.</summary>
    private bool _disposed;

    /// <summary>
    /// Opens the sealed file at <paramref name="path"/>. Of <paramref name="options"/>, <see cref="ListMmfOptions.Backend"/>
    /// and <see cref="ListMmfOptions.PopulateOnOpen"/> apply: a backtest that searches the file at once has it read
    /// in at the open, so that its first searches take no page faults (a sealed file is a fraction of the list's size).
    /// </summary>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    /// <exception cref="ListMmfFormatException">It is not a sealed file, or its header or directory is damaged.</exception>
    /// <exception cref="ListMmfDataTypeException">It holds items of another type or size, or structs of another layout
    /// than <typeparamref name="T"/>'s.</exception>
    public SealedListMmf(string path, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        Path = System.IO.Path.GetFullPath(path);
        _options = options;
        _file = SealedFile.Open(Path, options);
        DataType stored = _file.Header.DataType;
        if (!DataTypeInfo.CanHold<T>(stored) || _file.ItemSize != sizeof(T))
        {
            _file.Dispose();
            throw new ListMmfDataTypeException(Path, $"the file holds {DataTypeInfo.Of(stored).Describe()} of {_file.ItemSize} bytes, " +
                $"which a SealedListMmf<{typeof(T).Name}> of {sizeof(T)}-byte items does not read.");
        }

        try
        {
            ListMmfDescription? description = _file.Header.Description.Length == 0 ? null
                : ListMmfDescription.FromJson(_file.Header.Description, Path, "the description in its sealed header");
            if (description is not null && ListMmfDescription.ForList<T>() is { } expected)
            {
                description.CheckHolds<T>(expected, Path, "its sealed header records");
            }

            TimesAreUtc = StoredTimes.AreUtc(description, options, Path) && DataTypeInfo.Of(stored).IsTime;
            RecordedOrder = description?.Order;
        }
        catch
        {
            _file.Dispose();
            throw;
        }
    }

    /// <summary>The full path of the file.</summary>
    public string Path { get; }

    /// <summary>
    /// Whether the times of a time file are UTC: as its description records (a series created with
    /// <see cref="ListMmfOptions.TimesAreUtc"/>), else as the options given to the constructor say.
    /// </summary>
    public bool TimesAreUtc { get; }

    /// <summary>The items' data-type code.</summary>
    public DataType DataType => _file.Header.DataType;

    /// <summary>The order the sealed header's description records (a sorted list or series sealed), or null where it records none.</summary>
    internal TimeSeriesOrder? RecordedOrder { get; }

    /// <summary>How many items the list holds: the sealed file's, or, once the list moved after an unseal, the file's at its path.</summary>
    public long Count => Moved is { } moved ? moved.Count : _file.Count;

    /// <summary>
    /// The file's length in bytes: what the sealed form takes on disk; once the list moved after an unseal, the
    /// length of the file it moved to.
    /// </summary>
    public long LengthOnDisk => Moved switch
    {
        SealedListMmf<T> sealedAgain => sealedAgain.LengthOnDisk,
        ListMmf<T> appendable => appendable.Storage.Length,
        _ => _file.Length,
    };

    /// <summary>The appendable list an unseal moved this one to, whose mapping spans are taken from; null before.</summary>
    internal ListMmf<T>? Unsealed => Moved as ListMmf<T>;

    /// <summary>
    /// The list an unseal of this file moved it to, looked for when the file is marked (a read of the mapping); null
    /// while it reads its sealed file.
    /// </summary>
    private IReadOnlyListMmf<T>? Moved
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Volatile.Read(ref _disposed) ? null
            : Volatile.Read(ref _moved) ?? (_file.IsMarkedUnsealing ? Follow(evenIfPostponed: false) : null);
    }

    /// <summary>
    /// The item at <paramref name="index"/>: read in place where its block allows; else from its block decoded, which
    /// the calling thread keeps until it reads another such block, so that reading nearby items in turn (a gather of
    /// ascending rows) decodes each block once.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative or not below <see cref="Count"/>.</exception>
    public T this[long index]
    {
        get
        {
            if (Moved is { } moved)
            {
                return moved[index];
            }

            if ((ulong)index >= (ulong)_file.Count)
            {
                return ItemPastTheSeal(index);
            }

            long b = index >> SealedLayout.BlockShift;
            int within = (int)(index & (SealedLayout.BlockValues - 1));
            if (t_decoded is { } decoded && decoded.Block == b && ReferenceEquals(decoded.File, _file) && !_file.IsDisposed)
            {
                return decoded.Items[within];
            }

            SealedBlock block = _file.Block(b);
            if (block.IsRandomAccess)
            {
                T item;
                block.ItemAt(within, (byte*)&item, sizeof(T), _file.Kind);
                return item;
            }

            return Decode(block, b)[within];
        }
    }

    /// <inheritdoc cref="IReadOnlyListMmf{T}.Gather"/>
    public void Gather(ReadOnlySpan<long> indices, Span<T> destination, T missing = default)
    {
        ThrowHelper.CheckDestination(destination.Length, indices.Length);
        if (Moved is { } moved)
        {
            moved.Gather(indices, destination, missing);
            return;
        }

        long count = _file.Count;
        long current = -1;
        T[]? items = null;
        for (int i = 0; i < indices.Length; i++)
        {
            long index = indices[i];
            long b = index >> SealedLayout.BlockShift;
            if ((ulong)index < (ulong)count && b == current)
            {
                destination[i] = items![(int)(index & (SealedLayout.BlockValues - 1))];
            }
            else if ((ulong)index < (ulong)count && (i + 1 == indices.Length || indices[i + 1] >> SealedLayout.BlockShift != b)
                && _file.Block(b) is { IsRandomAccess: true } block)
            {
                // A lone index in its block, read in place: decoding the block would cost more than the one item.
                T item;
                block.ItemAt((int)(index & (SealedLayout.BlockValues - 1)), (byte*)&item, sizeof(T), _file.Kind);
                destination[i] = item;
            }
            else if ((ulong)index < (ulong)count)
            {
                // Decoded once, into the thread's block, for the indices in it: reading the decoded items costs less than
                // reading each in place.
                items = DecodedItems(b);
                current = b;
                destination[i] = items[(int)(index & (SealedLayout.BlockValues - 1))];
            }
            else
            {
                // -1, or past the seal: the indexer's read, which may move the list or decode into the thread's block.
                destination[i] = index == -1 ? missing : this[index];
                current = -1;
            }
        }
    }

    /// <summary>
    /// An index past the sealed items: the item at the path's file where an unseal has marked this one (the list moves
    /// even within the wait between looks: another column of its table may already have shown the row), else an error.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T ItemPastTheSeal(long index)
    {
        if (_file.IsMarkedUnsealing && Follow(evenIfPostponed: true) is { } moved)
        {
            return moved[index];
        }

        ThrowHelper.IndexOutOfRange(index, _file.Count);
        return default;
    }

    /// <summary>Decodes block <paramref name="b"/>, which <paramref name="block"/> is, into this thread's decoded block.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T[] Decode(SealedBlock block, long b)
    {
        DecodedBlock decoded = t_decoded ??= new DecodedBlock();

        // Forgotten first: a decode that throws leaves the items of no block behind.
        decoded.File = null;
        fixed (T* items = decoded.Items)
        {
            block.Decode((byte*)items, sizeof(T), _file.Kind);
        }

        decoded.Block = b;
        decoded.File = _file;
        return decoded.Items;
    }

    /// <summary>Copies the items from <paramref name="start"/> into <paramref name="destination"/>, which they fill.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the list.</exception>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void CopyTo(long start, Span<T> destination)
    {
        if (MovedFor(start, destination.Length) is { } moved)
        {
            moved.CopyTo(new IndexRange(start, start + destination.Length), destination);
            return;
        }

        ThrowHelper.SpanLength(start, destination.Length, _file.Count);
        long end = start + destination.Length;
        int done = 0;

        // Only items of up to 8 bytes have codecs other than plain: their block fits on the stack.
        Span<byte> scratch = sizeof(T) <= sizeof(long) ? stackalloc byte[SealedLayout.BlockValues * sizeof(long)] : default;
        fixed (T* to = destination)
        fixed (byte* partial = scratch)
        {
            for (long at = start; at < end;)
            {
                long b = at >> SealedLayout.BlockShift;
                long blockStart = b << SealedLayout.BlockShift;
                SealedBlock block = _file.Block(b);
                int from = (int)(at - blockStart);
                int take = (int)Math.Min(block.Count - from, end - at);
                if (from == 0 && take == block.Count)
                {
                    block.Decode((byte*)(to + done), sizeof(T), _file.Kind);
                }
                else if (block.Codec == SealedCodec.Plain)
                {
                    Buffer.MemoryCopy(block.Payload + ((long)from * sizeof(T)), to + done, (long)take * sizeof(T), (long)take * sizeof(T));
                }
                else
                {
                    block.Decode(partial, sizeof(T), _file.Kind);
                    new ReadOnlySpan<T>((T*)partial + from, take).CopyTo(destination[done..]);
                }

                done += take;
                at += take;
            }
        }
    }

    /// <summary>
    /// The list moved to, for a copy of <paramref name="length"/> items from <paramref name="start"/>: where it has
    /// moved, or where the copy reaches past the sealed items of a marked file (see <see cref="ItemPastTheSeal"/>).
    /// </summary>
    private IReadOnlyListMmf<T>? MovedFor(long start, long length)
    {
        if (Moved is { } moved)
        {
            return moved;
        }

        long count = _file.Count;
        bool past = start >= 0 && length >= 0 && start + length > count;
        return past && _file.IsMarkedUnsealing ? Follow(evenIfPostponed: true) : null;
    }

    /// <summary>Copies the items of <paramref name="range"/> into <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the list.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    public void CopyTo(IndexRange range, Span<T> destination)
    {
        int length = ThrowHelper.SpanLength(range.Start, range.Length, Count);
        ThrowHelper.CheckDestination(destination.Length, length);
        CopyTo(range.Start, destination[..length]);
    }

    /// <inheritdoc/>
    bool IReadOnlyListMmf<T>.IsSealed => Moved is not { IsSealed: false };

    /// <summary>
    /// The items of <paramref name="range"/>, decoded into <paramref name="buffer"/>: a sealed file has no span over
    /// them (the appendable file an unseal moved the list to has: its span is returned).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the list.</exception>
    /// <exception cref="ArgumentException"><paramref name="buffer"/> is shorter than the range.</exception>
    public ReadOnlySpan<T> Read(IndexRange range, Span<T> buffer)
    {
        if (MovedFor(range.Start, range.Length) is { } moved)
        {
            return moved.Read(range, buffer);
        }

        CopyTo(range, buffer);
        return buffer[..(int)range.Length];
    }

    /// <inheritdoc/>
    bool IReadOnlyListMmf<T>.TryGetMemory(IndexRange range, out ReadOnlyMemory<T> memory)
    {
        if (MovedFor(range.Start, range.Length) is { } moved)
        {
            return moved.TryGetMemory(range, out memory);
        }

        ThrowHelper.SpanLength(range.Start, range.Length, _file.Count);
        memory = default;
        return false;
    }

    /// <summary>
    /// The XXH3-64 hash (seed 0) of the items' bytes, decoded a range at a time: the same as the appendable list's
    /// <see cref="ListMmf{T}.ComputeXxHash3"/> for the same items.
    /// </summary>
    public ulong ComputeXxHash3() => Moved is { } moved ? moved.ComputeXxHash3() : ItemsXxHash3.Of(this);

    /// <summary>
    /// Enumerates the items, a block decoded at a time into a buffer of the enumeration's own (one allocation an
    /// enumeration, none an item).
    /// </summary>
    public Enumerator GetEnumerator() => new(this);

    IEnumerator<T> IEnumerable<T>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>Every item, in a new array.</summary>
    /// <exception cref="InvalidOperationException">The list holds more items than an array can.</exception>
    public T[] ToArray()
    {
        if (Count > Array.MaxLength)
        {
            throw new InvalidOperationException($"'{Path}' holds {Count:N0} items, more than an array can: use CopyTo in parts.");
        }

        T[] items = new T[Count];
        CopyTo(0, items);
        return items;
    }

    /// <summary>
    /// Reads every block, checking its checksum and decoding it; once the list moved after an unseal, verifies the file
    /// it moved to.
    /// </summary>
    /// <exception cref="ListMmfFormatException">A block is damaged; the message names it.</exception>
    public void Verify(IProgress<double>? progress = null)
    {
        if (Moved is { } moved)
        {
            moved.Verify(progress);
            return;
        }

        _file.Verify(progress);
    }

    /// <summary>
    /// The file an unseal put at the path, which the list moves to for good: unless the path still holds this file
    /// (the unseal has not renamed yet, or was killed before it did), in which case the list looks again after
    /// <see cref="ReplacementCheck"/>'s wait, so that a mark left behind costs no system call a read, unless
    /// <paramref name="evenIfPostponed"/>. A path that holds no file or a file of another type leaves the list on its
    /// sealed file, which holds every item it had.
    /// </summary>
    /// <returns>The list moved to, or null.</returns>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private IReadOnlyListMmf<T>? Follow(bool evenIfPostponed)
    {
        // Read outside the lock (a long, whole): between looks, a marked file costs its readers no lock.
        if (!_check.ShouldLook(evenIfPostponed))
        {
            return Volatile.Read(ref _moved);
        }

        lock (_moving)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_moved is not null || !_check.ShouldLook(evenIfPostponed))
            {
                return _moved;
            }

            IReadOnlyListMmf<T> next;
            try
            {
                next = EitherForm.OpenRead<T>(Path, _options);
            }
            catch (FileNotFoundException)
            {
                _check.Postpone();
                return null;
            }
            catch (ListMmfDataTypeException)
            {
                _check.Stop();
                return null;
            }

            if (next is SealedListMmf<T> { _file.IsMarkedUnsealing: true })
            {
                ((IDisposable)next).Dispose();
                _check.Postpone();
                return null;
            }

            Volatile.Write(ref _moved, next);
            return next;
        }
    }

    /// <summary>
    /// The first index not before the <paramref name="bound"/> of <paramref name="value"/>, for a list sorted
    /// ascending; <see cref="Count"/> where there is none. The directory's first items give the block (the search a
    /// page of a list gets: <see cref="IndexedSearch.Within"/>); the block's lines, header and payload, are all
    /// prefetched at once, so that their misses overlap, and its values are searched in place where its codec allows.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    internal long Bound<TKey>(TKey value, SearchBound bound)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    {
        if (Moved is { } moved)
        {
            long found = 0;
            BoundsIn(moved, new ReadOnlySpan<TKey>(in value), new Span<long>(ref found), bound, long.MaxValue);
            return found;
        }

        long before = IndexedSearch.Within((TKey*)_file.FirstItems, 0, _file.BlockCount, value, bound);
        return BoundFrom(before, value, bound);
    }

    /// <summary>
    /// The <see cref="Bound{TKey}(TKey, SearchBound)"/> of each of <paramref name="values"/>, into
    /// <paramref name="results"/>. Ascending values (the ASOF join of ascending times) are searched as a merge: each
    /// finds its block by galloping forward through the directory from the block of the one before, and once a second
    /// value lands in a block, the block is decoded (kept by the thread, as the indexer keeps it) and the values in it
    /// gallop forward through its items. Other batches search each value in turn.
    /// </summary>
    internal void Bounds<TKey>(ReadOnlySpan<TKey> values, Span<long> results, SearchBound bound, long countLimit = long.MaxValue)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    {
        if (Moved is { } moved)
        {
            BoundsIn(moved, values, results, bound, countLimit);
            return;
        }

        if (typeof(TKey) == typeof(T) && MergeSearch.IsAscending(values))
        {
            MergeBounds(values, results, bound);
            return;
        }

        for (int i = 0; i < values.Length; i++)
        {
            results[i] = Bound(values[i], bound);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void MergeBounds<TKey>(ReadOnlySpan<TKey> values, Span<long> results, SearchBound bound)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    {
        var first = new PointerSource<TKey>((TKey*)_file.FirstItems);
        long blocks = _file.BlockCount;
        long before = 0;

        // The block the value before was answered in, where in it, and its items once decoded.
        long current = -1;
        int within = 0;
        TKey[]? items = null;
        for (int i = 0; i < values.Length; i++)
        {
            TKey value = values[i];
            before = MergeSearch.Gallop(ref first, value, before, blocks, bound);
            long b = before - 1;
            if (b < 0 || b != current)
            {
                results[i] = BoundFrom(before, value, bound);
                current = b;
                within = b < 0 ? 0 : (int)(results[i] - (b << SealedLayout.BlockShift));
                items = null;
                continue;
            }

            int count = (int)Math.Min(SealedLayout.BlockValues, _file.Count - (b << SealedLayout.BlockShift));
            items ??= (TKey[])(object)DecodedItems(b);
            var decoded = new ArraySource<TKey>(items);
            within = (int)MergeSearch.Gallop(ref decoded, value, within, count, bound);
            if (within == count && before < blocks)
            {
                // As in BoundFrom: an answer past the block rests on the next block's first item, so that block is checked.
                _file.Block(before);
            }

            results[i] = (b << SealedLayout.BlockShift) + within;
        }
    }

    /// <summary>
    /// The bounds of <paramref name="values"/> in the list an unseal moved this one to, all against one count (the
    /// appendable file's, read once, and at most <paramref name="countLimit"/>), so that a batch never contradicts itself.
    /// </summary>
    private static void BoundsIn<TKey>(IReadOnlyListMmf<T> moved, ReadOnlySpan<TKey> values, Span<long> results, SearchBound bound, long countLimit)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    {
        if (moved is SealedListMmf<T> sealedAgain)
        {
            sealedAgain.Bounds(values, results, bound, countLimit);
            for (int i = 0; i < values.Length; i++)
            {
                results[i] = Math.Min(results[i], countLimit);
            }

            return;
        }

        var appendable = (ListMmf<T>)moved;
        var keys = new PointerSource<TKey>((TKey*)appendable.Snapshot(out long count));
        long limit = Math.Min(count, countLimit);
        for (int i = 0; i < values.Length; i++)
        {
            results[i] = SortedSearch.Bound(ref keys, values[i], 0, limit, bound);
        }

        GC.KeepAlive(appendable);
    }

    /// <summary>The items of block <paramref name="b"/>: this thread's decoded block if it is that one, else decoded into it.</summary>
    private T[] DecodedItems(long b) =>
        t_decoded is { } decoded && decoded.Block == b && ReferenceEquals(decoded.File, _file) && !_file.IsDisposed
            ? decoded.Items
            : Decode(_file.Block(b), b);

    /// <summary>The bound of <paramref name="value"/>, given <paramref name="before"/>: how many blocks' first items are before it.</summary>
    private long BoundFrom<TKey>(long before, TKey value, SearchBound bound)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    {
        if (before == 0)
        {
            // The answer rests on block 0's first item as the directory gives it: the block is checked against it.
            if (_file.BlockCount > 0)
            {
                _file.Block(0);
            }

            return 0;
        }

        long b = before - 1;
        _file.Prefetch(b);
        SealedBlock block = _file.Block(b);
        int within = BoundInBlock(block, value, bound);
        if (within == block.Count && before < _file.BlockCount)
        {
            // So does an answer past the block, on the next block's: that block is checked against it too.
            _file.Block(before);
        }

        return (b << SealedLayout.BlockShift) + within;
    }

    /// <summary>The bound within one block.</summary>
    private int BoundInBlock<TKey>(SealedBlock block, TKey value, SearchBound bound)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
    {
        if (block.Codec is SealedCodec.FrameOfReference or SealedCodec.SteppedFrameOfReference or SealedCodec.EliasFano)
        {
            bool signed = _file.Kind == SealedValueKind.Signed;
            long target = SealedValues.Widen(new ReadOnlySpan<byte>(&value, sizeof(TKey)), signed);
            return OffsetsBefore(block, target, signed, bound);
        }

        if (block.Codec == SealedCodec.Plain)
        {
            return (int)IndexedSearch.Within((TKey*)block.Payload, 0, block.Count, value, bound);
        }

        TKey* decoded = stackalloc TKey[SealedLayout.BlockValues];
        block.Decode((byte*)decoded, sizeof(TKey), _file.Kind);
        return (int)IndexedSearch.Within(decoded, 0, block.Count, value, bound);
    }

    /// <summary>
    /// How many values of a frame-of-reference block (stepped or not) or an Elias-Fano block come before the bound of
    /// <paramref name="target"/>, read in place. Every packed offset is below 2^56, so once the target is turned into an
    /// offset (in steps, clamped to the block's range) the sign of one subtraction orders each probe: the search takes
    /// no branch the data decides. An Elias-Fano block counts its values below that many steps
    /// (<see cref="SealedBlock.EliasFanoBefore"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int OffsetsBefore(SealedBlock block, long target, bool signed, SearchBound bound)
    {
        // Where the target lies against the block's base, in the type's order; the block's values all lie at or above it.
        ulong above = (ulong)(target - block.Base);
        bool below = signed ? target < block.Base : (ulong)target < (ulong)block.Base;
        if (below)
        {
            return 0;
        }

        // Probes below this offset come before the bound: the target's own offset, one more for an upper bound. Between
        // two steps, the offset above the target for a lower bound, the one below it and one more for an upper bound.
        ulong steps = above;
        bool between = false;
        if (block.Codec is SealedCodec.SteppedFrameOfReference or SealedCodec.EliasFano)
        {
            ulong step = (ulong)block.IntegerStep;
            steps = above / step;
            between = steps * step != above;
        }

        bool past = bound == SearchBound.Upper || between;
        if (block.Codec == SealedCodec.EliasFano)
        {
            // Its steps may use all 64 bits: a limit past the largest is the whole block, found before it could wrap.
            ulong largest = block.EliasFanoLargestSteps;
            return steps > largest || (steps == largest && past) ? block.Count : block.EliasFanoBefore(steps + (past ? 1UL : 0));
        }

        long limit = (long)Math.Min(steps, 1UL << BitPacking.MaximumWidth) + (past ? 1 : 0);
        byte* packed = block.Payload;
        int width = block.Width;
        int at = 0;
        for (int left = block.Count; left > 1;)
        {
            int half = left >>> 1;
            long probe = (long)BitPacking.Get(packed, width, at + half);
            at += half & (int)((probe - limit) >> 63);
            left -= half;
        }

        return at + (int)(((long)BitPacking.Get(packed, width, at) - limit) >>> 63);
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        // Under the lock a move takes, so that no list is opened after it and left open.
        lock (_moving)
        {
            if (_disposed)
            {
                return;
            }

            Volatile.Write(ref _disposed, true);
            try
            {
                ((IDisposable?)_moved)?.Dispose();
            }
            finally
            {
                // This thread's decoded block would otherwise keep the closed file's object alive until it decodes another.
                if (t_decoded is { } decoded && ReferenceEquals(decoded.File, _file))
                {
                    decoded.File = null;
                }

                _file.Dispose();
            }
        }
    }

    /// <summary>Enumerates a sealed list's items in order, decoding a block at a time.</summary>
    public struct Enumerator : IEnumerator<T>
    {
        private readonly SealedListMmf<T> _list;
        private T[]? _block;
        private long _blockStart;
        private int _within;
        private int _blockLength;
        private T _current;

        internal Enumerator(SealedListMmf<T> list)
        {
            _list = list;
            _within = -1;
        }

        /// <inheritdoc/>
        public readonly T Current => _current;

        readonly object IEnumerator.Current => Current;

        /// <summary>Advances; past the end, <see cref="Current"/> is the default value and nothing is read.</summary>
        /// <exception cref="ObjectDisposedException">The list was disposed before the next block was read.</exception>
        public bool MoveNext()
        {
            if (++_within >= _blockLength && !NextBlock())
            {
                _current = default;
                return false;
            }

            _current = _block![_within];
            return true;
        }

        /// <inheritdoc/>
        public void Reset()
        {
            _blockStart = 0;
            _blockLength = 0;
            _within = -1;
            _current = default;
        }

        /// <inheritdoc/>
        public readonly void Dispose()
        {
        }

        /// <summary>Decodes the block after the one read (the first, at the start); false past the last.</summary>
        private bool NextBlock()
        {
            long start = _blockStart + _blockLength;
            if (start >= _list.Count)
            {
                _within = _blockLength;
                return false;
            }

            _block ??= new T[SealedLayout.BlockValues];
            int length = (int)Math.Min(SealedLayout.BlockValues, _list.Count - start);
            _list.CopyTo(start, _block.AsSpan(0, length));
            _blockStart = start;
            _blockLength = length;
            _within = 0;
            return true;
        }
    }

    /// <summary>
    /// A block decoded by a thread's indexer: the file it belongs to (by reference, so that no other file's block of
    /// the same number is taken for it, and a disposed file's is never asked for again) and its items.
    /// </summary>
    private sealed class DecodedBlock
    {
        public SealedFile? File;
        public long Block;
        public readonly T[] Items = new T[SealedLayout.BlockValues];
    }

    /// <inheritdoc/>
    public override string ToString() => $"SealedListMmf<{typeof(T).Name}> {Path} ({Count:N0} items, {LengthOnDisk:N0} bytes)";
}
