using System;
using System.Collections.Generic;
using System.Runtime.ExceptionServices;
using System.Threading;
using Node = System.Collections.Generic.LinkedListNode<(ListMmf.CatalogPartition Partition, ListMmf.TimeSeriesTable Table)>;

namespace ListMmf;

/// <summary>
/// A catalog's partitions open for reading that no replay or query holds now, least recently used first, at most
/// <see cref="Limit"/> of them: a partition read again (the next replay, the next state) is not opened again, and a
/// market of thousands of partitions holds no more than the limit of handles and mappings between reads.
/// </summary>
/// <remarks>
/// A rented table is the renter's until it gives it back, so a table is never closed under a reader. A table read
/// again follows its partition as any reader does: rows its writer added, a seal, an unseal. Thread-safe, so that
/// the threads of one query borrow from it; a table is opened outside its lock.
/// </remarks>
internal sealed class CatalogTableCache : IDisposable
{
    private readonly Dictionary<(int Kind, int Instrument, long PeriodStart), Node> _byKey = [];
    private readonly Func<CatalogPartition, TimeSeriesTable> _open;
    private readonly LinkedList<(CatalogPartition Partition, TimeSeriesTable Table)> _idle = new();
    private readonly object _lock = new();
    private int _limit;
    private bool _disposed;
    private long _opened;

    /// <summary>The nodes of tables rented from the cache, for the next ones given back: a rent and return allocate nothing.</summary>
    private readonly Stack<Node> _spares = new();

    /// <param name="open">Opens a partition's table for reading.</param>
    /// <param name="limit">How many idle tables the cache keeps at most.</param>
    public CatalogTableCache(Func<CatalogPartition, TimeSeriesTable> open, int limit)
    {
        _open = open;
        _limit = limit;
    }

    /// <summary>How many idle tables the cache keeps at most; lowering it closes the least recently used at once.</summary>
    public int Limit
    {
        get => _limit;
        set
        {
            List<TimeSeriesTable>? evicted = null;
            lock (_lock)
            {
                _limit = value;
                Evict(ref evicted);
            }

            Close(evicted);
        }
    }

    /// <summary>How many tables the cache holds now.</summary>
    public int Count
    {
        get
        {
            lock (_lock)
            {
                return _idle.Count;
            }
        }
    }

    /// <summary>How many tables were opened because the cache held none for their partition.</summary>
    public long Opened => Interlocked.Read(ref _opened);

    /// <summary>Whether the cache holds <paramref name="partition"/>'s table open, idle.</summary>
    public bool Holds(CatalogPartition partition)
    {
        lock (_lock)
        {
            return _byKey.ContainsKey(partition.Key);
        }
    }

    /// <summary>Those of <paramref name="partitions"/> whose tables the cache does not hold open, in their order.</summary>
    public List<CatalogPartition> NotHeld(IReadOnlyList<CatalogPartition> partitions)
    {
        var closed = new List<CatalogPartition>(partitions.Count);
        lock (_lock)
        {
            foreach (CatalogPartition partition in partitions)
            {
                if (!_byKey.ContainsKey(partition.Key))
                {
                    closed.Add(partition);
                }
            }
        }

        return closed;
    }

    /// <summary>The table of <paramref name="partition"/>: the cache's, taken out of it, or one opened now.</summary>
    public TimeSeriesTable Rent(CatalogPartition partition)
    {
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (TakeHeld(partition) is { } held)
            {
                return held;
            }
        }

