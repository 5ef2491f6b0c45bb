using System;
using System.Collections.Generic;
using System.Linq;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// The query half of <c>peers</c>: interleaved rounds, the stores in a new random order each round, every answer
/// checked against ListMmf's. Round 0 warms the JIT, the caches and each store's first-use costs; it is not counted.
/// Each store's loop runs inside its <see cref="IPeerQueries.ReadScope"/>.
/// </summary>
internal sealed class QueryRounds(PeersRequest request, IPeerQueries[] stores, List<string> failures)
{
    public const string Echo = "Fixed cost of a query (select $1)";
    public const string Single = "First tick at or after T (warm page cache, random targets)";
    public const string Range = "Range aggregate, one hour's sum(price * size)";
    public const string Vwap = "Hourly VWAP over the whole table";
    public const string Count = "Filtered count over the whole table (price >= 4500 and size >= 100)";
    private const double CountPrice = 4500;
    private const int CountSize = 100;

    private readonly Dictionary<string, List<Timing>[]> _timings = [];

    /// <summary>The operation of a batch of <paramref name="targets"/> lookups.</summary>
    public static string Batch(int targets) => $"Batched lookups of {targets:N0} targets, per lookup";

    public void Run(int firstTime, int lastTime, PeersResults results)
    {
        var random = new SplitMix64(2024);
        var order = new Random(17);
        int[] sequence = Enumerable.Range(0, stores.Length).ToArray();
        IPeerQueries reference = stores[0];
        HourVwap[] vwaps = reference.HourlyVwap();
        long counted = reference.CountWhere(CountPrice, CountSize);
        for (int round = 0; round <= request.Rounds; round++)
        {
            int[] targets = Targets(random, request.Targets, firstTime, lastTime);
            var expected = new long[targets.Length];
            reference.FirstAtOrAfter(targets, expected);
            int[][] batches = request.Batches.Select(size => Targets(random, size, firstTime, lastTime)).ToArray();
            long[][] batchAnswers = batches.Select(batch => Answers(reference, batch)).ToArray();
            int[] hours = Enumerable.Range(0, request.Hours).Select(_ => firstTime + (int)(random.Next() % (ulong)Math.Max(1, lastTime - firstTime - 3600))).ToArray();
            double[] sums = hours.Select(from => reference.Turnover(from, from + 3600)).ToArray();
            bool warm = round == 0;
            order.Shuffle(sequence);
            foreach (int s in sequence)
            {
                IPeerQueries store = stores[s];
                using IDisposable scope = store.ReadScope();
                if (store.HasQueryLanguage)
                {
                    Add(Echo, s, round, Timing.Loop(targets.Length, warmUp: warm, query: i =>
                    {
                        if (store.Echo(targets[i]) != targets[i])
                        {
                            failures.Add($"{store.Name}: select {targets[i]} gave another number");
                        }
                    }));
                }

                Add(Single, s, round, Timing.Loop(targets.Length, warmUp: warm, query: i =>
                {
                    // The message is built only for a wrong answer: building it every time would be timed too.
                    long found = store.FirstAtOrAfter(targets[i]);
                    if (found != expected[i])
                    {
                        failures.Add($"{store.Name}: the first tick at or after {targets[i]} is row {found:N0}, ListMmf says {expected[i]:N0}");
                    }
                }));
                if (store.HasBatch)
                {
                    for (int b = 0; b < batches.Length; b++)
                    {
                        Add(Batch(batches[b].Length), s, round, TimedBatch(store, batches[b], batchAnswers[b]));
                    }
                }

                Add(Range, s, round, Timing.Loop(hours.Length, warmUp: warm, query: i =>
                {
                    double sum = store.Turnover(hours[i], hours[i] + 3600);
                    if (sum != sums[i])
                    {
                        failures.Add($"{store.Name}: sum(price * size) over the hour from {hours[i]} is {sum}, ListMmf says {sums[i]}");
                    }
                }));
                HourVwap[] vwap = [];
                Add(Vwap, s, round, Timing.Once(1, () => vwap = store.HourlyVwap()));
                Check(vwap.AsSpan().SequenceEqual(vwaps), $"{store.Name}: the hourly VWAP differs from ListMmf's ({vwap.Length:N0} hours against {vwaps.Length:N0})");
                long count = 0;
                Add(Count, s, round, Timing.Once(1, () => count = store.CountWhere(CountPrice, CountSize)));
                Check(count == counted, $"{store.Name}: the filtered count is {count:N0}, ListMmf says {counted:N0}");
            }

            Console.Error.WriteLine($"peers: round {round} of {request.Rounds} done");
        }

        Report(results);
    }

    /// <summary>Fresh random targets over the whole time range and a little past both ends.</summary>
    public static int[] Targets(SplitMix64 random, int count, int firstTime, int lastTime) =>
        Enumerable.Range(0, count).Select(_ => firstTime - 10 + (int)(random.Next() % (ulong)(lastTime - firstTime + 20))).ToArray();

    private static long[] Answers(IPeerQueries store, int[] targets)
    {
        var answers = new long[targets.Length];
        store.FirstAtOrAfter(targets, answers);
        return answers;
    }

    private Timing TimedBatch(IPeerQueries store, int[] targets, long[] expected)
    {
        var found = new long[targets.Length];
        Timing timing = Timing.Once(targets.Length, () => store.FirstAtOrAfter(targets, found));
        int first = Enumerable.Range(0, found.Length).FirstOrDefault(i => found[i] != expected[i], -1);
        Check(first < 0, first < 0 ? "" : $"{store.Name} batched: the first tick at or after {targets[first]} is row {found[first]:N0}, ListMmf says {expected[first]:N0}");
        return timing;
    }

    private void Add(string operation, int store, int round, Timing timing)
    {
        if (round == 0)
        {
            return;
        }

        if (!_timings.TryGetValue(operation, out List<Timing>[]? lists))
        {
            lists = stores.Select(_ => new List<Timing>()).ToArray();
            _timings[operation] = lists;
        }

        lists[store].Add(timing);
    }

    private void Report(PeersResults results)
    {
        string[] operations = [Echo, Single, .. request.Batches.Select(Batch), Range, Vwap, Count];
        foreach (string operation in operations)
        {
            for (int s = 0; s < stores.Length; s++)
            {
                List<Timing>? timings = _timings.GetValueOrDefault(operation)?[s];
                if (timings is null || timings.Count == 0)
                {
                    string why = operation == Echo ? "no query language" : "no batch API: its single lookups";
                    results.Add(operation, stores[s].Name, null, why, unit: "ns");
                    continue;
                }

                Timing median = Timing.Median(timings);
                results.Add(operation, stores[s].Name, median.WallNanoseconds, $"CPU {PeersResults.Format(median.CpuNanoseconds, "ns")}", unit: "ns");
            }
        }
    }

    private void Check(bool condition, string failure)
    {
        if (!condition)
        {
            failures.Add(failure);
        }
    }
}
