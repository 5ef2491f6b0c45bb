using System;
using System.Diagnostics;
using System.IO;
using System.Threading;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// A child process never holds a writer's lock: .NET starts children with vfork, and until its exec a child holds a
/// copy of every descriptor, so a lock tied to a descriptor (flock) stayed held after the writer's Dispose.
/// </summary>
public sealed class WriterLockChildProcessTests : IDisposable
{
    private const int Reopens = 100_000;
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(5);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [UnixFact]
    public void WriterReopenedBesideChildProcessesStartingIsNeverRefused()
    {
        string path = _directory.File("reopened.bin");
        (int refusals, int children) = RunBesideChildren(Reopens, 100, () =>
        {
            using var writer = new ListMmf<long>(path);
        });

        Assert.True(refusals == 0, $"{refusals:N0} of {Reopens:N0} reopens were refused while {children:N0} children were started");
    }

    [UnixFact]
    public void TableReopenedBesideChildProcessesStartingIsNeverRefused()
    {
        string directory = _directory.File("table");
        using (TimeSeriesTable.Create(directory, new TimeSeriesTableSchema("time").Add<double>("price")))
        {
        }

        (int refusals, int children) = RunBesideChildren(Reopens / 10, 10, () =>
        {
            using var table = TimeSeriesTable.Open(directory);
        });

        Assert.True(refusals == 0, $"{refusals:N0} of {Reopens / 10:N0} table reopens were refused while {children:N0} children were started");
    }

    /// <summary>
    /// Runs <paramref name="reopen"/> <paramref name="reopens"/> times, and on until another thread, which starts
    /// /bin/true back to back, has started <paramref name="minimumChildren"/> (too few children would prove nothing,
    /// and how many start during a fixed count of reopens depends on how the machine shares its cores); returns how
    /// many reopens were refused and how many children were started.
    /// </summary>
    private static (int Refusals, int Children) RunBesideChildren(int reopens, int minimumChildren, Action reopen)
    {
        int children = 0;
        using var done = new CancellationTokenSource();
        var starter = new Thread(() =>
        {
            while (!done.IsCancellationRequested)
            {
                using var child = Process.Start(new ProcessStartInfo("/bin/true") { UseShellExecute = false })!;
                child.WaitForExit();
                Interlocked.Increment(ref children);
            }
        });
        starter.Start();
        try
        {
            var watch = Stopwatch.StartNew();
            int refusals = 0;
            for (int i = 0; i < reopens || Volatile.Read(ref children) < minimumChildren; i++)
            {
                Assert.True(watch.Elapsed < Deadline, $"{i:N0} reopens and {children:N0} children in {watch.Elapsed}: hung");
                try
                {
                    reopen();
                }
                catch (ListMmfLockedException)
                {
                    refusals++;
                }
            }

            return (refusals, Volatile.Read(ref children));
        }
        finally
        {
            done.Cancel();
            starter.Join();
        }
    }
}
