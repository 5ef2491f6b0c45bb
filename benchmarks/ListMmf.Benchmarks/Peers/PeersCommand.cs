using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Csv;
using ListMmf.Benchmarks.Data;
using ListMmf.Benchmarks.LowerBound;

namespace ListMmf.Benchmarks.Peers;

/// <summary>What <c>peers</c> is asked to do.</summary>
/// <param name="Rows">Ticks in the generated CSV.</param>
/// <param name="Rounds">Interleaved rounds of the query operations.</param>
/// <param name="Targets">Fresh random targets per round for the lookups.</param>
/// <param name="Hours">Random hours per round for the range aggregate.</param>
/// <param name="Appends">Rows appended one at a time, then made durable.</param>
/// <param name="Values">Values per size for the random value reads.</param>
internal sealed record PeersRequest(long Rows, int Rounds, int Targets, int Hours, int Appends, int Values, string? Json, string? Markdown, string? Svg);

/// <summary>
/// <c>peers</c>: ListMmf beside DuckDB, SQLite and RocksDB on the same generated ticks. Each store loads the same CSV
/// (timed once), then answers the same lookups, batched lookups and range aggregates in interleaved rounds in a new
/// random order each round (medians; a store gets at most <see cref="Budget"/> per operation per round, and the
/// answers it gave are checked against ListMmf's, so a store too slow to finish is timed on fewer targets, never
/// skipped); then each appends the same rows one at a time and makes them durable (timed once), and the disk each
/// uses is measured. Any store that answers differently fails the command.
/// </summary>
internal static class PeersCommand
{
    private static readonly TimeSpan Budget = TimeSpan.FromSeconds(3);

    /// <summary>How long an operation runs untimed before its first timing: longer than the JIT's tiering delay and its background compilation.</summary>
    internal static readonly TimeSpan WarmUp = TimeSpan.FromSeconds(1);

    public static int Run(PeersRequest request)
    {
        string csv = EnsureCsv(request.Rows);
        string root = BenchmarkFiles.FreshDirectory("peers");
        var results = new PeersResults(request);
        var failures = new List<string>();
        IPeerStore[] stores =
        [
            new ListMmfPeer(Path.Combine(root, "listmmf")),
            new DuckDbPeer(Path.Combine(root, "duckdb")),
            new SqlitePeer(Path.Combine(root, "sqlite")),
            new RocksDbPeer(Path.Combine(root, "rocksdb")),
        ];
        try
        {
            int firstTime = TickCsvTime(0);
            int lastTime = TickCsvTime(request.Rows - 1);
            foreach (IPeerStore store in stores)
            {
                Console.Error.WriteLine($"peers: loading {request.Rows:N0} rows into {store.Name}");
                long start = Stopwatch.GetTimestamp();
                long loaded = store.Load(csv);
                double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
                results.Add("Bulk load of the CSV", store.Name, seconds, $"{request.Rows / seconds / 1e6:N2} M rows/s", unit: "s");
                Check(failures, loaded == request.Rows, $"{store.Name} loaded {loaded:N0} rows, not {request.Rows:N0}");
                results.Add("Disk used after the load", store.Name, store.DiskBytes(), null, unit: "bytes");
            }

            var random = new SplitMix64(2024);
            var order = new Random(17);
            int[] sequence = Enumerable.Range(0, stores.Length).ToArray();
            var single = stores.Select(_ => new List<double>()).ToArray();
            var batched = stores.Select(_ => new List<double>()).ToArray();
            var ranges = stores.Select(_ => new List<double>()).ToArray();
            // Round 0 warms the JIT (its tiered compilation), the caches and each store's first-use costs; it is not counted.
            for (int round = 0; round <= request.Rounds; round++)
            {
                // Fresh targets every round, over the whole time range and a little past both ends.
                int[] targets = Enumerable.Range(0, request.Targets).Select(_ => firstTime - 10 + (int)(random.Next() % (ulong)(lastTime - firstTime + 20))).ToArray();
                int[] hours = Enumerable.Range(0, request.Hours).Select(_ => firstTime + (int)(random.Next() % (ulong)Math.Max(1, lastTime - firstTime - 3600))).ToArray();
                var expected = new long[targets.Length];
                stores[0].FirstAtOrAfter(targets, expected);
                double[] expectedSums = hours.Select(from => stores[0].Turnover(from, from + 3600)).ToArray();
                order.Shuffle(sequence);
                foreach (int s in sequence)
                {
                    IPeerStore store = stores[s];
                    List<double> singles = round == 0 ? [] : single[s];
                    List<double> batches = round == 0 ? [] : batched[s];
                    List<double> sums = round == 0 ? [] : ranges[s];
                    singles.Add(Timed(targets.Length, warmUp: round == 0, query: i =>
                    {
                        long found = store.FirstAtOrAfter(targets[i]);
                        if (found != expected[i])
                        {
                            failures.Add($"{store.Name}: the first tick at or after {targets[i]} is row {found:N0}, ListMmf says {expected[i]:N0}");
                        }
                    }));
                    if (store.HasBatch)
                    {
                        var found = new long[targets.Length];
                        long start = Stopwatch.GetTimestamp();
                        store.FirstAtOrAfter(targets, found);
                        batches.Add(Stopwatch.GetElapsedTime(start).TotalNanoseconds / targets.Length);
                        int wrong = Enumerable.Range(0, found.Length).FirstOrDefault(i => found[i] != expected[i], -1);
                        Check(failures, wrong < 0, wrong < 0 ? "" : $"{store.Name} batched: the first tick at or after {targets[wrong]} is row {found[wrong]:N0}, ListMmf says {expected[wrong]:N0}");
                    }

                    sums.Add(Timed(hours.Length, warmUp: round == 0, query: i =>
                    {
                        double sum = store.Turnover(hours[i], hours[i] + 3600);
                        if (sum != expectedSums[i])
                        {
                            failures.Add($"{store.Name}: sum(price * size) over the hour from {hours[i]} is {sum}, ListMmf says {expectedSums[i]}");
                        }
                    }));
                }

                Console.Error.WriteLine($"peers: round {round} of {request.Rounds} done");
            }

            for (int s = 0; s < stores.Length; s++)
            {
                results.Add("First tick at or after T", stores[s].Name, Medians.Of(single[s]), null, unit: "ns");
                results.Add("Batched lookups, per lookup", stores[s].Name, stores[s].HasBatch ? Medians.Of(batched[s]) : null, stores[s].HasBatch ? null : "no batch API", unit: "ns");
                results.Add("Range aggregate, one hour", stores[s].Name, Medians.Of(ranges[s]), null, unit: "ns");
            }

            TickRow[] appended = AppendRows(request.Appends, lastTime);
            foreach (IPeerStore store in stores)
            {
                Console.Error.WriteLine($"peers: appending {appended.Length:N0} rows to {store.Name}");
                long start = Stopwatch.GetTimestamp();
                store.Append(appended);
                double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
                string flush = store is ListMmfPeer ours ? $", of which the flush {ours.LastFlush.TotalSeconds:N3} s" : "";
                results.Add("Append one at a time, then durable", store.Name, seconds, $"{appended.Length / seconds / 1e6:N2} M rows/s{flush}", unit: "s");
                long after = store.FirstAtOrAfter(appended[^1].Time + 1);
                Check(failures, after == request.Rows + appended.Length, $"{store.Name} holds {after:N0} rows after the append, not {request.Rows + appended.Length:N0}");
            }

            foreach (IPeerStore store in stores)
            {
                store.Dispose();
            }

            ValueReads.Run(request, Path.Combine(root, "values"), results, failures);
            results.RawColumnBytes = request.Rows * (sizeof(int) + sizeof(double) + sizeof(int));
            results.Print(Console.Out);
            results.Write(request.Json, request.Markdown, request.Svg);
            foreach (string failure in failures.Distinct().Take(20))
            {
                Console.Error.WriteLine($"peers: WRONG ANSWER: {failure}");
            }

            return failures.Count == 0 ? 0 : 1;
        }
        finally
        {
            foreach (IPeerStore store in stores)
            {
                store.Dispose();
            }

            BenchmarkFiles.DeleteDirectory(root);
        }
    }

