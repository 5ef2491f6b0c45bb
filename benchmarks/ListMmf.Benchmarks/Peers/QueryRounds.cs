using System;
using System.Collections.Generic;
using System.Linq;
using ListMmf.Benchmarks.Csv;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// The query half of <c>peers</c>: each operation in its own interleaved rounds, the stores in a new random order
/// each round, every answer checked: a lookup's against the CSV's own rule, the rest against ListMmf's. Each round
/// starts with the CPU's caches emptied of its question's making (<see cref="CpuCaches"/>). Round 0 warms the JIT,
/// the caches and each store's first-use costs; it is not counted. Each store's loop runs inside its
/// <see cref="IPeerQueries.ReadScope"/>.
/// </summary>
/// <remarks>
/// One operation at a time, because a round of all of them takes minutes (the slowest full-table scans take tens of
/// seconds), and on this VM memory left untouched for about a minute costs about a microsecond on its next touch
/// per 4 KiB page, with no fault the guest can see (benchmarks/README.md): a "warm" lookup timed after every other
/// store's scans measured that, not the store.
/// </remarks>
internal sealed class QueryRounds(PeersRequest request, IPeerQueries[] stores, List<string> failures)
{
    public const string Echo = "Fixed cost of a query (select $1)";
    public const string Single = "First tick at or after T (warm page cache, random targets)";
    public const string Floor = "Read of the time at a lookup's answer, each read waiting for the one before (the memory floor under a lookup)";
    public const string Range = "Range aggregate, one hour's sum(price * size)";
    public const string Vwap = "Hourly VWAP over the whole table";
    public const string Count = "Filtered count over the whole table (price >= 4500 and size >= 100)";
    public const string Bars = "One-minute OHLCV bars over the whole table";
    private const double CountPrice = 4500;
    private const int CountSize = 100;

    private readonly Dictionary<string, List<Timing>[]> _timings = [];

    /// <summary>The ASOF join's operation.</summary>
    public static string AsOf(int trades) => $"ASOF join of {trades:N0} ascending trade times (each one's last tick at or before it), per trade";

    /// <summary>The operation of a batch of <paramref name="targets"/> lookups.</summary>
    public static string Batch(int targets) => $"Batched lookups of {targets:N0} targets, per lookup";