        TimeSeriesTable table = _open(partition);
        Interlocked.Increment(ref _opened);
        return table;
    }

    /// <summary>
    /// Takes the tables the cache holds of <paramref name="partitions"/> out of it in one lock, for the threads of one
    /// query: <paramref name="tables"/>[i] is partition i's, or null where the cache holds none (opened with
    /// <see cref="Rent"/>). Give them back with <see cref="ReturnAll"/>.
    /// </summary>
    public void RentHeld(IReadOnlyList<CatalogPartition> partitions, TimeSeriesTable?[] tables)
    {
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            for (int i = 0; i < partitions.Count; i++)
            {
                tables[i] = TakeHeld(partitions[i]);
            }
        }
    }

    /// <summary>
    /// Gives <paramref name="partition"/>'s rented table back: kept as the most recently used, closing the least
    /// recently used past the limit; closed at once when the cache is closed or already holds the partition's.
    /// </summary>
    public void Return(CatalogPartition partition, TimeSeriesTable table)
    {
        List<TimeSeriesTable>? evicted = null;
        lock (_lock)
        {
            Keep(partition, table, ref evicted);
            Evict(ref evicted);
        }

        Close(evicted);
    }

    /// <summary>Gives back every table of <paramref name="tables"/> (null: none) in one lock, as <see cref="Return"/> gives back one.</summary>
    public void ReturnAll(IReadOnlyList<CatalogPartition> partitions, TimeSeriesTable?[] tables)
    {
        List<TimeSeriesTable>? evicted = null;
        lock (_lock)
        {
            for (int i = 0; i < partitions.Count; i++)
            {
                if (tables[i] is { } table)
                {
                    Keep(partitions[i], table, ref evicted);
                }
            }

            Evict(ref evicted);
        }

        Close(evicted);
    }

    /// <summary>Closes every table the cache holds; tables rented out are closed when given back.</summary>
    public void Dispose()
    {
        List<TimeSeriesTable>? evicted = null;
        lock (_lock)
        {
            _disposed = true;
            _limit = 0;
            Evict(ref evicted);
        }

        Close(evicted);
    }

    /// <summary>Under the lock: takes <paramref name="partition"/>'s table out of the cache; null where it holds none.</summary>
    private TimeSeriesTable? TakeHeld(CatalogPartition partition)
    {
        if (!_byKey.Remove(partition.Key, out Node? node))
        {
            return null;
        }

        _idle.Remove(node);
        TimeSeriesTable table = node.Value.Table;
        node.Value = default;
        _spares.Push(node);
        return table;
    }

    /// <summary>
    /// Under the lock: keeps <paramref name="table"/> as the most recently used; adds it to
    /// <paramref name="evicted"/>, to be closed, when the cache is closed or already holds the partition's.
    /// </summary>
    private void Keep(CatalogPartition partition, TimeSeriesTable table, ref List<TimeSeriesTable>? evicted)
    {
        if (_disposed || _limit <= 0 || _byKey.ContainsKey(partition.Key))
        {
            (evicted ??= []).Add(table);
            return;
        }

        Node node = _spares.TryPop(out Node? spare) ? spare : new Node(default);
        node.Value = (partition, table);
        _idle.AddLast(node);
        _byKey.Add(partition.Key, node);
    }

    /// <summary>
    /// Under the lock: takes the least recently used tables past the limit out of the cache into
    /// <paramref name="evicted"/>, for the caller to close once it lets go of the lock: closing a table unmaps its
    /// columns, which the threads of one query would otherwise wait on.
    /// </summary>
    private void Evict(ref List<TimeSeriesTable>? evicted)
    {
        while (_idle.Count > _limit)
        {
            (CatalogPartition partition, TimeSeriesTable table) = _idle.First!.Value;
            _idle.RemoveFirst();
            _byKey.Remove(partition.Key);
            (evicted ??= []).Add(table);
        }
    }

    /// <summary>Closes the tables taken out of the cache, every one even when one fails; the first failure is thrown.</summary>
    private static void Close(List<TimeSeriesTable>? tables)
    {
        if (tables is null)
        {
            return;
        }

        Exception? failure = null;
        foreach (TimeSeriesTable table in tables)
        {
            try
            {
                table.Dispose();
            }
            catch (Exception exception)
            {
                failure ??= exception;
            }
        }

        if (failure is not null)
        {
            ExceptionDispatchInfo.Throw(failure);
        }
    }
}
