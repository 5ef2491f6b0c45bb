using System;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using ListMmf.Storage;

namespace ListMmf.Search;

/// <summary>
/// What every sorted list over a mapping does, written once: the order rule (<see cref="SortedOrder"/>) checked on
/// appends and by <see cref="Verify"/>, the page index (built on the first search of a large list, extended as the
/// list grows, dropped when the items under it change), the fence file beside the list that lets a cold start find
/// its first answers in a few small reads (<see cref="FenceFile{T}"/>, written whenever this process has read every
/// key), and the searches (bounds, batches, ranges) through the index, through the fences while the file is cold
/// (<see cref="ColdSearch{T, TItem, TKeyOf}"/>) or by plain binary search. <see cref="SortedListMmf{T}"/> (items that are their keys) and
/// <see cref="KeyedListMmf{TRow, TKey, TSelector}"/> (rows with a key field) are thin views over it; a new search
/// strategy is a new <see cref="IndexedSearch"/>-like file that this class chooses.
/// </summary>
/// <typeparam name="T">The key.</typeparam>
/// <typeparam name="TItem">The item stored in the file.</typeparam>
/// <typeparam name="TKeyOf">Finds the key of an item.</typeparam>
internal sealed unsafe class SortedCore<T, TItem, TKeyOf> : ISortedKeys<T>, IDisposable
    where T : unmanaged, IComparisonOperators<T, T, bool>
    where TItem : unmanaged
    where TKeyOf : struct, IKeyOf<TItem, T>
{
    /// <summary>Below this many file pages (32 MiB) the plain binary search is used: its probes stay in the CPU caches.</summary>
    public const long DefaultIndexMinimumPages = 8_192;

    /// <summary>The index is extended once the items past it fill more than this many pages, or an eighth of it.</summary>
    private const long ExtensionSlackPages = 64;

    /// <summary>A ranged search uses the index (and clamps its answer) only over ranges of at least this many items.</summary>
    private const long IndexedRangeItems = 4096;

    private readonly ListMmf<TItem> _list;
    private readonly bool _indexed;
    private readonly string _itemNoun;
    private PageIndex<T, TItem>? _index;

    /// <summary>The list's <see cref="ListMmf{T}.Generation"/> when the index was built.</summary>
    private int _indexGeneration;

    /// <summary>
    /// Searches of a cold file before the page index is started: few enough that reading a page or two for each
    /// costs less than reading the whole file (a lookup through the fences reads two pages).
    /// </summary>
    public const int DefaultColdSearchesBeforeIndex = 64;

    /// <summary>The searches of a cold file until its page index is built.</summary>
    private ColdSearch<T, TItem, TKeyOf>? _cold;

    /// <summary>The list's <see cref="ListMmf{T}.Generation"/> when <see cref="_cold"/> was made.</summary>
    private int _coldGeneration;

    /// <summary>The searches <see cref="_cold"/> has answered, towards <see cref="ColdSearchesBeforeIndex"/>.</summary>
    private long _coldSearches;

    /// <summary>The page index of a cold file, built on the thread pool: reading every page takes seconds from a disk.</summary>
    private Task? _building;

    /// <summary>The fence file being checked or written on the thread pool.</summary>
    private Task? _fencing;

    /// <summary>The count this process last found the fence file current for, or wrote it for.</summary>
    private long _fencedCount;

    /// <summary>The writer's count when it opened the list: the keys before it are not the writer's to read for fences.</summary>
    private readonly long _countAtOpen;

    /// <summary>The count the writer last found its fence file current for, or wrote it for, or gave up on it at.</summary>
    private long _writerLookedAt;

    /// <summary>Held while the fence file is checked or written: <see cref="Dispose"/> waits for it, so that no file is written after.</summary>
    private readonly object _fenceGate = new();
    private bool _disposed;

    /// <summary>The core of a sorted list over <paramref name="list"/>, opened in <paramref name="asked"/> order.</summary>
    /// <param name="list">The items.</param>
    /// <param name="asked">The order the list was opened with.</param>
    /// <param name="options">Whether searches may build a page index (<see cref="ListMmfOptions.SearchIndex"/>).</param>
    /// <param name="itemNoun">What messages call an item: "item", "row".</param>
    public SortedCore(ListMmf<TItem> list, TimeSeriesOrder asked, ListMmfOptions? options, string itemNoun)
    {
        _list = list;
        _itemNoun = itemNoun;
        _countAtOpen = list.IsWritable ? list.Count : 0;
        Order = SortedOrder.Of(list, asked);
        _indexed = (options ?? ListMmfOptions.Default).SearchIndex;
    }

    /// <summary>The order rule: the one asked for, the one the file records, and the one appends keep.</summary>
    public SortedOrder Order { get; }

    /// <summary>The smallest list, in file pages, that gets a page index; tests lower it to reach the index with small lists.</summary>
    public long IndexMinimumPages { get; set; } = DefaultIndexMinimumPages;

    /// <summary>The page index, if one has been built (for tests and benchmarks).</summary>
    public PageIndex<T, TItem>? Index => _index;

    /// <summary>Tests set it: searches start cold, as they do where the page cache holds little of the file.</summary>
    public bool AssumeCold { get; set; }

    /// <summary>How many cold searches start the page index (<see cref="DefaultColdSearchesBeforeIndex"/>); tests raise it to stay cold.</summary>
    public long ColdSearchesBeforeIndex { get; set; } = DefaultColdSearchesBeforeIndex;

    /// <summary>The search of the cold file while its index is built, if it is (for tests and benchmarks).</summary>
    public ColdSearch<T, TItem, TKeyOf>? Cold => _cold;

    /// <summary>What runs on the thread pool (the index of a cold file, the fence file), done (for tests and benchmarks).</summary>
    public Task WhenIdle() => Task.WhenAll(_building ?? Task.CompletedTask, _fencing ?? Task.CompletedTask);

    /// <summary>The items published.</summary>
    public long Count => _list.Count;

    /// <summary>How messages show a key (the time series show their keys as times); by default its ToString.</summary>
    public Func<T, string>? DescribeKey { get; set; }

    /// <summary>The key of the item at <paramref name="index"/>.</summary>
    public T KeyAt(long index)
    {
        TItem item = _list[index];
        return TKeyOf.Of(in item);
    }

    /// <summary>The bound of <paramref name="value"/> among every item published, against one count.</summary>
    public long Bound(T value, SearchBound bound)
    {
        TItem* items = _list.Snapshot(out long count);
        var keys = new KeySource<TItem, T, TKeyOf>(items);
        PageIndex<T, TItem>? index = IndexFor(items, count, searches: 1);
        long result = index is not null
            ? IndexedSearch.Bound(index, items, ref keys, count, value, bound)
            : _cold is { } cold && cold.TryBound(value, count, bound, out long found) ? found
            : SortedSearch.Bound(ref keys, value, 0, count, bound);
        GC.KeepAlive(_list);
        return result;
    }

    /// <summary>
    /// The bound within <c>[first, last)</c>. Over a wide range, the bound over the whole list clamped to the range
    /// (the list is sorted, so that is the same answer), which the index makes fast.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long Bound(T value, long first, long last, SearchBound bound)
    {
        TItem* items = _list.Snapshot(out long count);
        SortedSearch.CheckRange(first, last, count);
        var keys = new KeySource<TItem, T, TKeyOf>(items);
        PageIndex<T, TItem>? index = last - first >= IndexedRangeItems ? IndexFor(items, count, searches: 1) : null;
        long result = index is not null
            ? Math.Clamp(IndexedSearch.Bound(index, items, ref keys, count, value, bound), first, last)
            : last - first >= IndexedRangeItems && _cold is { } cold && cold.TryBound(value, count, bound, out long found)
                ? Math.Clamp(found, first, last)
            : SortedSearch.Bound(ref keys, value, first, last, bound);
        GC.KeepAlive(_list);
        return result;
    }

    /// <summary>
    /// The bound within <c>[first, last)</c> of a value expected a few items after <paramref name="first"/>: galloping
    /// from it (1, 2, 4, ... items ahead), then a binary search of the last step, so that a short way costs a few probes.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public long BoundNear(T value, long first, long last, SearchBound bound)
    {
        TItem* items = _list.Snapshot(out long count);
        SortedSearch.CheckRange(first, last, count);
        var keys = new KeySource<TItem, T, TKeyOf>(items);
        long result = MergeSearch.Gallop(ref keys, value, first, last, bound);
        GC.KeepAlive(_list);
        return result;
    }

    /// <summary>
    /// The bound of every value in <paramref name="values"/>, into <paramref name="results"/>, all against one count
    /// (at most <paramref name="countLimit"/>), so that a writer appending meanwhile cannot make them disagree.
    /// Ascending values at least one per 64 items are walked as a merge (<see cref="MergeSearch"/>); others are
    /// searched through the index, cold, or one binary search each.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public void Bounds(ReadOnlySpan<T> values, Span<long> results, SearchBound bound, long countLimit = long.MaxValue)
    {
        ThrowHelper.CheckResults(results.Length, values.Length, "values");

        TItem* items = _list.Snapshot(out long count);
        count = Math.Min(count, countLimit);
        var keys = new KeySource<TItem, T, TKeyOf>(items);
        PageIndex<T, TItem>? index = null;
        if (MergeSearch.Suits(values, count))
        {
            MergeSearch.Bounds(ref keys, values, results, count, bound);
        }
        else if ((index = IndexFor(items, count, values.Length)) is not null)
        {
            IndexedSearch.Bounds(index, items, ref keys, count, values, results, bound);
        }
        else
        {
            ColdSearch<T, TItem, TKeyOf>? cold = _cold;
            for (int i = 0; i < values.Length; i++)
            {
                if (cold is null || !cold.TryBound(values[i], count, bound, out results[i]))
                {
                    cold = null;
                    results[i] = SortedSearch.Bound(ref keys, values[i], 0, count, bound);
                }
            }
        }

        GC.KeepAlive(_list);
    }

    /// <summary>
    /// Checks the file as <see cref="ListMmf{T}.Verify()"/> does, then that every stored key keeps the order the
    /// file records (else the one asked for); <paramref name="progress"/> gets the file's checks as its first half.
    /// </summary>
    /// <exception cref="ListMmfOrderException">The first item whose key breaks the order; the file is corrupt.</exception>
    public void Verify(IProgress<double>? progress)
    {
        _list.Verify(progress is null ? null : new ScaledProgress(progress, 0, 0.5));
        var keys = new KeySource<TItem, T, TKeyOf>(_list.Snapshot(out long count));
        for (long i = 1; i < count; i++)
        {
            if (progress is not null && (i & ((1 << 22) - 1)) == 0)
            {
                progress.Report(0.5 + (0.5 * i / count));
            }

            if (!Order.Verified.Allows(keys[i - 1], keys[i]))
            {
                throw Order.Corrupt(_list.Path, _itemNoun, i, Describe(keys[i]), Describe(keys[i - 1]));
            }
        }

        GC.KeepAlive(_list);
        progress?.Report(1);
    }

    /// <summary>
    /// Checks that an item of key <paramref name="key"/> may be appended after the first <paramref name="count"/>
    /// items, the last of which has key <paramref name="last"/> (unused when there are none).
    /// </summary>
    /// <exception cref="ListMmfOrderException">It would break the order.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void CheckNext(T key, long count, T last)
    {
        if (count > 0)
        {
            if (!Follows(last, key))
            {
                ThrowDoesNotFollow(last, key, count);
            }
        }
        else if (Order.Append != TimeSeriesOrder.None && IsUnordered(key))
        {
            ThrowUnordered(key, count);
        }
    }

    /// <summary>
    /// Checks that <paramref name="items"/>, appended after the first <paramref name="count"/> items, keep the order;
    /// the key before them is <paramref name="previous"/> when given (an item staged past the count), else that of
    /// the list's item at <paramref name="count"/> - 1.
    /// </summary>
    /// <exception cref="ListMmfOrderException">The first item that would break it.</exception>
    public void CheckOrder(ReadOnlySpan<TItem> items, long count, T? previous = null)
    {
        if (items.IsEmpty)
        {
            return;
        }

        T before = TKeyOf.Of(in items[0]);
        CheckNext(before, count, count > 0 ? previous ?? KeyAt(count - 1) : default);
        for (int i = 1; i < items.Length; i++)
        {
            T key = TKeyOf.Of(in items[i]);
            if (!Follows(before, key))
            {
                ThrowDoesNotFollow(before, key, count + i);
            }

            before = key;
        }
    }

    /// <summary>
    /// The writer's part in a cold start, at each flush (once its fence file lags by more than the index's slack) and
    /// at its close (<paramref name="closing"/>: whenever it lags): where the list is large enough to be searched
    /// through a page index, writes the fence file, so that a process that opens the file as its writer left it finds
    /// an item in three small reads instead of searching the list a page at a time. It reads the keys this writer
    /// appended (pages it wrote, in memory), and of the keys before them only two, the first and the last fenced, to
    /// check that the fences it keeps are this list's (<see cref="FenceFile{T}.AgreesAtEnds"/>). Where fences do not
    /// cover every key before the writer's (a writer before it was killed, or wrote none), it writes nothing: reading
    /// those keys could mean reading the file from the disk at a close; the first reader's page index writes them.
    /// </summary>
    public void KeepFencesForColdReaders(bool closing = false)
    {
        if (!_indexed || !FenceFile<T>.Fits(sizeof(TItem)))
        {
            return;
        }

        TItem* items = _list.Snapshot(out long count);
        bool lagging = closing ? _writerLookedAt != count : FencesBehind(_writerLookedAt, count);
        if (!lagging || count <= _countAtOpen || !PageIndex<T, TItem>.IsWorthwhile(count, IndexMinimumPages))
        {
            return;
        }

        var keys = new KeySource<TItem, T, TKeyOf>(items);
        ListMmfStorage storage = _list.Storage;
        lock (_fenceGate)
        {
            if (_disposed)
            {
                return;
            }

            try
            {
                byte[]? written = null;
                using (FenceFile<T>? current = FenceFile<T>.Open(_list.Path, sizeof(TItem), storage.ItemsOffset))
                {
                    long covered = current?.IndexedCount ?? 0;
                    bool coversTheOthers = covered >= _countAtOpen && covered <= count;
                    FenceFile<T>? kept = coversTheOthers && current is not null && AgreesAtEnds(current, ref keys, count) ? current : null;
                    if (kept is null && _countAtOpen > 0)
                    {
                        // Fences of another list, or none over keys this writer did not write.
                        _writerLookedAt = count;
                        return;
                    }

                    if (kept is null || (kept.IndexedCount != count && (closing || FencesBehind(kept.IndexedCount, count))))
                    {
                        written = FenceFile<T>.Build(ref keys, count, sizeof(TItem), storage.ItemsOffset, kept);
                    }
                    else
                    {
                        _writerLookedAt = kept.IndexedCount;
                    }
                }

                // The old file is closed before the new one is renamed over it (Windows renames nothing over a file its
                // own process holds); a reader of another process that holds it makes the rename fail there: not now.
                if (written is not null)
                {
                    // At a flush the rows are durable, so their fences are made so too; a close makes no rows durable
                    // (ListMmf<T>.Dispose does not flush), and fences made durable then could outlive the rows.
                    FenceFile<T>.Publish(_list.Path, written, durable: !closing);
                    _fencedCount = count;
                    _writerLookedAt = count;
                }
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ListMmfException)
            {
                // As a reader's write: cold starts search without fences, and whoever can write the folder writes them.
                _writerLookedAt = count;
            }
        }

        GC.KeepAlive(_list);
    }

    /// <summary>
    /// Whether <paramref name="fences"/> agree with the keys at their ends; a file cut short or unreadable does not, so
    /// that a writer that can read every key writes it again.
    /// </summary>
    private static bool AgreesAtEnds(FenceFile<T> fences, ref KeySource<TItem, T, TKeyOf> keys, long count)
    {
        try
        {
            return fences.AgreesAtEnds(ref keys, count);
        }
        catch (Exception exception) when (exception is IOException or ListMmfException)
        {
            return false;
        }
    }

    /// <summary>
    /// Ends the cold searches, and waits for a fence file being written: none is written after it returns (a folder
    /// can be removed). An index still being built holds the mapping until it is done, and is dropped. A writer first
    /// brings the fence file up to date (<see cref="KeepFencesForColdReaders"/>).
    /// </summary>
    public void Dispose()
    {
        if (_list.IsWritable && !_list.IsDisposed)
        {
            try
            {
                KeepFencesForColdReaders(closing: true);
            }
            catch (Exception exception) when (exception is ListMmfException or ObjectDisposedException)
            {
                // A list that can no longer go on (its file was lost in a replacement) gets no fences; it still closes.
            }
        }

        lock (_fenceGate)
        {
            _disposed = true;
        }

        EndCold(_cold);
    }

    /// <summary>Drops the page index: the items under it changed (a truncation).</summary>
    public void DropIndex() => _index = null;

    /// <summary>
    /// The page index for <paramref name="searches"/> searches of the first <paramref name="count"/> items: built on
    /// the first search of a large enough list, extended when the list has grown by more than an eighth (the items
    /// past the index are searched as part of its last block until then), dropped when the count went down (a
    /// truncation) or the list moved to a new file. Where most of the list's pages are not in memory (a cold start),
    /// null, and searches go through <see cref="_cold"/>, a page or two each, until <see cref="ColdSearchesBeforeIndex"/>
    /// of them start the index on the thread pool; a batch of that many builds it at once.
    /// </summary>
    private PageIndex<T, TItem>? IndexFor(TItem* items, long count, long searches)
    {
        if (_building is { IsCompleted: true })
        {
            // Its index, if it made one, was published before it completed, and is read below; a failure is met
            // again on this thread.
            _building = null;
        }

        if (_cold is { } stale && _coldGeneration != _list.Generation)
        {
            // The list moved to a new file (a TruncateBeginning): the cold search reads the old one.
            EndCold(stale);
        }

        PageIndex<T, TItem>? index = Volatile.Read(ref _index);
        if (index is not null && (_indexGeneration != _list.Generation || count < index.IndexedCount))
        {
            // A TruncateBeginning (a new file) or a Truncate: the index describes other items.
            index = _index = null;
        }

        var keys = new KeySource<TItem, T, TKeyOf>(items);
        if (index is not null)
        {
            long slackBytes = Math.Max(
                index.FenceCount / 8 * PageIndex<T, TItem>.BlockBytes,
                ExtensionSlackPages * PageIndex<T, TItem>.PageBytes);
            if ((count - index.IndexedCount) * sizeof(TItem) > slackBytes)
            {
                index = _index = index.Extend(ref keys, count);
                KeepFences(items, count);
            }

            return index;
        }

        if (!_indexed || !PageIndex<T, TItem>.IsWorthwhile(count, IndexMinimumPages))
        {
            return null;
        }

        if (_building is not null)
        {
            return null;
        }

        ListMmfStorage storage = _list.Storage;
        bool cold = _cold is not null;
        if (!cold && searches < ColdSearchesBeforeIndex && (AssumeCold || !storage.ItemsMostlyResident(count)))
        {
            _cold?.Dispose();
            _cold = new ColdSearch<T, TItem, TKeyOf>(storage, _list.Path);
            _coldGeneration = _list.Generation;
            _coldSearches = 0;
            cold = true;
        }

        if (cold && searches < ColdSearchesBeforeIndex)
        {
            _coldSearches += searches;
            if (_coldSearches >= ColdSearchesBeforeIndex)
            {
                BuildInBackground(storage, items, count);
            }

            return null;
        }

        _indexGeneration = _list.Generation;
        index = _index = PageIndex<T, TItem>.Build(ref keys, count, storage.ItemsOffset);
        EndCold(_cold);
        KeepFences(items, count);
        return index;
    }

    /// <summary>
    /// Builds the page index of a cold file on the thread pool, its mapping retained meanwhile, while searches go
    /// through a <see cref="ColdSearch{T, TItem, TKeyOf}"/>; then brings the fence file up to date, since every key
    /// has just been read.
    /// </summary>
    private void BuildInBackground(ListMmfStorage storage, TItem* items, long count)
    {
        int generation = _list.Generation;
        ColdSearch<T, TItem, TKeyOf>? cold = _cold;
        storage.RetainMapping();
        nint start = (nint)items;
        _building = Task.Run(() =>
        {
            try
            {
                var keys = new KeySource<TItem, T, TKeyOf>((TItem*)start);
                PageIndex<T, TItem> built = PageIndex<T, TItem>.Build(ref keys, count, storage.ItemsOffset);
                _indexGeneration = generation;
                Volatile.Write(ref _index, built);
                WriteFences(storage, (TItem*)start, count);
            }
            finally
            {
                storage.ReleaseMapping();
                EndCold(cold);
            }
        });
    }

    /// <summary>The cold searches end once there is an index: a search still in one finds it declining, and reads the mapping.</summary>
    private void EndCold(ColdSearch<T, TItem, TKeyOf>? cold)
    {
        if (cold is not null)
        {
            Interlocked.CompareExchange(ref _cold, null, cold);
            cold.Dispose();
        }
    }

    /// <summary>
    /// Checks the fence file against the first <paramref name="count"/> items, and writes it again where it is
    /// missing, behind by more than an eighth, or wrong, on the thread pool (the mapping retained meanwhile).
    /// </summary>
    private void KeepFences(TItem* items, long count)
    {
        if (!FenceFile<T>.Fits(sizeof(TItem)) || (_fencing is { IsCompleted: false }) || !FencesBehind(_fencedCount, count))
        {
            return;
        }

        ListMmfStorage storage = _list.Storage;
        storage.RetainMapping();
        nint start = (nint)items;
        _fencing = Task.Run(() =>
        {
            try
            {
                WriteFences(storage, (TItem*)start, count);
            }
            finally
            {
                storage.ReleaseMapping();
            }
        });
    }

    private void WriteFences(ListMmfStorage storage, TItem* items, long count)
    {
        if (!FenceFile<T>.Fits(sizeof(TItem)))
        {
            return;
        }

        var keys = new KeySource<TItem, T, TKeyOf>(items);
        lock (_fenceGate)
        {
            if (!_disposed)
            {
                WriteFences(storage, ref keys, count);
            }
        }
    }

    private void WriteFences(ListMmfStorage storage, ref KeySource<TItem, T, TKeyOf> keys, long count)
    {
        try
        {
            using (FenceFile<T>? current = FenceFile<T>.Open(_list.Path, sizeof(TItem), storage.ItemsOffset))
            {
                if (current is not null && !FencesBehind(current.IndexedCount, count) && current.Matches(ref keys, count))
                {
                    _fencedCount = count;
                    return;
                }
            }

            FenceFile<T>.Write(_list.Path, ref keys, count, sizeof(TItem), storage.ItemsOffset);
            _fencedCount = count;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ListMmfException)
        {
            // A folder this process may not write, or a name another process holds: cold starts search without
            // fences, and whoever can write the folder writes them.
            _fencedCount = count;
        }
    }

    /// <summary>
    /// Whether fences of <paramref name="fenced"/> items (0: none known) are to be written for <paramref name="count"/>:
    /// none yet, more than the list holds now (a truncation), or behind it by more than the index's slack.
    /// </summary>
    private static bool FencesBehind(long fenced, long count) =>
        fenced > count || (count > fenced && (fenced == 0
            || (count - fenced) * sizeof(TItem) > Math.Max(count * sizeof(TItem) / 8, ExtensionSlackPages * PageIndex<T, TItem>.PageBytes)));

    private bool Follows(T previous, T next) => Order.Append.Allows(previous, next);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowDoesNotFollow(T previous, T next, long index) =>
        throw new ListMmfOrderException(
            _list.Path,
            $"{Describe(next)} cannot be appended at index {index:N0} after {Describe(previous)}: the list is " +
                $"{Order.Append}. Nothing was written.",
            index);

    /// <summary>Whether <paramref name="key"/> is not even equal to itself, as NaN.</summary>
    private static bool IsUnordered(T key)
    {
        T same = key;
        return !(key <= same);
    }

    /// <summary>A key such as NaN, which no order can place, even first.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowUnordered(T key, long index) =>
        throw new ListMmfOrderException(_list.Path, $"{Describe(key)} cannot be appended at index {index:N0}: it is " +
            $"unordered (not even equal to itself), and the list is {Order.Append}. Nothing was written.", index);

    private string Describe(T key) => DescribeKey is { } describe ? describe(key) : key.ToString()!;
}
