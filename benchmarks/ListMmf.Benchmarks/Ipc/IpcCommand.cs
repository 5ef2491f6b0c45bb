using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Threading;
using ListMmf.Benchmarks.Core;

namespace ListMmf.Benchmarks.Ipc;

/// <summary>
/// <c>ipc</c>: the seed study's single-writer/many-readers latency measurement with this library. This process is
/// the writer: it appends at the times of a bursty (Hawkes) process and times every append. 1, 3, 6, 9 and 12
/// reader processes poll the count at Normal-distributed intervals and record how long each item took to become
/// visible. Control experiments measure the timer itself, a 192-byte copy, and a thread-to-thread round trip; and in
/// every run, beside each append, the same item copied into a private array: what the machine alone adds to an
/// operation that short, with the same readers running.
/// </summary>
internal static class IpcCommand
{
    private const double BaselineRate = 2_000;
    private const double Excitation = 700;
    private const double Decay = 1_000;
    private const double PollMeanMicroseconds = 1_000;
    private const double PollSdMicroseconds = 250;
    private const int ControlSamples = 200_000;

    public static int Run(int[] readerCounts, double seconds)
    {
        Console.WriteLine($"{RuntimeInformation.OSDescription}, {RuntimeInformation.ProcessArchitecture}, {Environment.ProcessorCount} cores, .NET {Environment.Version}, Stopwatch {Stopwatch.Frequency:N0} Hz");
        Console.WriteLine($"writer: Hawkes arrivals (baseline {BaselineRate:N0}/s, jump {Excitation:N0}/s, decay {Decay:N0}/s), {seconds} s per run, capacity preallocated and (unless said) prefaulted");
        Console.WriteLine($"readers: separate processes polling every Normal({PollMeanMicroseconds:N0} µs, {PollSdMicroseconds:N0} µs), slept in whole milliseconds; 'spin' = one reader polling without pause");
        Console.WriteLine();
        Console.WriteLine("| control | samples | p50 ns | p99 ns | p99.9 ns | max ns |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|");
        PrintControl("empty operation (two clock reads)", EmptyOperation());
        PrintControl("192-byte copy", Copy192());
        PrintControl("thread round trip (signal, wait for ack)", ThreadRoundTrip());
        Console.WriteLine();
        Console.WriteLine("| item | readers | appends | append p50 ns | p99 ns | p99.9 ns | max ns | visible p50 ns | p99 ns | p99.9 ns | max ns |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        MeasureAll<BestBidAsk, QuoteItem>("quote", readerCounts, seconds);
        MeasureAll<int, TimestampItem>("timestamp", readerCounts, seconds);
        return 0;
    }

    /// <summary>Every reader count with the capacity prefaulted, one spinning reader, and the most readers without prefaulting.</summary>
    private static void MeasureAll<T, TItem>(string kind, int[] readerCounts, double seconds)
        where T : unmanaged
        where TItem : IIpcItem<T>
    {
        foreach (int readers in readerCounts)
        {
            Measure<T, TItem>(kind, readers.ToString(CultureInfo.InvariantCulture), readers, PollMeanMicroseconds, seconds, prefault: true);
        }

        Measure<T, TItem>(kind, "1, spinning", 1, 0, seconds, prefault: true);
        int most = readerCounts.Max();
        Measure<T, TItem>(kind, $"{most}, no prefault", most, PollMeanMicroseconds, seconds, prefault: false);
    }

    private static void Measure<T, TItem>(string kind, string label, int readerCount, double pollMean, double seconds, bool prefault)
        where T : unmanaged
        where TItem : IIpcItem<T>
    {
        double[] events = HawkesProcess.Times(BaselineRate, Excitation, Decay, seconds, seed: (ulong)(readerCount + 1));
        string path = BenchmarkFiles.Fresh($"ipc-{kind}-{readerCount}");
        var appends = new long[events.Length];
        var copies = new long[events.Length];
        // Written through once before the loop: the first touch of its fresh pages would be timed otherwise.
        var ring = new T[1024];
        Array.Fill(ring, TItem.Stamped(0));
        var readers = new List<Process>();
        try
        {
            using var writer = new ListMmf<T>(path, FileAccess.ReadWrite, new ListMmfOptions { InitialCapacity = events.Length, PrefaultAhead = prefault });
            for (int r = 0; r < readerCount; r++)
            {
                Process reader = SelfProcess.Start("ipc-reader", kind, path, events.Length.ToString(CultureInfo.InvariantCulture), pollMean.ToString(CultureInfo.InvariantCulture), PollSdMicroseconds.ToString(CultureInfo.InvariantCulture), (r + 1).ToString(CultureInfo.InvariantCulture));
                readers.Add(reader);
                if (reader.StandardOutput.ReadLine() != "ready")
                {
                    throw new IOException($"reader {r} did not start: {reader.StandardError.ReadToEnd()}");
                }
            }

            long start = Clock.Now;
            for (int i = 0; i < events.Length; i++)
            {
                long due = start + Clock.FromSeconds(events[i]);
                while (Clock.Now < due)
                {
                    Thread.SpinWait(10);
                }

                // Each in turn first after the wait, so that neither always takes what the wait left behind.
                if ((i & 1) == 0)
                {
                    copies[i] = CopyTime<T, TItem>(ring, i);
                    appends[i] = AppendTime<T, TItem>(writer);
                }
                else
                {
                    appends[i] = AppendTime<T, TItem>(writer);
                    copies[i] = CopyTime<T, TItem>(ring, i);
                }
            }

            LatencyStats visible = default;
            foreach (Process reader in readers)
            {
                string last = reader.StandardOutput.ReadToEnd().Trim().Split('\n')[^1];
                if (!reader.WaitForExit(TimeSpan.FromSeconds(120)) || reader.ExitCode != 0)
                {
                    throw new IOException($"a reader failed: {last} {reader.StandardError.ReadToEnd()}");
                }

                visible = visible.Worst(LatencyStats.Parse(last));
            }

            LatencyStats append = LatencyStats.FromTicks(appends, appends.Length);
            LatencyStats copy = LatencyStats.FromTicks(copies, copies.Length);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {TItem.Name} | {label} | {append.Count:N0} | {append.P50:F0} | {append.P99:F0} | {append.P999:F0} | {append.Max:F0} | {visible.P50:F0} | {visible.P99:F0} | {visible.P999:F0} | {visible.Max:F0} |"));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {TItem.Name}, copied to a private array beside each append (control) | {label} | {copy.Count:N0} | {copy.P50:F0} | {copy.P99:F0} | {copy.P999:F0} | {copy.Max:F0} | | | | |"));
        }
        finally
        {
            foreach (Process reader in readers)
            {
                if (!reader.HasExited)
                {
                    reader.Kill();
                }

                reader.Dispose();
            }

            BenchmarkFiles.Delete(path);
        }
    }

    private static long AppendTime<T, TItem>(ListMmf<T> writer)
        where T : unmanaged
        where TItem : IIpcItem<T>
    {
        long before = Clock.Now;
        writer.Add(TItem.Stamped(before));
        return Clock.Now - before;
    }

    private static long CopyTime<T, TItem>(T[] ring, int i)
        where T : unmanaged
        where TItem : IIpcItem<T>
    {
        long before = Clock.Now;
        ring[i & (ring.Length - 1)] = TItem.Stamped(before);
        return Clock.Now - before;
    }

    private static LatencyStats EmptyOperation()
    {
        var samples = new long[ControlSamples];
        for (int i = 0; i < samples.Length; i++)
        {
            long before = Clock.Now;
            samples[i] = Clock.Now - before;
        }

        return LatencyStats.FromTicks(samples, samples.Length);
    }

    private static LatencyStats Copy192()
    {
        var samples = new long[ControlSamples];
        var source = QuoteItem.Stamped(1);
        var destination = new BestBidAsk[1024];
        for (int i = 0; i < samples.Length; i++)
        {
            long before = Clock.Now;
            destination[i & 1023] = source;
            samples[i] = Clock.Now - before;
        }

        return LatencyStats.FromTicks(samples, samples.Length);
    }

    private static LatencyStats ThreadRoundTrip()
    {
        var samples = new long[ControlSamples / 10];
        long signal = 0;
        long acknowledged = 0;
        var partner = new Thread(() =>
        {
            for (long expected = 1; expected <= samples.Length; expected++)
            {
                while (Volatile.Read(ref signal) != expected)
                {
                    Thread.SpinWait(1);
                }

                Volatile.Write(ref acknowledged, expected);
            }
        });
        partner.Start();
        for (int i = 0; i < samples.Length; i++)
        {
            long before = Clock.Now;
            Volatile.Write(ref signal, i + 1);
            while (Volatile.Read(ref acknowledged) != i + 1)
            {
                Thread.SpinWait(1);
            }

            samples[i] = Clock.Now - before;
        }

        partner.Join();
        return LatencyStats.FromTicks(samples, samples.Length);
    }

    private static void PrintControl(string name, LatencyStats stats) =>
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {name} | {stats.Count:N0} | {stats.P50:F0} | {stats.P99:F0} | {stats.P999:F0} | {stats.Max:F0} |"));
}
