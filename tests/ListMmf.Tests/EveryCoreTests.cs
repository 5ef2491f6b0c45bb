using System;
using System.Threading;
using Xunit;

namespace ListMmf.Tests;

/// <summary>Work run on every core fails as a loop in order would (<see cref="EveryCore"/>).</summary>
public sealed class EveryCoreTests
{
    [Fact]
    public void EveryIndexRunsOnce()
    {
        int[] runs = new int[10_000];

        EveryCore.For(runs.Length, i => Interlocked.Increment(ref runs[i]));

        Assert.All(runs, count => Assert.Equal(1, count));
    }

    [Fact]
    public void TheLowestIndexsFailureIsThrownThoughAHigherOneFailedFirst()
    {
        using var higherFailed = new ManualResetEventSlim();

        var thrown = Assert.Throws<ArgumentException>(() => EveryCore.For(1_000, i =>
        {
            if (i == 900)
            {
                higherFailed.Set();
                throw new InvalidOperationException("index 900");
            }

            if (i == 100)
            {
                // Where one thread runs both, 900 comes later: the wait then ends at its deadline.
                higherFailed.Wait(TimeSpan.FromSeconds(10));
                throw new ArgumentException("index 100");
            }
        }));

        Assert.Equal("index 100", thrown.Message);
    }
}
