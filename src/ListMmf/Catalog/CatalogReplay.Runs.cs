using System;
using System.Linq;
using System.Numerics;
using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>A replay read in runs (<see cref="CatalogRuns"/>): many partitions' rows a call, merged by a sort.</summary>
/// <remarks>
/// A run takes, from every chain, its rows before a horizon: the earliest time before which each chain's rows are
/// all buffered, and at most a chain's share of the run's rows. Every row before the horizon is then in the run and
/// every row of one time in one run, so a run's rows need only be put in order among themselves. When one time holds
/// more rows than the horizon lets through, the run is every row of that time, chain by chain.
/// </remarks>
public sealed partial class CatalogReplay
{
    /// <summary>The chains with one first time a run opens on every core rather than one after the other.</summary>
    private const int ParallelOpens = 16;

    /// <summary>A run under this fraction of its rows is short: <see cref="Widen"/> raises its horizon.</summary>
    private const int ShortRun = 8;

    private ChainColumnCopy? _copy;

    /// <summary>Each chain's share while <see cref="Widen"/> raises the horizon, by its place in <see cref="_chains"/>.</summary>
    private int[] _shares = [];

    /// <summary>The shares <see cref="Widen"/> tries next, by the same places.</summary>
    private int[] _wider = [];

    /// <summary>
    /// Whether the next run is to be widened where short: after a short run or a widened one. Runs that come long
    /// without it (instruments evenly busy) skip the count it takes.
    /// </summary>
    private bool _widening = true;

    /// <summary>Gathers the next run into <paramref name="run"/>; false when no row is left (before the watermark, when following).</summary>
    private bool NextRun(CatalogRun run, int runRows)
    {
        run.Clear();
        while (true)
        {
            if (_count == 0)
            {
                if (_follow && Advance())
                {
                    continue;
                }

                return false;
            }

            int share = Share(runRows);
            long narrow = Horizon(share);
            long horizon = _widening ? Widen(narrow, share, runRows) : narrow;
            long first = long.MaxValue;
            for (int i = 0; i < _count; i++)
            {
                if (_chains[i].IsOpen)
                {
                    first = Math.Min(first, _chains[i].Key);
                }
            }

            int kept = 0;
            for (int i = 0; i < _count; i++)
            {
                Chain chain = _chains[i];
                bool more = !chain.IsOpen || (first >= horizon ? TakeAt(chain, first, run) : TakeBefore(chain, horizon, run));
                if (more)
                {
                    _chains[kept++] = chain;
                }
            }

            Array.Clear(_chains, kept, _count - kept);
            _count = kept;
            _widening = horizon > narrow || run.Count < runRows / ShortRun;
            if (run.Count > 0)
            {
                run.Sort();
                return true;
            }
        }
    }

    /// <summary>
    /// The rows a run takes of each open chain at most: the run's rows shared among the chains open (among all
    /// before the first run), so that chains whose rows come later do not make runs short; at most a buffer's.
    /// </summary>
    private int Share(int runRows)
    {
        int open = 0;
        for (int i = 0; i < _count; i++)
        {
            open += _chains[i].IsOpen ? 1 : 0;
        }

        return Math.Clamp(runRows / Math.Max(1, open == 0 ? _count : open), 1, Math.Max(1, _batchRows - 1));
    }

    /// <summary>
    /// The horizon: the open chains' limits with at least <paramref name="share"/> rows of each buffered, lowered by
    /// the chains opened because their first row may come before it (in rank order). Chains with no rows left
    /// before the end are dropped.
    /// </summary>
    private long Horizon(int share)
    {
        long horizon = _to;
        for (int i = 0; i < _count; i++)
        {
            if (_chains[i].IsOpen)
            {
                horizon = Math.Min(horizon, Buffered(_chains[i], share));
            }
        }

        horizon = Math.Min(horizon, OpenTogether(horizon, share));

        int kept = 0;
        for (int i = 0; i < _count; i++)
        {
            Chain chain = _chains[i];
            if (!chain.IsOpen)
            {
                // A chain whose first row comes at or after the end (a range ending before it starts) has none to give.
                if (chain.Key >= _to)
                {
                    continue;
                }

                if (chain.Key <= horizon)
                {
                    if (!chain.Open(_from, _to))
                    {
                        continue;
                    }

                    horizon = Math.Min(horizon, Buffered(chain, share));
                }
            }

            _chains[kept++] = chain;
        }

        Array.Clear(_chains, kept, _count - kept);
        _count = kept;
        return horizon;
    }

