using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>
/// A replay of a catalog's rows in one time order (<see cref="TimeSeriesCatalog.Replay"/>): each
/// <see cref="MoveNext"/> gives a batch of consecutive rows of one partition, <see cref="Rows"/> of
/// <see cref="Table"/>, that come before every other instrument's next row. Rows of equal time come in the order
/// (<see cref="CatalogPartition.KindRank"/>, <see cref="CatalogPartition.InstrumentOrdinal"/>, row). Read a batch's
/// values from <see cref="Table"/> before the next <see cref="MoveNext"/>, which may close it.
/// </summary>
/// <remarks>
/// Each instrument and kind is a chain of partitions in period order; a merge of the chains' next rows (a binary
/// heap of one entry a chain) picks the earliest. A chain's partition is opened when the merge reaches its first
/// recorded time, which the index gives, so a replay opens only the partitions it reads, one a chain at a time, and
/// holds at most the batch size of times a chain. Not thread-safe, and it reads its catalog's index as it goes: use
/// neither on another thread meanwhile.
/// </remarks>
public sealed partial class CatalogReplay : IDisposable
{
    /// <summary>The rows a batch holds at most, unless the replay is asked for another size.</summary>
    public const int DefaultBatchRows = 4096;

    private readonly TimeSeriesCatalog _catalog;
    private readonly HashSet<int>? _ranks;
    private readonly HashSet<int>? _ordinals;
    private readonly int _batchRows;
    private readonly string[] _columns;

    /// <summary>Whether the replay follows the writer's watermark rather than ending at a time given.</summary>
    private readonly bool _follow;

    /// <summary>Whether the replay is read in runs of many partitions' rows (<see cref="NextRun"/>) rather than in batches.</summary>
    private readonly bool _runs;

    /// <summary>
    /// A following replay's tables of the partitions its chains had read to their end, kept for the chains of the next
    /// watermark, which mostly start where those ended: given back to the catalog's cache, they would be closed
    /// before the next watermark wherever it holds fewer partitions than the replay reads.
    /// </summary>
    private readonly Dictionary<(int Kind, int Instrument, long PeriodStart), (CatalogPartition Partition, TimeSeriesTable Table)> _held = [];

    /// <summary>
    /// The chains: for a replay in runs (<see cref="_runs"/>), those with rows to come, the first <see cref="_count"/>,
    /// in (kind rank, instrument ordinal) order; else every chain, in place, which <see cref="_heap"/> orders.
    /// </summary>
    private Chain[] _chains = [];

    /// <summary>
    /// A replay's (not in runs) chains with rows to come, the first <see cref="_count"/>: a binary heap by their next
    /// rows, each entry a chain's place in <see cref="_chains"/> with its key and rank beside it, so that a step of the
    /// heap compares and moves plain numbers rather than reading and moving the chains.
    /// </summary>
    private HeapEntry[] _heap = [];
    private long _from;
    private long _to;
    private int _count;
    private Chain? _current;
    private int _length;
    private bool _disposed;

    /// <summary>What a <see cref="MoveNext"/> met, after which the replay's place is unknown: every later call throws.</summary>
    private Exception? _failed;

    internal CatalogReplay(
        TimeSeriesCatalog catalog, HashSet<int>? ranks, HashSet<int>? ordinals, string[] columns, long from, long to, int batchRows, bool follow,
        bool runs = false)
    {
        _runs = runs;
        _catalog = catalog;
        _columns = columns;
        _ranks = ranks;
        _ordinals = ordinals;
        _batchRows = batchRows;
        _follow = follow;
        _from = from;
        _to = to;
        if (!follow)
        {
            Start();
        }
    }

    /// <summary>The batch's kind.</summary>
    public string Kind => Current.Partition.Kind;

    /// <summary>The batch's instrument.</summary>
    public string Instrument => Current.Partition.Instrument;

    /// <summary>The partition the batch's rows are of.</summary>
    public CatalogPartition Partition => Current.Partition;

