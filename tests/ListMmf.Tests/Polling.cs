using System;
using System.Diagnostics;
using System.Threading;

namespace ListMmf.Tests;

/// <summary>Waiting for another thread or process without sleeps: poll with a deadline that only a hang reaches.</summary>
internal static class Polling
{
    /// <summary>Polls <paramref name="condition"/> until it holds; past <paramref name="deadline"/>, fails naming <paramref name="what"/>.</summary>
    /// <exception cref="TimeoutException">The condition did not hold within the deadline.</exception>
    public static void Until(Func<bool> condition, string what, TimeSpan deadline)
    {
        var clock = Stopwatch.StartNew();
        var idle = new SpinWait();
        while (!condition())
        {
            if (clock.Elapsed > deadline)
            {
                throw new TimeoutException($"waited {deadline} for {what}");
            }

            idle.SpinOnce();
        }
    }
}
