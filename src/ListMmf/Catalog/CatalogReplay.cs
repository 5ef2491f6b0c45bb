using System;
using System.Collections.Generic;

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
/// holds at most the batch size of times a chain. Not thread-safe.
/// </remarks>
public sealed class CatalogReplay : IDisposable
{
    /// <summary>The rows a batch holds at most, unless the replay is asked for another size.</summary>
    public const int DefaultBatchRows = 4096;

    private readonly TimeSeriesCatalog _catalog;
    private readonly Chain[] _heap;
    private readonly long _from;
    private readonly long _to;
    private int _count;
    private Chain? _current;
    private int _length;
    private bool _disposed;

    internal CatalogReplay(TimeSeriesCatalog catalog, List<CatalogPartition[]> chains, long from, long to, int batchRows)
    {
        _catalog = catalog;
        _from = from;
        _to = to;
        _heap = new Chain[chains.Count];
        foreach (CatalogPartition[] chain in chains)
        {
            _heap[_count] = new Chain(chain, batchRows, from);
            SiftUp(_count++);
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
    public IndexRange Rows => new(Current.BufferRow + Current.Position, Current.BufferRow + Current.Position + _length);

    /// <summary>The batch's rows' times, as the table returns them.</summary>
    public ReadOnlySpan<DateTime> Times => Current.Times.AsSpan(Current.Position, _length);

    private Chain Current => _current ?? throw new InvalidOperationException(
        "The replay has no current batch: call MoveNext first, and read a batch only while MoveNext returned true.");

    /// <summary>Moves to the next batch, closing the partitions the replay moved past.</summary>
    /// <returns>False when every row was replayed.</returns>
    public bool MoveNext()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_current is { } replayed)
        {
            _current = null;
            if (replayed.Consume(_length))
            {
                SiftDown(0);
            }
            else
            {
                RemoveFirst();
            }
        }

        while (_count > 0)
        {
            Chain first = _heap[0];
            if (!first.IsOpen)
            {
                if (first.Open(_catalog, _from, _to))
                {
                    SiftDown(0);
                }
                else
                {
                    RemoveFirst();
                }

                continue;
            }

            Chain? next = _count switch
            {
                1 => null,
                2 => _heap[1],
                _ => Before(_heap[1], _heap[2]) ? _heap[1] : _heap[2],
            };
            _length = next is null ? first.Buffered : first.RunBefore(next.Key, first.RanksBefore(next));
            _current = first;
            return true;
        }

        return false;
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
            _heap[i].Close();
        }
    }

    /// <summary>Whether <paramref name="a"/>'s next row comes before <paramref name="b"/>'s: by time, then kind rank, then instrument ordinal.</summary>
    private static bool Before(Chain a, Chain b) => a.Key != b.Key ? a.Key < b.Key : a.RanksBefore(b);

    private void RemoveFirst()
    {
        _heap[0].Close();
        _heap[0] = _heap[--_count];
        _heap[_count] = null!;
        if (_count > 0)
        {
            SiftDown(0);
        }
    }

    private void SiftUp(int at)
    {
        Chain chain = _heap[at];
        while (at > 0)
        {
            int parent = (at - 1) / 2;
            if (!Before(chain, _heap[parent]))
            {
                break;
            }

            _heap[at] = _heap[parent];
            at = parent;
        }

        _heap[at] = chain;
    }

    private void SiftDown(int at)
    {
        Chain chain = _heap[at];
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

            if (!Before(_heap[child], chain))
            {
                break;
            }

            _heap[at] = _heap[child];
            at = child;
        }

        _heap[at] = chain;
    }

    /// <summary>
    /// One instrument's kind: its partitions in period order, the one open and a buffer of its next times. Before
    /// its partition is open, its key is the partition's first recorded time (or the replay's start), which no row
    /// of it comes before.
    /// </summary>
    private sealed class Chain(CatalogPartition[] partitions, int batchRows, long from)
    {
        private readonly long _from = from;
        private int _next;
        private long _row;
        private long _end;

        /// <summary>The time, in ticks, of the chain's next row; while it is not open, one that no row of it comes before.</summary>
        public long Key { get; private set; } = Math.Max(partitions[0].FirstTime.Ticks, from);

        public CatalogPartition Partition { get; private set; } = partitions[0];

        public TimeSeriesTable? Table { get; private set; }

        public bool IsOpen => Table is not null;

        public DateTime[] Times { get; } = new DateTime[batchRows];

        /// <summary>The table's row of <see cref="Times"/>[0].</summary>
        public long BufferRow { get; private set; }

        /// <summary>The next row's place in <see cref="Times"/>.</summary>
        public int Position { get; private set; }

        private int _buffered;

        /// <summary>How many buffered times are still to come.</summary>
        public int Buffered => _buffered - Position;

        /// <summary>Whether this chain's rows come before <paramref name="other"/>'s at one time.</summary>
        public bool RanksBefore(Chain other) => Partition.KindRank != other.Partition.KindRank
            ? Partition.KindRank < other.Partition.KindRank
            : Partition.InstrumentOrdinal < other.Partition.InstrumentOrdinal;

        /// <summary>
        /// Opens the next partition with rows in [<paramref name="from"/>, <paramref name="to"/>) and buffers its first
        /// times; false when none is left.
        /// </summary>
        public bool Open(TimeSeriesCatalog catalog, long from, long to)
        {
            while (_next < partitions.Length)
            {
                CatalogPartition partition = partitions[_next++];
                TimeSeriesTable table = catalog.OpenForReplay(partition);
                try
                {
                    DateTimeKind kind = partition.FirstTime.Kind;
                    long start = from <= partition.FirstTime.Ticks ? 0 : table.LowerBound(new DateTime(from, kind));
                    long end = to > partition.LastTime.Ticks ? partition.RowCount : Math.Min(partition.RowCount, table.LowerBound(new DateTime(to, kind)));
                    if (start < end)
                    {
                        Partition = partition;
                        Table = table;
                        _row = start;
                        _end = end;
                        Fill();
                        return true;
                    }
                }
                catch
                {
                    table.Dispose();
                    throw;
                }

                table.Dispose();
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
            Table?.Dispose();
            Table = null;
        }

        private void Fill()
        {
            int rows = (int)Math.Min(Times.Length, _end - _row);
            Table!.CopyTimes(new IndexRange(_row, _row + rows), Times.AsSpan(0, rows));
            BufferRow = _row;
            _row += rows;
            Position = 0;
            _buffered = rows;
            Key = Times[0].Ticks;
        }
    }
}
