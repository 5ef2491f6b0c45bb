using System;
using System.Collections.Concurrent;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace ListMmf.Storage;

/// <summary>
/// Runs independent flushes at once, so that many files' barriers wait together rather than one after another: the
/// kernel joins concurrent journal commits (ext4, XFS), and a device works on queued writes together.
/// </summary>
/// <remarks>
/// A flush blocks its thread for a barrier, so the jobs run on threads of their own (started once, then waiting for
/// work), never on the thread pool: blocked pool threads would starve the application's tasks, and the pool adds
/// threads too slowly to overlap the waits.
/// </remarks>
internal static class ConcurrentFlush
{
    /// <summary>The most flushes in progress at once: the caller's thread and the helpers'.</summary>
    internal const int MaxConcurrency = 16;

    private static readonly BlockingCollection<Batch> Work = [];

    private static int _helpers;

    /// <summary>
    /// Runs <paramref name="job"/> for each index below <paramref name="count"/>, at most <see cref="MaxConcurrency"/> at
    /// once, the caller's thread among them, and returns when all have ended. Every job runs even if another failed;
    /// the failure of the lowest index is then thrown as it was.
    /// </summary>
    public static void Run(int count, Action<int> job)
    {
        if (count <= 1)
        {
            if (count == 1)
            {
                job(0);
            }

            return;
        }

        var batch = new Batch(count, job);
        int helpers = Math.Min(count, MaxConcurrency) - 1;
        StartHelpers(helpers);
        for (int i = 0; i < helpers; i++)
        {
            Work.Add(batch);
        }

        batch.Help();
        batch.Wait();
    }

    private static void StartHelpers(int wanted)
    {
        while (Volatile.Read(ref _helpers) < wanted)
        {
            int started = Volatile.Read(ref _helpers);
            if (Interlocked.CompareExchange(ref _helpers, started + 1, started) == started)
            {
                // A helper only waits and calls into the system: a small stack is enough.
                // Without the first caller's execution context (its AsyncLocals), which the thread would keep for good.
                var thread = new Thread(Helper, maxStackSize: 256 * 1024) { IsBackground = true, Name = "ListMmf flush" };
                thread.UnsafeStart();
            }
        }
    }

    private static void Helper()
    {
        foreach (Batch batch in Work.GetConsumingEnumerable())
        {
            batch.Help();
        }
    }

    /// <summary>One call's jobs: taken by index by whichever thread is free, the failures kept by index.</summary>
    private sealed class Batch(int count, Action<int> job)
    {
        private readonly Exception?[] _failures = new Exception?[count];

        private readonly object _gate = new();

        private int _next = -1;

        private int _done;

        public void Help()
        {
            int index;
            while ((index = Interlocked.Increment(ref _next)) < count)
            {
                try
                {
                    job(index);
                }
                catch (Exception exception)
                {
                    _failures[index] = exception;
                }

                if (Interlocked.Increment(ref _done) == count)
                {
                    lock (_gate)
                    {
                        Monitor.PulseAll(_gate);
                    }
                }
            }
        }

        public void Wait()
        {
            lock (_gate)
            {
                while (Volatile.Read(ref _done) < count)
                {
                    Monitor.Wait(_gate);
                }
            }

            foreach (Exception? failure in _failures)
            {
                if (failure is not null)
                {
                    ExceptionDispatchInfo.Throw(failure);
                }
            }
        }
    }
}