    /// <summary>
    /// Raises the horizon where a few busy chains hold the run under an eighth of its rows (one active instrument
    /// among many quiet ones): the chains whose limit is the horizon share the rows the run has left and buffer that
    /// many more each, up to their buffers; a step that would take the run past its rows is halved. It goes on to half
    /// the run's rows while each raise at least doubles them: where the chains' limits lie close together (many instruments
    /// evenly busy), a raise gains a chain's rows and costs a pass over all of them. A chain not open yet whose key
    /// the new horizon passes is opened first, as <see cref="Horizon"/> opens it.
    /// </summary>
    private long Widen(long horizon, int share, int runRows)
    {
        int rows = RowsBefore(horizon);
        if (rows >= runRows / ShortRun)
        {
            return horizon;
        }

        if (_shares.Length < _count)
        {
            _shares = new int[_chains.Length];
            _wider = new int[_chains.Length];
        }

        Array.Fill(_shares, share, 0, _count);
        while (true)
        {
            int binding = 0;
            for (int i = 0; i < _count; i++)
            {
                Chain chain = _chains[i];
                if (chain.IsOpen && chain.Limit(_shares[i]) <= horizon)
                {
                    if (_shares[i] >= chain.Times.Length - 1)
                    {
                        return horizon;
                    }

                    binding++;
                }
            }

            for (int step = Math.Max(1, (runRows - rows) / Math.Max(1, binding)); ; step /= 2)
            {
                long next = Wider(horizon, share, step);
                if (next <= horizon)
                {
                    // A smaller step raises no limit that this one did not.
                    return horizon;
                }

                int more = RowsBefore(next);
                if (more <= runRows)
                {
                    (_shares, _wider) = (_wider, _shares);
                    if (more < 2 * Math.Max(1, rows) || more >= runRows / 2)
                    {
                        return next;
                    }

                    (horizon, rows) = (next, more);
                    break;
                }

                if (step == 1)
                {
                    return horizon;
                }
            }
        }
    }

    /// <summary>
    /// The horizon with each chain whose limit is <paramref name="horizon"/> given <paramref name="step"/> more rows
    /// (its share then in <see cref="_wider"/>), and the chains not open yet that it passes opened.
    /// </summary>
    private long Wider(long horizon, int share, int step)
    {
        long next = _to;
        for (int i = 0; i < _count; i++)
        {
            Chain chain = _chains[i];
            _wider[i] = _shares[i];
            if (chain.IsOpen)
            {
                if (chain.Limit(_shares[i]) <= horizon)
                {
                    _wider[i] = Math.Min(_shares[i] + step, chain.Times.Length - 1);
                }

                next = Math.Min(next, Buffered(chain, _wider[i]));
            }
        }

        for (int i = 0; i < _count; i++)
        {
            Chain chain = _chains[i];
            if (!chain.IsOpen && chain.HasPartitionsLeft && chain.Key < next && chain.Open(_from, _to))
            {
                (_shares[i], _wider[i]) = (share, share);
                next = Math.Min(next, Buffered(chain, share));
            }
        }

        return next;
    }

    /// <summary>How many rows of the open chains come before <paramref name="horizon"/>, all of them buffered.</summary>
    private int RowsBefore(long horizon)
    {
        int rows = 0;
        for (int i = 0; i < _count; i++)
        {
            rows += _chains[i].IsOpen ? _chains[i].CountBefore(horizon) : 0;
        }

        return rows;
    }

