using System;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// The search targets: uniform random Unix seconds between the dataset's first and last tick, from fixed seeds so
/// every run and every implementation searches the same values.
/// </summary>
internal static class QueryTargets
{
    /// <summary>Searches per measured operation, as in the seed study.</summary>
    public const int PerOperation = 1_000;

    /// <summary>The seed study's case: one set of 1,000 targets searched again and again (CPU caches warm).</summary>
    public static int[] Fixed(int first, int last) => Uniform(first, last, PerOperation, seed: 1_000);

    /// <summary>
    /// A long run of targets consumed 1,000 at a time, so that every operation searches values not searched
    /// before (CPU caches cold; the data itself in the page cache).
    /// </summary>
    public static int[] Fresh(int first, int last, int count) => Uniform(first, last, count, seed: 2_000);

    /// <summary>Fresh targets from another seed, for the first-searches-after-open measurement.</summary>
    public static int[] AfterOpen(int first, int last, int count, int run) => Uniform(first, last, count, seed: 3_000 + (ulong)run);

    private static int[] Uniform(int first, int last, int count, ulong seed)
    {
        var random = new SplitMix64(seed);
        uint span = (uint)((long)last - first + 1);
        var targets = new int[count];
        for (int i = 0; i < targets.Length; i++)
        {
            targets[i] = (int)(first + random.Below(span));
        }

        return targets;
    }
}
