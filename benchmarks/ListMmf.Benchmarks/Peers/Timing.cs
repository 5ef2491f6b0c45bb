using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using ListMmf.Benchmarks.Core;

namespace ListMmf.Benchmarks.Peers;

/// <summary>One timing: wall-clock and the process's CPU time (every thread's, so a store's worker threads count), per operation.</summary>
internal readonly record struct Timing(double WallNanoseconds, double CpuNanoseconds)
{
    /// <summary>How long a timed loop may run: a store too slow to finish is timed on fewer operations, never skipped.</summary>
    public static readonly TimeSpan Budget = TimeSpan.FromSeconds(3);

    /// <summary>How long an operation runs untimed before its first timing: longer than the JIT's tiering delay and its background compilation.</summary>
    public static readonly TimeSpan WarmUp = TimeSpan.FromSeconds(1);

    /// <summary>Times <paramref name="action"/> run once, as <paramref name="operations"/> operations.</summary>
    public static Timing Once(int operations, Action action)
    {
        TimeSpan cpu = Environment.CpuUsage.TotalTime;
        long start = Stopwatch.GetTimestamp();
        action();
        return Per(operations, Stopwatch.GetElapsedTime(start), Environment.CpuUsage.TotalTime - cpu);
    }

    /// <summary>
    /// Runs <paramref name="query"/> on 0, 1, ... until <paramref name="count"/> or <see cref="Budget"/>. With
    /// <paramref name="warmUp"/> it first runs it over and over for <see cref="WarmUp"/>, so that the JIT's tiered
    /// compilation has replaced the first, unoptimised code of this store's path before anything is timed.
    /// </summary>
    public static Timing Loop(int count, Action<int> query, bool warmUp)
    {
        if (warmUp)
        {
            Warm(count, query);
        }

        TimeSpan cpu = Environment.CpuUsage.TotalTime;
        long start = Stopwatch.GetTimestamp();
        int done = 0;
        while (done < count)
        {
            query(done++);
            if ((done & 15) == 0 && Stopwatch.GetElapsedTime(start) > Budget)
            {
                break;
            }
        }

        return Per(done, Stopwatch.GetElapsedTime(start), Environment.CpuUsage.TotalTime - cpu);
    }

    /// <summary>Runs <paramref name="query"/> over and over for <see cref="WarmUp"/>.</summary>
    public static void Warm(int count, Action<int> query)
    {
        long start = Stopwatch.GetTimestamp();
        for (int i = 0; Stopwatch.GetElapsedTime(start) < WarmUp; i = (i + 1) % count)
        {
            query(i);
        }
    }

    /// <summary>The median wall time and the median CPU time of <paramref name="timings"/>, each on its own.</summary>
    public static Timing Median(IReadOnlyCollection<Timing> timings) =>
        new(Medians.Of(timings.Select(t => t.WallNanoseconds)), Medians.Of(timings.Select(t => t.CpuNanoseconds)));

    private static Timing Per(int operations, TimeSpan wall, TimeSpan cpu) =>
        new(wall.TotalNanoseconds / operations, cpu.TotalNanoseconds / operations);
}