    /// <summary>The partition's table, open for reading until the next <see cref="MoveNext"/>: read the batch's values from it.</summary>
    public TimeSeriesTable Table => Current.Table!;

    /// <summary>The batch's rows of <see cref="Table"/>.</summary>
    public IndexRange Rows
    {
        get
        {
            Chain chain = Current;
            return new(chain.BufferRow + chain.Position, chain.BufferRow + chain.Position + _length);
        }
    }

    /// <summary>The batch's rows' times, as the table returns them.</summary>
    public ReadOnlySpan<DateTime> Times
    {
        get
        {
            Chain chain = Current;
            return chain.Times.AsSpan(chain.Position, _length);
        }
    }

    /// <summary>
    /// The batch's values of the <paramref name="column"/>th of the columns the replay was asked for, one for each of
    /// <see cref="Rows"/>: over the mapping for an appendable partition, else decoded once for the replay's next rows
    /// of the partition, whatever the batches they come in.
    /// </summary>
    /// <typeparam name="T">The column's type, as <see cref="TimeSeriesTable.Column{T}"/> takes it.</typeparam>
    /// <exception cref="ArgumentOutOfRangeException">The replay was asked for fewer columns.</exception>
    /// <exception cref="ListMmfDataTypeException">The column holds another type.</exception>
    public ReadOnlySpan<T> Values<T>(int column)
        where T : unmanaged
    {
        Chain chain = Current;
        if ((uint)column >= (uint)_columns.Length)
        {
            throw new ArgumentOutOfRangeException(nameof(column), column, $"The replay was asked for {_columns.Length} columns.");
        }

        return chain.Values<T>(column, _columns[column]).Slice(chain.Position, _length);
    }

    /// <summary>
    /// The batch's values of the column <paramref name="column"/> of its kind, asked for or not, one for each of
    /// <see cref="Rows"/>: what a replay of kinds without columns in common (trades and quotes) reads, as
    /// <see cref="Values{T}(int)"/> reads them: over the mapping for an appendable partition, else decoded once for
    /// the replay's next rows of the partition.
    /// </summary>
    /// <typeparam name="T">The column's type, as <see cref="TimeSeriesTable.Column{T}"/> takes it.</typeparam>
    /// <exception cref="ArgumentException">The batch's kind has no such column.</exception>
    /// <exception cref="ListMmfDataTypeException">The column holds another type, or text.</exception>
    public ReadOnlySpan<T> Values<T>(string column)
        where T : unmanaged
    {
        ArgumentNullException.ThrowIfNull(column);
        Chain chain = Current;
        return chain.Values<T>(column).Slice(chain.Position, _length);
    }

    private Chain Current => _current ?? throw new InvalidOperationException(
        "The replay has no current batch: call MoveNext first, and read a batch only while MoveNext returned true.");

    /// <summary>Moves to the next batch, closing the partitions the replay moved past.</summary>
    /// <returns>False when every row was replayed.</returns>
    /// <exception cref="InvalidOperationException">An earlier call threw: the replay cannot know where it was; start a new one.</exception>
    public bool MoveNext() => Guarded(run: null, runRows: 0);

    /// <summary>A replay in runs gathers the next run into <paramref name="run"/>, as <see cref="MoveNext"/> moves to the next batch.</summary>
    internal bool MoveNextRun(CatalogRun run, int runRows) => Guarded(run, runRows);

