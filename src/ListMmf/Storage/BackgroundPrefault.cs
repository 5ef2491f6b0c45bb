using System;
using System.Threading;

namespace ListMmf.Storage;

/// <summary>
/// One prefault of a writer's mapping (<see cref="FileMapping.Prefault"/>) run on a thread-pool thread while the
/// writer appends below it, so that the writer's appends take neither the faults nor the zeroing of fresh pages. On
/// a virtual machine those are most of an append's cost: a first write to memory the host has not backed yet costs
/// far more than a second (benchmarks/README.md, "Append then durable").
/// </summary>
/// <remarks>
/// The writer owns the range between <see cref="Start"/> and <see cref="Finish"/> (or <see cref="Cancel"/>): it must
/// not write there, nor change the mapping, until one of them returns. Neither waits for the thread pool: a prefault
/// that has not started yet is taken back, and <see cref="Finish"/> runs it on the writer's thread.
/// </remarks>
internal sealed class BackgroundPrefault : IThreadPoolWorkItem, IDisposable
{
    private const int Idle = 0;
    private const int Queued = 1;
    private const int Running = 2;

    private readonly FileMapping _mapping;
    private readonly ManualResetEventSlim _done = new(initialState: true);
    private int _state;
    private long _offset;
    private long _length;
    private long _end;

    public BackgroundPrefault(FileMapping mapping) => _mapping = mapping;

    /// <summary>Queues the prefault of <paramref name="length"/> bytes from <paramref name="offset"/>; only when none is pending.</summary>
    public void Start(long offset, long length)
    {
        _offset = offset;
        _length = length;
        _end = offset;
        _done.Reset();
        Volatile.Write(ref _state, Queued);
        ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
    }

    /// <summary>
    /// Ends the pending prefault: waits for it where it runs, runs it here where it has not started. Returns the end
    /// of the bytes it faulted in (its offset where it faulted in none), or 0 where none was pending.
    /// </summary>
    public long Finish()
    {
        switch (Interlocked.CompareExchange(ref _state, Idle, Queued))
        {
            case Idle:
                return 0;
            case Queued:
                _done.Set();
                return _mapping.Prefault(_offset, _length);
            default:
                _done.Wait();
                Volatile.Write(ref _state, Idle);
                return _end;
        }
    }

    /// <summary>
    /// Ends the pending prefault without running it where it has not started: for a caller about to move, cut or
    /// unmap the mapping, for which those pages would be wasted. Returns what <see cref="Finish"/> returns, 0 for a
    /// prefault taken back unstarted.
    /// </summary>
    public long Cancel()
    {
        if (Interlocked.CompareExchange(ref _state, Idle, Queued) == Queued)
        {
            _done.Set();
            return 0;
        }

        return Finish();
    }

    /// <inheritdoc/>
    public void Execute()
    {
        if (Interlocked.CompareExchange(ref _state, Running, Queued) != Queued)
        {
            // Taken back: run on the writer's thread by Finish, or dropped by Cancel.
            return;
        }

        try
        {
            _end = _mapping.Prefault(_offset, _length);
        }
        catch (Exception)
        {
            // A head start only, never worth a process: the writer's own faults fill the pages, and report what is
            // wrong with the file.
        }
        finally
        {
            _done.Set();
        }
    }

    /// <summary>Ends the pending prefault (<see cref="Cancel"/>) and frees the event.</summary>
    public void Dispose()
    {
        Cancel();
        _done.Dispose();
    }
}
