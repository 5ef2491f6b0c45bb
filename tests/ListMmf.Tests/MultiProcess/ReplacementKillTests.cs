using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using ListMmf.Storage;
using Xunit;
using Xunit.Abstractions;

namespace ListMmf.Tests.MultiProcess;

/// <summary>
/// A writer process that appends and drops its oldest items (TruncateBeginning) over and over is killed again and
/// again, at random times and at every named step of a replacement, while reader threads here read the file live.
/// After each kill the next writer opens: every item any reader saw is right, every reader reaches the file the
/// path names, and nothing the killed writer was writing is left beside the file.
/// </summary>
[Collection(nameof(LiveReaderStressTests))]
public sealed class ReplacementKillTests : IDisposable
{
    /// <summary>100 per backend on Linux; under Wine, where starting a process takes seconds, 20.</summary>
    private static readonly int Kills = OperatingSystem.IsWindows() ? 20 : 100;
    private const int Readers = 2;

    /// <summary>
    /// The steps a writer may be killed before: the steps within a rename that takes two renames run only on
    /// Windows (under Wine here; NTFS with POSIX renames takes one, and a writer waiting for them is killed at random).
    /// </summary>
    private static readonly int Steps = OperatingSystem.IsWindows() ? Enum.GetValues<ReplacementStep>().Length : (int)ReplacementStep.OpenNew + 1;
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(5);
    private readonly TempDirectory _directory = new();
    private readonly ITestOutputHelper _output;

    public ReplacementKillTests(ITestOutputHelper output) => _output = output;

    public void Dispose() => _directory.Dispose();

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void WritersKilledDuringReplacementsLoseNothingStrandNoReaderAndLeaveNothingBehind(MappingBackend backend)
    {
        string path = _directory.File("window.bin");
        using (new ListMmf<long>(path, FileAccess.ReadWrite, Backends.Options(backend)))
        {
        }

        var random = new Random(20261124);
        var killsAt = new Dictionary<string, int>();
        int stranded = 0, leftovers = 0;
        string? firstLeftover = null;
        using var readers = new ReaderThreads(path, backend, Readers);
        for (int kill = 0; kill < Kills; kill++)
        {
            // Half the writers are killed from here at a random moment; half kill themselves just before a chosen
            // step of one of their first replacements, so that every crash point is met.
            string step = random.Next(2) == 0 ? "none" : Enum.GetName(Enum.GetValues<ReplacementStep>()[random.Next(Steps)])!;
            using (var writer = ChildProcess.Start("replace-kill", path, backend.ToString(), step, random.Next(3).ToString(System.Globalization.CultureInfo.InvariantCulture)))
            {
                Assert.Equal("ready", writer.ReadLine());
                bool selfKilled = step != "none" && writer.TryWaitForExit(Deadline);
                if (!selfKilled)
                {
                    Thread.Sleep(random.Next(0, 60));
                    writer.Kill();
                }

                string at = selfKilled ? step : "random";
                killsAt[at] = killsAt.GetValueOrDefault(at) + 1;
            }

            using var next = new ListMmf<long>(path, FileAccess.ReadWrite, Backends.Options(backend));
            string[] left = Directory.GetFiles(_directory.Path).Where(file => !file.EndsWith("window.bin", StringComparison.Ordinal) && !file.EndsWith(WriterLock.SidecarSuffix, StringComparison.Ordinal) && !IsDeletedButOpen(file)).ToArray();
            leftovers += left.Length;
            firstLeftover ??= left.FirstOrDefault();
            long[] items = next.ToArray();
            Assert.True(ReaderThreads.Consecutive(items), $"after kill {kill} the file does not hold consecutive values");
            if (!readers.ReachWithin(next.Count, next.Count == 0 ? -1 : next[0], Deadline))
            {
                stranded++;
            }
        }

        (long reads, long wrong, string? firstWrong) = readers.Stop();
        string figures = string.Join(", ", killsAt.OrderBy(pair => pair.Key, StringComparer.Ordinal).Select(pair => $"{pair.Key} {pair.Value}"));
        StressReport.Publish(_output, $"replacement kills ({backend}): kills={Kills} ({figures}), reads={reads} wrong={wrong} stranded={stranded} leftovers={leftovers}");
        Assert.True(wrong == 0, $"{wrong} reads saw values that are not consecutive, the first: {firstWrong}");
        Assert.True(stranded == 0, $"{stranded} of {Kills} times a reader did not reach the file at the path");
        Assert.True(leftovers == 0, $"{leftovers} files were left beside the list after the next writer's open, the first: {firstLeftover}");
        Assert.True(reads > Kills, $"the readers read only {reads} times");
    }

