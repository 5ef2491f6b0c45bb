using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using ListMmf.Storage;

namespace ListMmf.Search;

/// <summary>
/// The searches of a sorted list whose pages are not in memory, until its page index is built: through the fence
/// file (<see cref="FenceFile{T}"/>) where there is one, then one page of the list; else a binary search whose
/// probes each read a page. Pages are read beside the mapping (<see cref="ColdReader"/>), a page at a time, and the
/// last ones kept. Every answer is checked against the items on both sides of it, so a fence file that is stale or
/// lies costs a plain search, never a wrong answer. Thread-safe (one search at a time); once disposed,
/// <see cref="TryBound"/> declines and the caller searches the mapping.
/// </summary>
/// <typeparam name="T">The key.</typeparam>
/// <typeparam name="TItem">The item stored in the file.</typeparam>
/// <typeparam name="TKeyOf">Finds the key of an item.</typeparam>
internal sealed unsafe class ColdSearch<T, TItem, TKeyOf> : IDisposable
    where T : unmanaged, IComparisonOperators<T, T, bool>
    where TItem : unmanaged
    where TKeyOf : struct, IKeyOf<TItem, T>
{
    private const int PageBytes = ColdReader.PageBytes;

    /// <summary>Pages kept: the first probes of every binary search read the same ones.</summary>
    private const int CachedPages = 64;

    private readonly object _gate = new();
    private readonly ColdReader _reader;
    private readonly string _listPath;
    private readonly int _itemsOffset;
    private readonly byte[] _memory;
    private readonly byte* _pages;
    private readonly long[] _pageOf = new long[CachedPages];

    /// <summary>The count a page was read under: its items from there on may have been written since, and are read again.</summary>
    private readonly long[] _readUnder = new long[CachedPages];
    private readonly long[] _lastUse = new long[CachedPages];
    private long _clock;
    private long _highestCount;
    private FenceFile<T>? _fences;
    private bool _fencesOpened;
    private bool _fencesConfirmed;
    private bool _disposed;

    /// <summary>A cold search of the list at <paramref name="listPath"/>, whose file <paramref name="storage"/> maps.</summary>
    public ColdSearch(ListMmfStorage storage, string listPath)
    {
        _reader = storage.OpenColdReader();
        _listPath = listPath;
        _itemsOffset = storage.ItemsOffset;
        _memory = GC.AllocateUninitializedArray<byte>((CachedPages + 1) * PageBytes, pinned: true);
        byte* start = (byte*)Unsafe.AsPointer(ref _memory[0]);
        _pages = start + ((PageBytes - ((nuint)start % PageBytes)) % PageBytes);
        _pageOf.AsSpan().Fill(-1);
    }

    /// <summary>How many pages of the list it has read (for tests and benchmarks).</summary>
    public long PagesRead { get; private set; }

    /// <summary>The fence file it searches through, if it found a valid one; opened on the first search.</summary>
    public FenceFile<T>? Fences
    {
        get
        {
            if (!_fencesOpened)
            {
                _fencesOpened = true;
                _fences = FenceFile<T>.Fits(sizeof(TItem)) ? FenceFile<T>.Open(_listPath, sizeof(TItem), _itemsOffset) : null;
            }

            return _fences;
        }
    }

    /// <summary>
    /// The <paramref name="bound"/> of <paramref name="value"/> among the first <paramref name="count"/> items, or
    /// false once disposed.
    /// </summary>
    /// <exception cref="ListMmfException">The list's file could not be read.</exception>
    public bool TryBound(T value, long count, SearchBound bound, out long found)
    {
        lock (_gate)
        {
            found = 0;
            if (_disposed)
            {
                return false;
            }

            if (count < _highestCount)
            {
                // A truncation: the pages read may hold items written since over the ones they had.
                _pageOf.AsSpan().Fill(-1);
            }

            _highestCount = count;
            var keys = new Keys(this);
            if (Fences is { } fences && TryFences(fences, ref keys, value, count, bound, out found))
            {
                return true;
            }

            found = SortedSearch.Bound(ref keys, value, 0, count, bound);
            return true;
        }
    }

    public void Dispose()
    {
        lock (_gate)
        {
            if (!_disposed)
            {
                _disposed = true;
                _fences?.Dispose();
                _reader.Dispose();
            }
        }
    }

    /// <summary>
    /// The bound found through the fences, if the items on both sides of it confirm it; a fence file that led
    /// elsewhere, or could not be read, is not used again.
    /// </summary>
    private bool TryFences(FenceFile<T> fences, ref Keys keys, T value, long count, SearchBound bound, out long found)
    {
        found = 0;
        int offset = _itemsOffset % PageBytes;
        try
        {
            long usable = Math.Min(fences.FenceCount, FileBlocks.BlocksFor(count, PageBytes, offset, sizeof(TItem)));
            long rank = fences.Rank(value, bound, usable);
            long first = rank == 0 ? 0 : FileBlocks.FirstItemOf(rank - 1, PageBytes, offset, sizeof(TItem));
            long end = rank == 0 ? 0 : rank < usable ? FileBlocks.FirstItemOf(rank, PageBytes, offset, sizeof(TItem)) : count;
            found = SortedSearch.Bound(ref keys, value, first, Math.Min(end, count), bound);
            bool afterItsLeft = found == 0 || SearchBounds.Before(keys[found - 1], value, bound);
            if (afterItsLeft && (found == count || !SearchBounds.Before(keys[found], value, bound)))
            {
                if (!_fencesConfirmed)
                {
                    // The fences led right once: the rest of them are worth reading in, behind this answer.
                    _fencesConfirmed = true;
                    fences.StartReadingFences();
                }

                return true;
            }
        }
        catch (ListMmfException)
        {
            // The fence file was cut short after its check, or the list's pages it led to could not be read: the
            // plain search that follows reads the list again, and reports what is wrong with it.
        }

        _fences = null;
        fences.Dispose();
        return false;
    }

    /// <summary>The key of item <paramref name="index"/>, read from its page or pages.</summary>
    private T KeyAt(long index)
    {
        TItem item;
        byte* destination = (byte*)&item;
        long offset = _itemsOffset + (index * sizeof(TItem));
        int copied = 0;
        while (copied < sizeof(TItem))
        {
            long at = offset + copied;
            int within = (int)(at % PageBytes);
            int length = Math.Min(PageBytes - within, sizeof(TItem) - copied);
            Buffer.MemoryCopy(Page(at / PageBytes, index, within + length) + within, destination + copied, length, length);
            copied += length;
        }

        return TKeyOf.Of(in item);
    }

    /// <summary>Page <paramref name="page"/> of the file, read again unless it was read under a count past item <paramref name="index"/>.</summary>
    private byte* Page(long page, long index, int needed)
    {
        int oldest = 0;
        for (int slot = 0; slot < CachedPages; slot++)
        {
            if (_pageOf[slot] == page && index < _readUnder[slot])
            {
                _lastUse[slot] = ++_clock;
                return _pages + ((long)slot * PageBytes);
            }

            if (_lastUse[slot] < _lastUse[oldest])
            {
                oldest = slot;
            }
        }

        byte* buffer = _pages + ((long)oldest * PageBytes);
        _pageOf[oldest] = -1;
        int read = _reader.Read(page * PageBytes, buffer, PageBytes);
        if (read < needed)
        {
            throw new ListMmfException(_listPath, $"the file ends at byte {(page * PageBytes) + read:N0}, inside item {index:N0}, " +
                $"below its count of {_highestCount:N0}.");
        }

        PagesRead++;
        _pageOf[oldest] = page;
        _readUnder[oldest] = _highestCount;
        _lastUse[oldest] = ++_clock;
        return buffer;
    }

    /// <summary>The keys of the list read through pages, for <see cref="SortedSearch"/>.</summary>
    private readonly struct Keys(ColdSearch<T, TItem, TKeyOf> search) : IItemSource<T>
    {
        public T this[long index] => search.KeyAt(index);
    }
}