    /// <summary>
    /// Opens on every core the chains not open yet whose first row comes first, when they are many (instruments
    /// whose bars start on one minute, a new day's partitions): a replay of small partitions is mostly their opens.
    /// Returns the lowest of their limits, <see cref="long.MaxValue"/> where none was opened.
    /// </summary>
    private long OpenTogether(long horizon, int share)
    {
        long first = long.MaxValue;
        int together = 0;
        for (int i = 0; i < _count; i++)
        {
            Chain chain = _chains[i];
            if (!chain.IsOpen && chain.Key <= first)
            {
                together = chain.Key < first ? 1 : together + 1;
                first = chain.Key;
            }
        }

        if (together < ParallelOpens || first > horizon || first >= _to)
        {
            return long.MaxValue;
        }

        var chains = new Chain[together];
        for (int i = 0, at = 0; i < _count; i++)
        {
            if (!_chains[i].IsOpen && _chains[i].Key == first)
            {
                chains[at++] = _chains[i];
            }
        }

        // A chain that has no rows left is left closed, and the pass after drops it.
        _catalog.ReadAhead(chains.Select(chain => chain.Upcoming).OfType<CatalogPartition>().ToArray(), _columns);
        var limits = new long[together];
        EveryCore.For(together, i => limits[i] = chains[i].Open(_from, _to) ? Buffered(chains[i], share) : long.MaxValue);

        return limits.Min();
    }

    /// <summary>Buffers at least <paramref name="share"/> of the open chain's next rows where it has them, and returns its limit.</summary>
    private static long Buffered(Chain chain, int share)
    {
        chain.TopUp(share + 1);
        return chain.Limit(share);
    }

    /// <summary>Adds the open chain's rows before <paramref name="horizon"/> to the run; false when the chain has no rows left.</summary>
    private bool TakeBefore(Chain chain, long horizon, CatalogRun run)
    {
        int rows = chain.CountBefore(horizon);
        if (rows == 0)
        {
            return true;
        }

        Gather(chain, rows, run);
        return chain.Consume(rows);
    }

    /// <summary>
    /// Adds every row of the chain at <paramref name="ticks"/> to the run, reading on past its buffer; false when it
    /// has no rows left.
    /// </summary>
    private bool TakeAt(Chain chain, long ticks, CatalogRun run)
    {
        while (true)
        {
            if (!chain.IsOpen)
            {
                if (chain.Key != ticks)
                {
                    return true;
                }

                if (!chain.Open(_from, _to))
                {
                    return false;
                }
            }

            int rows = chain.CountAt(ticks);
            if (rows == 0)
            {
                return true;
            }

            Gather(chain, rows, run);
            if (!chain.Consume(rows))
            {
                return false;
            }
        }
    }

    /// <summary>Adds the chain's next <paramref name="rows"/> rows, times and asked columns' values, to the run.</summary>
    private void Gather(Chain chain, int rows, CatalogRun run)
    {
        run.Add(chain.Partition, chain.BufferRow + chain.Position, chain.Times.AsSpan(chain.Position, rows));
        _copy ??= new ChainColumnCopy(_columns);
        ReadOnlySpan<DataTypeInfo> types = run.Types;
        for (int column = 0; column < types.Length; column++)
        {
            _copy.Run(types[column], chain, column, rows, run);
        }
    }

    /// <summary>Copies a chain's next rows' values of one column into a run, as the type the column stores.</summary>
    private sealed class ChainColumnCopy(string[] columns) : IDataTypeVisitor<int>
    {
        private Chain? _chain;
        private CatalogRun? _run;
        private int _column;
        private int _rows;

        public void Run(DataTypeInfo type, Chain chain, int column, int rows, CatalogRun run)
        {
            (_chain, _column, _rows, _run) = (chain, column, rows, run);
            type.Accept(this);
        }

        public int Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            ReadOnlySpan<T> values = _chain!.Values<T>(_column, columns[_column]).Slice(_chain.Position, _rows);
            MemoryMarshal.AsBytes(values).CopyTo(_run!.ValuesOf(_column, _rows));
            return _rows;
        }
    }
}
