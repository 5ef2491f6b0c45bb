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
        int refusals = 0;
        int children = RunBesideChildren(() =>
        {
            for (int i = 0; i < Reopens; i++)
            {
                try
                {
                    using var writer = new ListMmf<long>(path);
                }
                catch (ListMmfLockedException)
                {
                    refusals++;
                }
            }
        });

        Assert.True(children > 100, $"only {children} children were started beside the writer, too few to prove anything");
        Assert.True(refusals == 0, $"{refusals:N0} of {Reopens:N0} reopens were refused while {children:N0} children were started");
    }

    [UnixFact]
    public void TableReopenedBesideChildProcessesStartingIsNeverRefused()
    {
        string directory = _directory.File("table");
        using (TimeSeriesTable.Create(directory, new TimeSeriesTableSchema("time").Add<double>("price")))
        {
        }

        int refusals = 0;
        int children = RunBesideChildren(() =>
        {
            for (int i = 0; i < Reopens / 10; i++)
            {
                try
                {
                    using var table = TimeSeriesTable.Open(directory);
                }
                catch (ListMmfLockedException)
                {
                    refusals++;
                }
            }
        });

        Assert.True(children > 10, $"only {children} children were started beside the table, too few to prove anything");
        Assert.True(refusals == 0, $"{refusals:N0} of {Reopens / 10:N0} table reopens were refused while {children:N0} children were started");
    }

    /// <summary>Runs <paramref name="reopen"/> while another thread starts /bin/true back to back; returns how many it started.</summary>
    private static int RunBesideChildren(Action reopen)
    {
        int children = 0;
        using var done = new CancellationTokenSource();
        var starter = new Thread(() =>
        {
            while (!done.IsCancellationRequested)
            {
                using var child = Process.Start(new ProcessStartInfo("/bin/true") { UseShellExecute = false })!;
                child.WaitForExit();
                children++;
            }
        });
        starter.Start();
        try
        {
            var watch = Stopwatch.StartNew();
            reopen();
            Assert.True(watch.Elapsed < Deadline, $"the reopens took {watch.Elapsed}");
        }
        finally
        {
            done.Cancel();
            starter.Join();
        }

        return children;
    }
}
