using System;
using System.Collections.Concurrent;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

namespace ListMmf;

/// <summary>
/// Work of many independent items run on every core, failing as a loop in order would: with the failure of the
/// lowest index, its own type and stack, whichever thread met a failure first.
/// </summary>
internal static class EveryCore
{
    /// <summary>
    /// Runs <paramref name="body"/> for each index in [0, <paramref name="count"/>) on every core. Once an index
    /// failed, the indices after it are not started; those before it still run, so that the failure thrown is the one
    /// a loop in order meets first.
    /// </summary>
    /// <exception cref="Exception">The failure of the lowest index that failed, rethrown as it was thrown.</exception>
    public static void For(int count, Action<int> body)
    {
        if (count <= 1 || Environment.ProcessorCount == 1)
        {
            for (int i = 0; i < count; i++)
            {
                body(i);
            }

            return;
        }

        var gate = new object();
        int lowest = int.MaxValue;
        ExceptionDispatchInfo? failure = null;
        Parallel.ForEach(Partitioner.Create(0, count), range =>
        {
            for (int i = range.Item1; i < range.Item2 && i < Volatile.Read(ref lowest); i++)
            {
                try
                {
                    body(i);
                }
                catch (Exception exception)
                {
                    lock (gate)
                    {
                        if (i < lowest)
                        {
                            (lowest, failure) = (i, ExceptionDispatchInfo.Capture(exception));
                        }
                    }

                    return;
                }
            }
        });
        failure?.Throw();
    }
}
