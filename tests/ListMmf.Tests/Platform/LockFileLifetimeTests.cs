using System;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using ListMmf.Tests.MultiProcess;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// The writer lock's sidecar exists while its writer does: folders, and copies of them, carry no lock files once
/// their writers are gone, and a sidecar has the permissions of the file it guards, never more.
/// </summary>
public sealed class LockFileLifetimeTests : IDisposable
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(5);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("locked.bin");

    [LockFileRemovalFact]
    public void AWriterHoldsItsLockFileAndRemovesItWhenDisposed()
    {
        using (var writer = new ListMmf<long>(FilePath))
        {
            writer.Add(1);
            Assert.Equal(["locked.bin", "locked.bin.writer-lock"], FileNames());
        }

        Assert.Equal(["locked.bin"], FileNames());
    }

    [LockFileRemovalFact]
    public void ATableOfSevenColumnsLeavesOnlyItsManifestAndColumnsOnceDisposed()
    {
        string folder = _directory.File("ticks");
        var schema = new TimeSeriesTableSchema("time");
        foreach (string column in new[] { "open", "high", "low", "close", "bid", "ask" })
        {
            schema.Add<double>(column);
        }

        using (TimeSeriesTable.Create(folder, schema))
        {
        }

        using (var table = TimeSeriesTable.Open(folder))
        {
            Assert.Contains(Directory.GetFiles(folder), file => file.EndsWith(".writer-lock", StringComparison.Ordinal));
        }

        Assert.DoesNotContain(Directory.GetFiles(folder), file => file.EndsWith(".writer-lock", StringComparison.Ordinal));
        Assert.False(File.Exists(folder + ".writer-lock"), "a lock file was left beside the table's folder");
    }

    [LockFileRemovalFact]
    public void TheLockFileAKilledWriterLeftIsTakenAndRemovedByTheNextWriter()
    {
        using (var holder = ChildProcess.Start("hold", FilePath))
        {
            Assert.Equal("holding", holder.ReadLine());
            holder.Kill();
        }

        using (var next = new ListMmf<long>(FilePath))
        {
            next.Add(1);
        }

        Assert.Equal(["locked.bin"], FileNames());
    }

    [LockFileRemovalFact]
    public void WritersOfSeveralProcessesTakingTurnsNeverHoldTheFileAtOnce()
    {
        const int Writers = 4;
        int turns = OperatingSystem.IsWindows() ? 1_000 : 4_000;
        using (new ListMmf<long>(FilePath))
        {
        }

        var children = Enumerable.Range(0, Writers).Select(_ => ChildProcess.Start("take-turns", FilePath, turns.ToString(System.Globalization.CultureInfo.InvariantCulture))).ToArray();
        try
        {
            foreach (ChildProcess child in children)
            {
                Assert.StartsWith($"turns={turns} ", child.ReadLine(), StringComparison.Ordinal);
                Assert.Equal(0, child.WaitForExit(Deadline));
            }
        }
        finally
        {
            foreach (ChildProcess child in children)
            {
                child.Dispose();
            }
        }

        using var list = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Equal(Writers * turns, list.Count);
        Assert.Equal(Enumerable.Range(0, Writers * turns).Select(i => TestHost.Program.ValueAt(i)), list.ToArray());
        Assert.Equal(["locked.bin"], FileNames());
    }

    /// <summary>
    /// A file replaced over and over frees inode numbers that new lock files take at once: an identity read before
    /// the registry's gate was an old file's, and matched a sidecar registered meanwhile (1 and 2 of about 100,000
    /// header reads were refused as "the writer lock of" another test's column in a CI run).
    /// </summary>
    [PathIdentityFact]
    public void HeaderReadsOfAFileBeingReplacedBesideWritersComingAndGoingAreNeverTakenForALockFile()
    {
        using var replaced = new ListMmf<long>(FilePath);
        replaced.AddRange(new long[1_000]);
        int refused = 0, reads = 0;
        string? firstRefusal = null;
        using var done = new System.Threading.CancellationTokenSource();
        var threads = new[]
        {
            new System.Threading.Thread(() =>
            {
                for (int i = 0; !done.IsCancellationRequested; i++)
                {
                    using var other = new ListMmf<long>(_directory.File($"other{i % 8}.bin"));
                }
            }),
            new System.Threading.Thread(() =>
            {
                while (!done.IsCancellationRequested)
                {
                    try
                    {
                        _ = ListMmfFileInfo.Read(FilePath);
                        reads++;
                    }
                    catch (ListMmfException exception) when (exception.Message.Contains("writer lock", StringComparison.Ordinal))
                    {
                        firstRefusal ??= exception.Message;
                        refused++;
                    }
                }
            }),
        };
        foreach (var thread in threads)
        {
            thread.Start();
        }

        for (int round = 0; round < 6_000; round++)
        {
            replaced.AddRange(new long[10]);
            replaced.TruncateBeginning(10);
        }

        done.Cancel();
        foreach (var thread in threads)
        {
            thread.Join();
        }

        Assert.True(refused == 0, $"{refused} of {reads + refused} header reads were refused as a lock file: {firstRefusal}");
    }

    [LinuxFact]
    [SupportedOSPlatform("linux")]
    public void ALockFileHasExactlyTheReadAndWritePermissionsOfItsFile()
    {
        using (new ListMmf<long>(FilePath))
        {
        }

        File.SetUnixFileMode(FilePath, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead | UnixFileMode.GroupWrite);

        using var writer = new ListMmf<long>(FilePath);

        Assert.Equal(File.GetUnixFileMode(FilePath), File.GetUnixFileMode(FilePath + ".writer-lock"));
    }

    [LinuxFact]
    [SupportedOSPlatform("linux")]
    public void ALockFileBesideANewFileIsNoMoreWritableThanTheFile()
    {
        using var writer = new ListMmf<long>(FilePath);

        UnixFileMode mode = File.GetUnixFileMode(FilePath + ".writer-lock");

        Assert.Equal(File.GetUnixFileMode(FilePath), mode);
        Assert.False(mode.HasFlag(UnixFileMode.OtherWrite), $"the lock file is writable by everyone ({mode})");
    }

    private string[] FileNames() => Directory.GetFiles(_directory.Path).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToArray()!;
}
