using System;
using System.IO;
using System.Threading;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Ipc;

/// <summary>
/// <c>ipc-reader</c>, a reader process of the latency benchmark: polls the count at Normal-distributed intervals
/// (or without pause when the mean is 0), records how long each new item took to become visible, and prints the
/// percentiles when it has seen them all.
/// </summary>
internal static class IpcReader
{
    public static int Run<T, TItem>(string path, long expected, double meanMicroseconds, double sdMicroseconds, ulong seed)
        where T : unmanaged
        where TItem : IIpcItem<T>
    {
        using var list = new ListMmf<T>(path, FileAccess.Read);
        var ages = new long[expected];
        var random = new SplitMix64(seed);
        long seen = 0;
        long deadline = Clock.Now + Clock.FromSeconds(120);
        Console.WriteLine("ready");
        Console.Out.Flush();
        while (seen < expected && Clock.Now < deadline)
        {
            if (meanMicroseconds > 0)
            {
                Pause(Normal(ref random, meanMicroseconds, sdMicroseconds));
            }

            long count = list.Count;
            long now = Clock.Now;
            for (; seen < count; seen++)
            {
                ages[seen] = TItem.Age(list[seen], now);
            }
        }

        Console.WriteLine(LatencyStats.FromTicks(ages, (int)seen).ToString());
        return seen == expected ? 0 : 1;
    }

    /// <summary>Sleeps for whole milliseconds (the OS timer's grain), at least one.</summary>
    private static void Pause(double microseconds) => Thread.Sleep(Math.Max(1, (int)Math.Round(microseconds / 1000)));

    private static double Normal(ref SplitMix64 random, double mean, double sd)
    {
        double u1 = ((random.Next() >> 11) + 0.5) / (1UL << 53);
        double u2 = ((random.Next() >> 11) + 0.5) / (1UL << 53);
        return mean + (sd * Math.Sqrt(-2 * Math.Log(u1)) * Math.Cos(2 * Math.PI * u2));
    }
}