    public void Run(int firstTime, int lastTime, PeersResults results)
    {
        var random = new SplitMix64(2024);
        IPeerQueries reference = stores[0];
        Rounds(Echo, store => store.HasQueryLanguage, () => Targets(random, request.Targets, firstTime, lastTime), (store, targets, warm) =>
            Timing.Loop(targets.Length, warmUp: warm, query: i =>
            {
                if (store.Echo(targets[i]) != targets[i])
                {
                    failures.Add($"{store.Name}: select {targets[i]} gave another number");
                }
            }));
        Rounds(Single, _ => true, () => Lookups(random, request.Targets, firstTime, lastTime), (store, question, warm) =>
            Timing.Loop(question.Targets.Length, warmUp: warm, query: i =>
            {
                // The message is built only for a wrong answer: building it every time would be timed too.
                long found = store.FirstAtOrAfter(question.Targets[i]);
                if (found != question.Expected[i])
                {
                    failures.Add($"{store.Name}: the first tick at or after {question.Targets[i]} is row {found:N0}, the CSV's is {question.Expected[i]:N0}");
                }
            }));
        if (reference is ListMmfPeer ours)
        {
            Rounds(Floor, store => store == reference, () => Lookups(random, request.Targets, firstTime, lastTime), (_, question, warm) => TimedFloor(ours, question, warm));
        }

        foreach (int size in request.Batches)
        {
            Rounds(Batch(size), store => store.HasBatch, () => Lookups(random, size, firstTime, lastTime), (store, question, _) => TimedBatch(store, question));
        }

        int trades = (int)Math.Min(request.Rows, 10_000_000);
        Rounds(AsOf(trades), store => store.HasBatch, () => Trades(random, trades, firstTime, lastTime), (store, question, _) => TimedAsOf(store, question));
        Rounds(Range, _ => true, () => Hours(random, reference, firstTime, lastTime), (store, question, warm) =>
            Timing.Loop(question.From.Length, warmUp: warm, query: i =>
            {
                int from = question.From[i];
                double sum = store.Turnover(from, from + 3600);
                if (sum != question.Sums[i])
                {
                    failures.Add($"{store.Name}: sum(price * size) over the hour from {from} is {sum}, ListMmf says {question.Sums[i]}");
                }
            }));
        HourVwap[] vwaps = reference.HourlyVwap();
        Rounds(Vwap, _ => true, () => vwaps, (store, expected, _) =>
        {
            HourVwap[] vwap = [];
            Timing timing = Timing.Once(1, () => vwap = store.HourlyVwap());
            failures.Check(vwap.AsSpan().SequenceEqual(expected), $"{store.Name}: the hourly VWAP differs from ListMmf's ({vwap.Length:N0} hours against {expected.Length:N0})");
            return timing;
        });
        OhlcvBar[] minuteBars = reference.MinuteBars();
        Rounds(Bars, store => store.HasAnalytics, () => minuteBars, (store, expected, _) =>
        {
            OhlcvBar[] bars = [];
            Timing timing = Timing.Once(1, () => bars = store.MinuteBars());
            int first = Enumerable.Range(0, Math.Min(bars.Length, expected.Length)).FirstOrDefault(i => bars[i] != expected[i], -1);
            failures.Check(first < 0 && bars.Length == expected.Length, $"{store.Name}: {bars.Length:N0} one-minute bars against ListMmf's " +
                $"{expected.Length:N0}{(first < 0 ? "" : $"; bar {first:N0} is {bars[first]}, ListMmf's {expected[first]}")}");
            return timing;
        });
        long counted = reference.CountWhere(CountPrice, CountSize);
        Rounds(Count, _ => true, () => counted, (store, expected, _) =>
        {
            long count = 0;
            Timing timing = Timing.Once(1, () => count = store.CountWhere(CountPrice, CountSize));
            failures.Check(count == expected, $"{store.Name}: the filtered count is {count:N0}, ListMmf says {expected:N0}");
            return timing;
        });
        Report(results);
    }

    /// <summary>Fresh random targets over the whole time range and a little past both ends.</summary>
    public static int[] Targets(SplitMix64 random, int count, int firstTime, int lastTime) =>
        Enumerable.Range(0, count).Select(_ => firstTime - 10 + (int)(random.Next() % (ulong)(lastTime - firstTime + 20))).ToArray();

    /// <summary>
    /// Fresh targets and their answers from the CSV's own rule. Not from a store: a store that answered them would
    /// leave the lines it read in the CPU's caches, for its own timed lookups that follow.
    /// </summary>
    private Lookups Lookups(SplitMix64 random, int count, int firstTime, int lastTime)
    {
        int[] targets = Targets(random, count, firstTime, lastTime);
        return new Lookups(targets, targets.Select(time => TickCsv.FirstRowAtOrAfter(time, request.Rows)).ToArray());
    }

    /// <summary>Ascending random trade times, and the last tick at or before each by the CSV's own rule.</summary>
    private Lookups Trades(SplitMix64 random, int count, int firstTime, int lastTime)
    {
        int[] times = Targets(random, count, firstTime, lastTime);
        Array.Sort(times);
        return new Lookups(times, times.Select(time => TickCsv.FirstRowAtOrAfter(time + 1, request.Rows) - 1).ToArray());
    }

    private Timing TimedAsOf(IPeerQueries store, Lookups question)
    {
        var found = new long[question.Targets.Length];
        Timing timing = Timing.Once(found.Length, () => store.LastAtOrBefore(question.Targets, found));
        int first = Enumerable.Range(0, found.Length).FirstOrDefault(i => found[i] != question.Expected[i], -1);
        failures.Check(first < 0, first < 0 ? "" : $"{store.Name} ASOF: the last tick at or before {question.Targets[first]} is row {found[first]:N0}, the CSV's is {question.Expected[first]:N0}");
        return timing;
    }

    private HourSums Hours(SplitMix64 random, IPeerQueries reference, int firstTime, int lastTime)
    {
        int[] from = Enumerable.Range(0, request.Hours)
            .Select(_ => firstTime + (int)(random.Next() % (ulong)Math.Max(1, lastTime - firstTime - 3600)))
            .ToArray();
        return new HourSums(from, from.Select(hour => reference.Turnover(hour, hour + 3600)).ToArray());
    }

    /// <summary>
    /// Runs <paramref name="operation"/> in round 0 (untimed) and <see cref="PeersRequest.Rounds"/> timed rounds: each
    /// round a new <paramref name="question"/>, then every store it <paramref name="applies"/> to, in a new random order.
    /// </summary>
    private void Rounds<TQuestion>(string operation, Func<IPeerQueries, bool> applies, Func<TQuestion> question, Func<IPeerQueries, TQuestion, bool, Timing> ask)
    {
        var order = new Random(17);
        int[] sequence = Enumerable.Range(0, stores.Length).ToArray();
        for (int round = 0; round <= request.Rounds; round++)
        {
            TQuestion asked = question();
            CpuCaches.Evict();
            order.Shuffle(sequence);
            foreach (int s in sequence)
            {
                IPeerQueries store = stores[s];
                if (applies(store))
                {
                    using IDisposable scope = store.ReadScope();
                    Add(operation, s, round, ask(store, asked, round == 0));
                }
            }
        }

        Console.Error.WriteLine($"peers: {operation}: {request.Rounds} rounds done");
    }

    /// <summary>
    /// Reads the time at each answer's row, each row depending on the value read before it, as a lookup's loads
    /// depend on each other: one random read of the time column from memory, which any lookup that reads the file
    /// pays at least once.
    /// </summary>
    private static Timing TimedFloor(ListMmfPeer store, Lookups question, bool warm)
    {
        long last = store.Rows - 1;
        int carried = 0;
        return Timing.Loop(question.Targets.Length, warmUp: warm, query: i =>
        {
            // Times are positive, so the shift gives 0; the JIT cannot know it, so each read waits for the last.
            long row = Math.Min(question.Expected[i], last) + (carried >>> 31);
            carried = store.TimeAt(row);
        });
    }

    private Timing TimedBatch(IPeerQueries store, Lookups question)
    {
        var found = new long[question.Targets.Length];
        Timing timing = Timing.Once(found.Length, () => store.FirstAtOrAfter(question.Targets, found));
        int first = Enumerable.Range(0, found.Length).FirstOrDefault(i => found[i] != question.Expected[i], -1);
        failures.Check(first < 0, first < 0 ? "" : $"{store.Name} batched: the first tick at or after {question.Targets[first]} is row {found[first]:N0}, the CSV's is {question.Expected[first]:N0}");
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
        string[] operations = [Echo, Single, Floor, .. request.Batches.Select(Batch), AsOf((int)Math.Min(request.Rows, 10_000_000)), Range, Vwap, Bars, Count];
        foreach (string operation in operations)
        {
            for (int s = 0; s < stores.Length; s++)
            {
                List<Timing>? timings = _timings.GetValueOrDefault(operation)?[s];
                if (timings is null || timings.Count == 0)
                {
                    if (operation == Floor)
                    {
                        continue;
                    }

                    string why = operation == Echo ? "no query language"
                        : operation == Bars ? "not asked: the bars row compares DuckDB"
                        : operation.StartsWith("ASOF", StringComparison.Ordinal) ? "no batch API" : "no batch API: its single lookups";
                    results.Add(operation, stores[s].Name, null, why, unit: "ns");
                    continue;
                }

                Timing median = Timing.Median(timings);
                results.Add(operation, stores[s].Name, median.WallNanoseconds, $"CPU {PeersResults.Format(median.CpuNanoseconds, "ns")}", unit: "ns");
            }
        }
    }
}

/// <summary>Lookup targets and the rows that answer them.</summary>
internal sealed record Lookups(int[] Targets, long[] Expected);

/// <summary>The first seconds of hours and ListMmf's sum(price * size) over each.</summary>
internal sealed record HourSums(int[] From, double[] Sums);