    /// <summary>
    /// Whether <paramref name="file"/> is an old file a Windows replacement moved aside and deleted, which keeps its
    /// name until its last reader closes it where the system has no POSIX deletes (Wine, FAT, older Windows).
    /// </summary>
    private static bool IsDeletedButOpen(string file) =>
        OperatingSystem.IsWindows() && System.Text.RegularExpressions.Regex.IsMatch(file, @"\.listmmf\.old[0-9]+$");

    /// <summary>
    /// Readers on threads of their own, each with its own list: they read the whole list over and over, check that
    /// its values are consecutive, and publish the count and first value they last saw.
    /// </summary>
    private sealed class ReaderThreads : IDisposable
    {
        private readonly Thread[] _threads;
        private readonly (long Count, long First)[] _seen;
        private volatile bool _stop;
        private long _reads;
        private long _wrong;
        private string? _firstWrong;

        public ReaderThreads(string path, MappingBackend backend, int count)
        {
            _seen = new (long, long)[count];
            _threads = Enumerable.Range(0, count).Select(index => new Thread(() => Read(path, backend, index))).ToArray();
            foreach (Thread thread in _threads)
            {
                thread.Start();
            }
        }

        public static bool Consecutive(ReadOnlySpan<long> values)
        {
            for (int i = 1; i < values.Length; i++)
            {
                if (values[i] != values[i - 1] + 1)
                {
                    return false;
                }
            }

            return true;
        }

        /// <summary>Whether every reader sees a list of <paramref name="count"/> values from <paramref name="first"/> within <paramref name="deadline"/>.</summary>
        public bool ReachWithin(long count, long first, TimeSpan deadline)
        {
            var clock = Stopwatch.StartNew();
            while (clock.Elapsed < deadline)
            {
                lock (_seen)
                {
                    if (_seen.All(seen => seen == (count, first)))
                    {
                        return true;
                    }
                }

                Thread.Yield();
            }

            return false;
        }

        public (long Reads, long Wrong, string? FirstWrong) Stop()
        {
            _stop = true;
            foreach (Thread thread in _threads)
            {
                thread.Join();
            }

            return (_reads, _wrong, _firstWrong);
        }

        public void Dispose() => Stop();

        private void Read(string path, MappingBackend backend, int index)
        {
            using var list = new ListMmf<long>(path, FileAccess.Read, Backends.Options(backend));
            var idle = default(SpinWait);
            while (!_stop)
            {
                // One enumeration reads one file: a count and a range taken in two calls may straddle a move.
                long count = 0, first = -1, previous = -1;
                bool consecutive = true;
                try
                {
                    foreach (long value in list)
                    {
                        first = count++ == 0 ? value : first;
                        consecutive &= previous == -1 || value == previous + 1;
                        previous = value;
                    }
                }
                catch (Exception exception)
                {
                    consecutive = false;
                    Interlocked.CompareExchange(ref _firstWrong, $"reader {index}: {exception}", null);
                }

                if (!consecutive)
                {
                    Interlocked.Increment(ref _wrong);
                    Interlocked.CompareExchange(ref _firstWrong, $"reader {index}: {count} values from {first} are not consecutive", null);
                }

                Interlocked.Increment(ref _reads);
                lock (_seen)
                {
                    _seen[index] = (count, first);
                }

                idle.SpinOnce();
            }
        }
    }
}
