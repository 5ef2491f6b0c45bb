using System;
using System.Diagnostics;
using System.Globalization;

namespace ListMmf.Benchmarks.Ipc;

/// <summary>Percentiles of a set of latencies, in nanoseconds.</summary>
internal readonly record struct LatencyStats(long Count, double P50, double P99, double P999, double Max)
{
    public static LatencyStats FromTicks(long[] ticks, int count)
    {
        if (count == 0)
        {
            return default;
        }

        Span<long> sorted = ticks.AsSpan(0, count);
        sorted.Sort();
        double scale = 1e9 / Stopwatch.Frequency;
        return new LatencyStats(
            count,
            sorted[Index(count, 0.50)] * scale,
            sorted[Index(count, 0.99)] * scale,
            sorted[Index(count, 0.999)] * scale,
            sorted[count - 1] * scale);
    }

    /// <summary>Parses what <see cref="ToString"/> printed: "count p50 p99 p999 max".</summary>
    public static LatencyStats Parse(string line)
    {
        string[] parts = line.Split(' ');
        double At(int i) => double.Parse(parts[i], CultureInfo.InvariantCulture);
        return new LatencyStats((long)At(0), At(1), At(2), At(3), At(4));
    }

    /// <summary>Combines readers' figures: counts add, each percentile is the worst reader's.</summary>
    public LatencyStats Worst(LatencyStats other) =>
        new(Count + other.Count, Math.Max(P50, other.P50), Math.Max(P99, other.P99), Math.Max(P999, other.P999), Math.Max(Max, other.Max));

    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Count} {P50:F0} {P99:F0} {P999:F0} {Max:F0}");

    private static int Index(int count, double quantile) => Math.Min(count - 1, (int)Math.Ceiling(quantile * count) - 1);
}
