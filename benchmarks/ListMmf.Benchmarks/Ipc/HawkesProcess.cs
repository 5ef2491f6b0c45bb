using System;
using System.Collections.Generic;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Ipc;

/// <summary>
/// Event times of a self-exciting (Hawkes) process with an exponential kernel, by Ogata's thinning: a baseline
/// rate, and each event raising the rate by <c>alpha</c>, decaying at <c>beta</c>. Market data arrives like this,
/// in bursts. Precomputed before a run, so that drawing them costs the writer nothing.
/// </summary>
internal static class HawkesProcess
{
    /// <summary>Event times in seconds from 0 to <paramref name="seconds"/>.</summary>
    public static double[] Times(double baseline, double alpha, double beta, double seconds, ulong seed)
    {
        var random = new SplitMix64(seed);
        var times = new List<double>();
        double t = 0;
        double excitation = 0;
        while (true)
        {
            double bound = baseline + excitation;
            double wait = -Math.Log(Uniform(ref random)) / bound;
            t += wait;
            excitation *= Math.Exp(-beta * wait);
            if (t >= seconds)
            {
                return times.ToArray();
            }

            if (Uniform(ref random) * bound <= baseline + excitation)
            {
                times.Add(t);
                excitation += alpha;
            }
        }
    }

    private static double Uniform(ref SplitMix64 random) => ((random.Next() >> 11) + 0.5) / (1UL << 53);
}