    /// <summary>The generated CSV of <paramref name="rows"/> ticks, made once and kept beside the reference dataset.</summary>
    private static string EnsureCsv(long rows)
    {
        string path = Path.Combine(ReferenceDataset.CacheDirectory, $"peers-ticks-{rows.ToString(CultureInfo.InvariantCulture)}.csv");
        if (!File.Exists(path))
        {
            Directory.CreateDirectory(ReferenceDataset.CacheDirectory);
            Console.Error.WriteLine($"peers: writing {rows:N0} rows to {path}");
            string partial = path + ".partial";
            TickCsv.Write(partial, rows);
            File.Move(partial, path, overwrite: true);
        }

        return path;
    }

    /// <summary>The time of row <paramref name="row"/> of the generated CSV: three ticks a second.</summary>
    private static int TickCsvTime(long row) => (int)(TickCsv.FirstTime + (row / 3));

    /// <summary>Rows after the CSV's last, three a second, for the append.</summary>
    private static TickRow[] AppendRows(int count, int lastTime) =>
        Enumerable.Range(0, count).Select(i => new TickRow(lastTime + 1 + (i / 3), 4500 + ((i % 400) * 0.25), (i % 97) + 1)).ToArray();

    /// <summary>
    /// Runs <paramref name="query"/> on 0, 1, ... until <paramref name="count"/> or <see cref="Budget"/>; returns nanoseconds per query.
    /// In the warm-up round it first runs it over and over for <see cref="WarmUp"/>, so that the JIT's tiered
    /// compilation has replaced the first, unoptimised code of this store's path before anything is timed.
    /// </summary>
    private static double Timed(int count, Action<int> query, bool warmUp)
    {
        if (warmUp)
        {
            Warm(count, query);
        }

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

        return Stopwatch.GetElapsedTime(start).TotalNanoseconds / done;
    }

    /// <summary>Runs <paramref name="query"/> over and over for <see cref="WarmUp"/>.</summary>
    internal static void Warm(int count, Action<int> query)
    {
        long start = Stopwatch.GetTimestamp();
        for (int i = 0; Stopwatch.GetElapsedTime(start) < WarmUp; i = (i + 1) % count)
        {
            query(i);
        }
    }

    private static void Check(List<string> failures, bool condition, string failure)
    {
        if (!condition)
        {
            failures.Add(failure);
        }
    }
}