    private bool Guarded(CatalogRun? run, int runRows)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_failed is not null)
        {
            throw new InvalidOperationException("An earlier MoveNext of this replay threw, so it cannot know which rows it gave; " +
                "start a new replay from the last time you read.", _failed);
        }

        try
        {
            return run is null ? Next() : NextRun(run, runRows);
        }
        catch (Exception exception)
        {
            _failed = exception;
            run?.Clear();
            throw;
        }
    }

    private bool Next()
    {
        if (_current is { } replayed)
        {
            _current = null;
            if (replayed.Consume(_length))
            {
                _heap[0].Key = replayed.Key;
                SiftDown(0);
            }
            else
            {
                RemoveFirst();
            }
        }

        while (_count > 0)
        {
            Chain first = _chains[_heap[0].Chain];
            if (!first.IsOpen)
            {
                if (first.Open(_from, _to))
                {
                    _heap[0].Key = first.Key;
                    SiftDown(0);
                }
                else
                {
                    RemoveFirst();
                }

                continue;
            }

            if (_count == 1)
            {
                _length = first.Buffered;
            }
            else
            {
                ref HeapEntry next = ref _count == 2 || Before(_heap[1], _heap[2]) ? ref _heap[1] : ref _heap[2];
                _length = first.RunBefore(next.Key, first.Rank < next.Rank);
            }

            _current = first;
            return true;
        }

        return _follow && Advance() && Next();
    }

    /// <summary>Closes the partitions the replay holds open.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _current = null;
        for (int i = 0; i < _count; i++)
        {
            _chains[_runs ? i : _heap[i].Chain].Close();
        }

        ReturnHeld(keep: null);
    }

    /// <summary>Puts every chain of partitions with recorded rows in [<see cref="_from"/>, <see cref="_to"/>) in the heap.</summary>
    private void Start()
    {
        List<CatalogPartition[]> chains = _catalog.Chains(_ranks, _ordinals, _from, _to);
        _chains = new Chain[chains.Count];
        _heap = _runs ? [] : new HeapEntry[chains.Count];
        _count = 0;
        foreach (CatalogPartition[] chain in chains)
        {
            Chain added = _chains[_count] = new Chain(chain, _batchRows, _from, this, _columns.Length);
            if (!_runs)
            {
                _heap[_count] = new HeapEntry(added.Key, added.Rank, _count);
                SiftUp(_count);
            }

            _count++;
        }

        if (_runs)
        {
            Array.Sort(_chains, (a, b) => a.Rank.CompareTo(b.Rank));
        }

        if (_held.Count > 0)
        {
            ReturnHeld(keep: chains.Select(chain => chain[0].Key).ToHashSet());
        }
    }

    /// <summary>Gives the held tables back to the catalog's cache, but those of the partitions in <paramref name="keep"/>.</summary>
    private void ReturnHeld(HashSet<(int Kind, int Instrument, long PeriodStart)>? keep)
    {
        foreach (((int, int, long) key, (CatalogPartition partition, TimeSeriesTable table)) in _held.ToArray())
        {
            if (keep is null || !keep.Contains(key))
            {
                _held.Remove(key);
                _catalog.ReturnTable(partition, table);
            }
        }
    }

    /// <summary>The table of <paramref name="partition"/> for a chain: the one held for it, or the catalog's.</summary>
    /// <remarks>Chains of a run may open on several threads (<see cref="OpenTogether"/>): the held tables are taken under a lock.</remarks>
    private TimeSeriesTable RentTable(CatalogPartition partition)
    {
        (CatalogPartition Partition, TimeSeriesTable Table) held;
        bool wasHeld;
        lock (_held)
        {
            wasHeld = _held.Remove(partition.Key, out held);
        }

        return _catalog.RentTable(partition, wasHeld ? held.Table : null);
    }

    /// <summary>
    /// Takes back a chain's table: a following replay holds the table of a chain's last partition for the next
    /// watermark's chains; any other goes back to the catalog's cache.
    /// </summary>
    private void ReturnTable(CatalogPartition partition, TimeSeriesTable table, bool last)
    {
        if (_follow && last && !_disposed)
        {
            lock (_held)
            {
                if (_held.TryAdd(partition.Key, (partition, table)))
                {
                    return;
                }
            }
        }

        _catalog.ReturnTable(partition, table);
    }

    /// <summary>
    /// A following replay that gave every row before its watermark moves to the rows between it and the catalog's
    /// watermark now, if that is later: starts the chains again from the index, each where the last ended, on the
    /// table it held (<see cref="_held"/>); false when the watermark has not moved.
    /// </summary>
    private bool Advance()
    {
        long watermark = _catalog.RecordedWatermark();
        if (watermark <= _to)
        {
            return false;
        }

        _from = _to;
        _to = watermark;
        Start();
        return true;
    }

    /// <summary>Whether <paramref name="a"/>'s next row comes before <paramref name="b"/>'s: by time, kind rank, then instrument ordinal.</summary>
    private static bool Before(in HeapEntry a, in HeapEntry b) => a.Key != b.Key ? a.Key < b.Key : a.Rank < b.Rank;

    /// <summary>Takes the first chain out of the heap, its rows all replayed, and closes its partition.</summary>
    private void RemoveFirst()
    {
        // Its slot let go of too: a finished chain's buffers are garbage for the rest of a long replay.
        int chain = _heap[0].Chain;
        _chains[chain].Close();
        _chains[chain] = null!;
        _heap[0] = _heap[--_count];
        if (_count > 0)
        {
            SiftDown(0);
        }
    }

    private void SiftUp(int at)
    {
        HeapEntry entry = _heap[at];
        while (at > 0)
        {
            int parent = (at - 1) / 2;
            if (!Before(entry, _heap[parent]))
            {
                break;
            }

            _heap[at] = _heap[parent];
            at = parent;
        }

        _heap[at] = entry;
    }

    private void SiftDown(int at)
    {
        HeapEntry entry = _heap[at];
        while (true)
        {
            int child = (2 * at) + 1;
            if (child >= _count)
            {
                break;
            }

            if (child + 1 < _count && Before(_heap[child + 1], _heap[child]))
            {
                child++;
            }

            if (!Before(_heap[child], entry))
            {
                break;
            }

            _heap[at] = _heap[child];
            at = child;
        }

        _heap[at] = entry;
    }

    /// <summary>A chain in the heap: the time of its next row, its rank among rows of one time, and its place in <see cref="_chains"/>.</summary>
    private record struct HeapEntry(long Key, long Rank, int Chain);

    /// <summary>
    /// One instrument's kind: its partitions in period order, the one open and a buffer of its next times. Before
    /// its partition is open, its key is the partition's first recorded time (or the replay's start), which no row
    /// of it comes before.
    /// </summary>
    private sealed class Chain(CatalogPartition[] partitions, int batchRows, long from, CatalogReplay replay, int columns)
    {
        private readonly long _from = from;

        /// <summary>Each asked column's values of the buffered rows, a <see cref="Chunk{T}"/> once asked for.</summary>
        private readonly object?[] _chunks = new object?[columns];

        /// <summary>
        /// The columns asked for by name (<see cref="CatalogReplay.Values{T}(string)"/>), and their values as
        /// <see cref="_chunks"/>.
        /// </summary>
        private readonly List<string> _names = [];
        private readonly List<object?> _named = [];
        private int _next;
        private long _row;
        private long _end;

        /// <summary>The time, in ticks, of the chain's next row; while it is not open, one that no row of it comes before.</summary>
        public long Key { get; private set; } = Math.Max(partitions[0].FirstTime.Ticks, from);

        public CatalogPartition Partition { get; private set; } = partitions[0];

        public TimeSeriesTable? Table { get; private set; }

        public bool IsOpen => Table is not null;

        /// <summary>The partition <see cref="Open"/> opens first, if any is left.</summary>
        public CatalogPartition? Upcoming => _next < partitions.Length ? partitions[_next] : null;

        /// <summary>Whether a partition is left to open: false once <see cref="Open"/> found none with rows in the range.</summary>
        public bool HasPartitionsLeft => _next < partitions.Length;

        /// <summary>The buffered times, allocated when the chain's first partition opens, at most the batch size.</summary>
        public DateTime[] Times { get; private set; } = [];

        /// <summary>The table's row of <see cref="Times"/>[0].</summary>
        public long BufferRow { get; private set; }

        /// <summary>The next row's place in <see cref="Times"/>.</summary>
        public int Position { get; private set; }

        private int _buffered;

        /// <summary>How many buffered times are still to come.</summary>
        public int Buffered => _buffered - Position;

        /// <summary>The chain's kind rank, then its instrument's ordinal, in one number: the lower comes first among rows of one time.</summary>
        public long Rank { get; } = ((long)partitions[0].KindRank << 32) | (uint)partitions[0].InstrumentOrdinal;

        /// <summary>
        /// Opens the next partition with rows in [<paramref name="from"/>, <paramref name="to"/>) and buffers its first
        /// times; false when none is left.
        /// </summary>
        public bool Open(long from, long to)
        {
            while (_next < partitions.Length)
            {
                CatalogPartition partition = partitions[_next++];
                replay._catalog.ReadAheadAlone(partition, replay._columns);
                TimeSeriesTable table = replay.RentTable(partition);
                try
                {
                    IndexRange rows = partition.RecordedRows(table, from, to);
                    if (!rows.IsEmpty)
                    {
                        // Here, not at the first read: runs open many chains at once on every core.
                        table.OpenColumns(replay._columns);
                        Partition = partition;
                        Table = table;
                        _row = rows.Start;
                        _end = rows.End;
                        Fill();
                        return true;
                    }
                }
                catch
                {
                    // The chain must not give a closed table back to the cache when the replay is disposed.
                    Table = null;
                    table.Dispose();
                    throw;
                }

                replay.ReturnTable(partition, table, last: _next == partitions.Length);
            }

            return false;
        }

        /// <summary>
        /// How many of the buffered times from the next come before a row of another chain at
        /// <paramref name="limit"/>: those before it, and those at it when this chain ranks first.
        /// </summary>
        public int RunBefore(long limit, bool ranksFirst)
        {
            DateTime[] times = Times;
            int at = Position + 1;
            while (at < _buffered && (times[at].Ticks < limit || (ranksFirst && times[at].Ticks == limit)))
            {
                at++;
            }

            return at - Position;
        }

        /// <summary>
        /// Buffers more of the open partition's rows, keeping those still to come, until <paramref name="rows"/> are
        /// buffered, the buffer is full or the partition has no more.
        /// </summary>
        public void TopUp(int rows)
        {
            int remaining = Buffered;
            if (Table is null || remaining >= rows || _row >= _end)
            {
                return;
            }

            // The buffer keeps its size within a partition (Fill sized it for the partition's rows), and so do the
            // chunks of values sized with it.
            DateTime[] times = Times;
            Array.Copy(times, Position, times, 0, remaining);
            int read = (int)Math.Min(times.Length - remaining, _end - _row);
            Table.CopyTimes(new IndexRange(_row, _row + read), times.AsSpan(remaining, read));
            BufferRow += Position;
            Position = 0;
            _row += read;
            _buffered = remaining + read;
        }

        /// <summary>
        /// A time before which a run may take this open chain's rows: every row after its buffer comes at or after
        /// it, and so do all but <paramref name="rows"/> of the buffered ones at most.
        /// </summary>
        public long Limit(int rows)
        {
            if (Buffered > rows)
            {
                return Times[Position + rows].Ticks;
            }

            if (_row < _end)
            {
                return Times[_buffered - 1].Ticks;
            }

            return _next < partitions.Length ? Math.Max(partitions[_next].FirstTime.Ticks, _from) : long.MaxValue;
        }

        /// <summary>
        /// How many of the buffered rows to come are before <paramref name="ticks"/>: the first few looked at in turn, as
        /// a run of many instruments takes a few of each, then a binary search of the rest, as a busy one's run takes many.
        /// </summary>
        public int CountBefore(long ticks)
        {
            DateTime[] times = Times;
            int low = Position;
            int high = _buffered;
            for (int stop = Math.Min(high, low + 16); low < stop; low++)
            {
                if (times[low].Ticks >= ticks)
                {
                    return low - Position;
                }
            }

            while (low < high)
            {
                int middle = (int)((uint)(low + high) >> 1);
                if (times[middle].Ticks < ticks)
                {
                    low = middle + 1;
                }
                else
                {
                    high = middle;
                }
            }

            return low - Position;
        }

        /// <summary>How many of the buffered rows to come are at <paramref name="ticks"/>.</summary>
        public int CountAt(long ticks)
        {
            int at = Position;
            while (at < _buffered && Times[at].Ticks == ticks)
            {
                at++;
            }

            return at - Position;
        }

        /// <summary>
        /// The values of the buffered rows of the <paramref name="column"/>th column asked for,
        /// <paramref name="name"/>, read once for them.
        /// </summary>
        public ReadOnlySpan<T> Values<T>(int column, string name)
            where T : unmanaged => ValuesIn<T>(ref _chunks[column], name);

        /// <summary>The values of the buffered rows of the column <paramref name="name"/> of the chain's kind, read once for them.</summary>
        public ReadOnlySpan<T> Values<T>(string name)
            where T : unmanaged
        {
            int slot = _names.IndexOf(name);
            if (slot < 0)
            {
                _names.Add(name);
                _named.Add(null);
                slot = _names.Count - 1;
            }

            return ValuesIn<T>(ref CollectionsMarshal.AsSpan(_named)[slot], name);
        }

        private ReadOnlySpan<T> ValuesIn<T>(ref object? slot, string name)
            where T : unmanaged
        {
            if (slot is not Chunk<T> chunk || chunk.Table != Table)
            {
                chunk = new Chunk<T>(Table!, Table!.Column<T>(name));
                slot = chunk;
            }

            if (chunk.Row != BufferRow || chunk.Length != _buffered)
            {
                chunk.Fill(BufferRow, _buffered, Times.Length);
            }

            return chunk.Memory.Span;
        }

        /// <summary>Moves past <paramref name="rows"/> replayed rows; false when the chain has no rows left.</summary>
        public bool Consume(int rows)
        {
            Position += rows;
            if (Position < _buffered)
            {
                Key = Times[Position].Ticks;
                return true;
            }

            if (_row < _end)
            {
                Fill();
                return true;
            }

            Close();
            if (_next < partitions.Length)
            {
                Partition = partitions[_next];
                Key = Math.Max(Partition.FirstTime.Ticks, _from);
                return true;
            }

            return false;
        }

        public void Close()
        {
            if (Table is { } table)
            {
                // Let go of it first: a return that fails has given it away already, and must not be given again.
                Table = null;
                replay.ReturnTable(Partition, table, last: _next == partitions.Length);
            }
        }

        private void Fill()
        {
            if (Times.Length < batchRows && Times.Length < _end - _row)
            {
                Times = new DateTime[(int)Math.Min(batchRows, _end - _row)];
            }

            int rows = (int)Math.Min(Times.Length, _end - _row);
            Table!.CopyTimes(new IndexRange(_row, _row + rows), Times.AsSpan(0, rows));
            BufferRow = _row;
            _row += rows;
            Position = 0;
            _buffered = rows;
            Key = Times[0].Ticks;
        }
    }

    /// <summary>One column's values of a chain's buffered rows: the mapping's, or a buffer the values were decoded into.</summary>
    private sealed class Chunk<T>(TimeSeriesTable table, TableColumn<T> column)
        where T : unmanaged
    {
        private T[]? _buffer;

        public TimeSeriesTable Table { get; } = table;

        public long Row { get; private set; } = -1;

        public int Length { get; private set; }

        public ReadOnlyMemory<T> Memory { get; private set; }

        public void Fill(long row, int length, int capacity)
        {
            var range = new IndexRange(row, row + length);
            if (column.TryGetMemory(range, out ReadOnlyMemory<T> memory))
            {
                Memory = memory;
            }
            else
            {
                _buffer ??= new T[capacity];
                column.CopyTo(range, _buffer);
                Memory = _buffer.AsMemory(0, length);
            }

            Row = row;
            Length = length;
        }
    }
}
