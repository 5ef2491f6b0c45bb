using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text.Json;
using ListMmf.Hashing;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// <c>quick</c>: the LowerBound comparison without BenchmarkDotNet, in seconds. Rounds are interleaved (every
/// implementation once per round, in rotating order) and each figure is the median over rounds, so machine noise
/// hits all implementations alike. Every implementation's indices are hashed and compared; any disagreement makes
/// the command fail.
/// </summary>
internal static class QuickCommand
{
    public const long DefaultElements = 50_000_000;

    public static int Run(long elements, int rounds, string? jsonPath, string? svgPath)
    {
        string path = ReferenceDataset.Ensure(elements, Console.Error);
        List<LowerBoundRunner> runners = LowerBoundRunner.OpenAll(path);
        try
        {
            int first;
            int last;
            using (var list = new ListMmf<int>(path, FileAccess.Read))
            {
                first = list[0];
                last = list[list.Count - 1];
            }

            int[] fixedTargets = QueryTargets.Fixed(first, last);
            int[] freshTargets = QueryTargets.Fresh(first, last, QueryTargets.PerOperation * (rounds + 1));
            var results = new List<QuickResult>();
            results.AddRange(Measure("fixed", runners, rounds, _ => fixedTargets));
            results.AddRange(Measure("fresh", runners, rounds, round => freshTargets.AsSpan(round * QueryTargets.PerOperation, QueryTargets.PerOperation).ToArray()));

            Print(results, elements, rounds);
            if (jsonPath is not null)
            {
                File.WriteAllText(jsonPath, JsonSerializer.Serialize(results, QuickResultJson.Default.ListQuickResult));
            }

            if (svgPath is not null)
            {
                File.WriteAllText(svgPath, SvgChart.Draw(results, $"LowerBound, {elements:N0} Int32 timestamps, ns per search (log scale)"));
            }

            List<string> disagreeing = results.GroupBy(r => r.QuerySet)
                .SelectMany(set => set.Where(r => r.ResultsHash != set.First().ResultsHash).Select(r => $"{r.Name} ({set.Key})"))
                .ToList();
            if (disagreeing.Count > 0)
            {
                Console.Error.WriteLine($"quick: implementations disagree with mmap: {string.Join(", ", disagreeing)}");
                return 1;
            }

            Console.WriteLine($"quick: all {runners.Count} implementations returned identical indices for both query sets.");
            return 0;
        }
        finally
        {
            runners.ForEach(runner => runner.Dispose());
        }
    }

    private static IEnumerable<QuickResult> Measure(string querySet, List<LowerBoundRunner> runners, int rounds, Func<int, int[]> targetsOfRound)
    {
        var nanoseconds = runners.Select(_ => new List<double>()).ToArray();
        var indices = runners.Select(_ => new List<long>()).ToArray();
        var buffer = new long[QueryTargets.PerOperation];
        WarmUp(runners, targetsOfRound(0), buffer);

        // Round 0's targets were the warm-up's; the counted rounds search others.
        for (int round = 1; round <= rounds; round++)
        {
            int[] targets = targetsOfRound(round);
            for (int k = 0; k < runners.Count; k++)
            {
                int r = (k + round) % runners.Count;
                long start = Stopwatch.GetTimestamp();
                runners[r].Run(targets, buffer);
                nanoseconds[r].Add(Stopwatch.GetElapsedTime(start).TotalNanoseconds / targets.Length);
                indices[r].AddRange(buffer);
            }
        }

        double mmap = Median(nanoseconds[0]);
        for (int r = 0; r < runners.Count; r++)
        {
            double median = Median(nanoseconds[r]);
            ulong hash = XxHash3.Hash64(MemoryMarshal.AsBytes(CollectionsMarshal.AsSpan(indices[r])));
            yield return new QuickResult(runners[r].Name, querySet, Math.Round(median, 1), Math.Round(median / mmap, 2), hash.ToString("x16", CultureInfo.InvariantCulture));
        }
    }

    /// <summary>
    /// Runs every implementation for at least a second before anything is timed: the JIT promotes hot methods to
    /// optimized code only after a delay, which a few quick rounds would finish inside of.
    /// </summary>
    private static void WarmUp(List<LowerBoundRunner> runners, int[] targets, long[] buffer)
    {
        long start = Stopwatch.GetTimestamp();
        for (int pass = 0; pass < 3 || Stopwatch.GetElapsedTime(start).TotalSeconds < 1; pass++)
        {
            runners.ForEach(runner => runner.Run(targets, buffer));
        }
    }

    private static double Median(List<double> values)
    {
        double[] sorted = values.Order().ToArray();
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    private static void Print(List<QuickResult> results, long elements, int rounds)
    {
        Console.WriteLine();
        Console.WriteLine($"LowerBound over {elements:N0} Int32 timestamps: {QueryTargets.PerOperation:N0} searches per round, median of {rounds} interleaved rounds.");
        Console.WriteLine($"{RuntimeInformation.OSDescription}, {RuntimeInformation.ProcessArchitecture}, {Environment.ProcessorCount} cores, .NET {Environment.Version}");
        Console.WriteLine();
        Console.WriteLine($"| {"implementation",-22} | {"fixed ns/search",15} | {"vs mmap",8} | {"fresh ns/search",15} | {"vs mmap",8} |");
        Console.WriteLine($"|{new string('-', 24)}|{new string('-', 16)}:|{new string('-', 9)}:|{new string('-', 16)}:|{new string('-', 9)}:|");
        foreach (string name in results.Select(r => r.Name).Distinct())
        {
            QuickResult fixedResult = results.Single(r => r.Name == name && r.QuerySet == "fixed");
            QuickResult freshResult = results.Single(r => r.Name == name && r.QuerySet == "fresh");
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {name,-22} | {fixedResult.NsPerSearch,15:N1} | {fixedResult.RatioVsMmap,7:F2}x | {freshResult.NsPerSearch,15:N1} | {freshResult.RatioVsMmap,7:F2}x |"));
        }

        Console.WriteLine();
    }
}
