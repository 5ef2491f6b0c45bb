using System;
using System.Threading;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>The runner that lets many files' flushes wait together: every job runs, at most so many at once, failures kept.</summary>
public sealed class ConcurrentFlushTests
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(1);

    [Fact]
    public void EveryJobRunsOnceEvenAfterOneFailed()
    {
        int[] runs = new int[100];

        Assert.Throws<InvalidOperationException>(() => ConcurrentFlush.Run(runs.Length, i =>
        {
            Interlocked.Increment(ref runs[i]);
            if (i == 3)
            {
                throw new InvalidOperationException("job 3");
            }
        }));

        Assert.All(runs, count => Assert.Equal(1, count));
    }

    [Fact]
    public void TheFailureOfTheLowestIndexIsThrownAsItWas()
    {
        var thrown = Assert.Throws<ListMmfException>(() => ConcurrentFlush.Run(40, i =>
        {
            if (i is 7 or 30)
            {
                throw new ListMmfException($"file-{i}", "flush failed");
            }
        }));

        Assert.Equal("file-7", thrown.FilePath);
    }

    [Fact]
    public void JobsThatWaitRunTogetherUpToTheLimit()
    {
        // Every job waits until the limit's worth of jobs is running at once (or the deadline, which only a runner
        // that runs fewer at once reaches): a flush's barrier is such a wait.
        int running = 0;
        int most = 0;
        int arrived = 0;
        using var together = new CountdownEvent(ConcurrentFlush.MaxConcurrency);
        ConcurrentFlush.Run(ConcurrentFlush.MaxConcurrency * 3, _ =>
        {
            int now = Interlocked.Increment(ref running);
            InterlockedMax(ref most, now);
            if (Interlocked.Increment(ref arrived) <= ConcurrentFlush.MaxConcurrency)
            {
                together.Signal();
            }

            together.Wait(Deadline);
            Interlocked.Decrement(ref running);
        });

        Assert.Equal(ConcurrentFlush.MaxConcurrency, most);
    }

    private static void InterlockedMax(ref int target, int value)
    {
        int seen;
        while (value > (seen = Volatile.Read(ref target)) && Interlocked.CompareExchange(ref target, value, seen) != seen)
        {
        }
    }
}
