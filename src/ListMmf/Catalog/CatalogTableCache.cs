using System;
using System.Collections.Generic;

namespace ListMmf;

/// <summary>
/// A catalog's partitions open for reading that no replay or query holds now, least recently used first, at most
/// <see cref="Limit"/> of them: a partition read again (the next replay, the next state) is not opened again, and a
/// market of thousands of partitions holds no more than the limit of handles and mappings between reads.
/// </summary>
/// <remarks>
/// A rented table is the renter's until it gives it back, so a table is never closed under a reader. A table read
/// again follows its partition as any reader does: rows its writer added, a seal, an unseal.
/// </remarks>
internal sealed class CatalogTableCache : IDisposable
{
    private readonly Func<CatalogPartition, TimeSeriesTable> _open;
    private readonly LinkedList<TimeSeriesTable> _idle = new();
    private readonly Dictionary<string, LinkedListNode<TimeSeriesTable>> _byPath = new(StringComparer.Ordinal);
    private int _limit;
    private bool _disposed;

    /// <summary>The node of the table last rented from the cache, for the next one given back: a rent and return allocate nothing.</summary>
    private LinkedListNode<TimeSeriesTable>? _spare;

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
            _limit = value;
            Trim();
        }
    }

    /// <summary>How many tables the cache holds now.</summary>
    public int Count => _idle.Count;

    /// <summary>How many tables were opened because the cache held none for their partition.</summary>
    public long Opened { get; private set; }

    /// <summary>The table of <paramref name="partition"/>: the cache's, taken out of it, or one opened now.</summary>
    public TimeSeriesTable Rent(CatalogPartition partition)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_byPath.Remove(partition.Path, out LinkedListNode<TimeSeriesTable>? node))
        {
            _idle.Remove(node);
            _spare = node;
            return node.Value;
        }

        TimeSeriesTable table = _open(partition);
        Opened++;
        return table;
    }

    /// <summary>
    /// Gives a rented table back: kept as the most recently used, closing the least recently used past the limit;
    /// closed at once when the cache is closed or already holds its partition.
    /// </summary>
    public void Return(TimeSeriesTable table)
    {
        if (_disposed || _limit == 0 || _byPath.ContainsKey(table.Path))
        {
            table.Dispose();
            return;
        }

        LinkedListNode<TimeSeriesTable> node = _spare ?? new LinkedListNode<TimeSeriesTable>(table);
        _spare = null;
        node.Value = table;
        _idle.AddLast(node);
        _byPath.Add(table.Path, node);
        Trim();
    }

    /// <summary>Closes every table the cache holds; tables rented out are closed when given back.</summary>
    public void Dispose()
    {
        _disposed = true;
        _limit = 0;
        Trim();
    }

    private void Trim()
    {
        while (_idle.Count > _limit)
        {
            TimeSeriesTable oldest = _idle.First!.Value;
            _idle.RemoveFirst();
            _byPath.Remove(oldest.Path);
            oldest.Dispose();
        }
    }
}
