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
/// <param name="Rounds">Interleaved rounds of the query operations, and of the cold lookups.</param>
/// <param name="Targets">Fresh random targets per round for the single lookups.</param>
/// <param name="Batches">The sizes of the batches of lookups, each fresh every round.</param>
/// <param name="Hours">Random hours per round for the range aggregate.</param>
/// <param name="ColdLookups">Lookups timed per store per round right after its pages were dropped.</param>
/// <param name="Appends">Rows appended one at a time, then made durable.</param>
/// <param name="Values">Values per size for the random value reads.</param>
internal sealed record PeersRequest(
    long Rows,
    int Rounds,
    int Targets,
    int[] Batches,
    int Hours,
    int ColdLookups,
    int Appends,
    int Values,
    string? Json,
    string? Markdown,
    string? Svg);

/// <summary>
/// <c>peers</c>: ListMmf beside DuckDB (default and one thread), SQLite and RocksDB, each set up as its own
/// documentation recommends, on the same generated ticks. Each store loads the same CSV (timed once); then
/// <see cref="QueryRounds"/> asks every store the same questions in interleaved rounds; then each store is closed,
/// its pages dropped, and its open and lookups timed cold (<see cref="ColdLookups"/>); then each appends the same rows one at a time and makes them
/// durable (timed once, after a warm-up of that append in a scratch store: <see cref="WarmUpAppend"/>), and the disk
/// each uses is measured. Any store that answers differently fails the command.
/// </summary>
internal static class PeersCommand
{
    public const string Load = "Bulk load of the CSV";
    public const string DiskUsed = "Disk used after the load";
    public const string BatchTable = "Table of each time's first row, for batched lookups";
    public const string Append = "Append one at a time, then durable";
    public const string Seal = "Seal the loaded table's columns";
    public const string Unseal = "Unseal them";

    /// <summary>The rows of the scratch store each append's warm-up starts from.</summary>
    private const int WarmUpCsvRows = 1_000;

    public static int Run(PeersRequest request)
    {
        string csv = EnsureCsv(request.Rows);
        string root = BenchmarkFiles.FreshDirectory("peers");
        var results = new PeersResults(request);
        var failures = new List<string>();
        // Each kind of store, made in a folder: the measured stores, and the scratch stores of the append's warm-up.
        Func<string, IPeerStore>[] kinds =
        [
            folder => new ListMmfPeer(folder),
            folder => new DuckDbPeer(folder),
            folder => new SqlitePeer(folder),
            folder => new RocksDbPeer(folder),
        ];
        string[] names = ["listmmf", "duckdb", "sqlite", "rocksdb"];
        IPeerStore[] stores = kinds.Select((kind, i) => kind(Path.Combine(root, names[i]))).ToArray();
        var duckDb = (DuckDbPeer)stores[1];
        SealedPeer? sealedPeer = null;
        try
        {
            int firstTime = TickCsv.TimeOf(0);
            int lastTime = TickCsv.TimeOf(request.Rows - 1);
            foreach (IPeerStore store in stores)
            {
                LoadInto(store, csv, request.Rows, results, failures);
            }

            results.Add(BatchTable, duckDb.Name, duckDb.PrepareBatches().TotalSeconds, "after the load, not counted in it", unit: "s");

            sealedPeer = SealedPeer.Create(stores[0].Folder, Path.Combine(root, "sealed"), results);
            IPeerQueries[] queries = [stores[0], sealedPeer, duckDb, new DuckDbOneThread(duckDb), stores[2], stores[3]];
            new QueryRounds(request, queries, failures).Run(firstTime, lastTime, results);
            sealedPeer.Unseal(results);
            Instruments.Run(request, Path.Combine(root, "instruments"), (ListMmfPeer)stores[0], duckDb, results, failures);
            ColdLookups.Run(request, stores, firstTime, lastTime, results, failures);
            ColdLookups.DayFiles(request, Path.Combine(root, "days"), results, failures);

            TickRow[] appended = AppendRows(request.Appends, lastTime);
            for (int s = 0; s < stores.Length; s++)
            {
                IPeerStore store = stores[s];
                WarmUpAppend(kinds[s], Path.Combine(root, names[s] + "-warm-up"), Math.Min(request.Appends, 100_000));
                Console.Error.WriteLine($"peers: appending {appended.Length:N0} rows to {store.Name}");
                long start = Stopwatch.GetTimestamp();
                store.Append(appended);
                double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
                string flush = store is ListMmfPeer ours ? $", of which the flush {ours.LastFlush.TotalSeconds:N3} s" : "";
                results.Add(Append, store.Name, seconds, $"{appended.Length / seconds / 1e6:N2} M rows/s{flush}", unit: "s");
                long after = store.FirstAtOrAfter(appended[^1].Time + 1);
                failures.Check(after == request.Rows + appended.Length, $"{store.Name} holds {after:N0} rows after the append, not {request.Rows + appended.Length:N0}");
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

            sealedPeer?.Dispose();
            BenchmarkFiles.DeleteDirectory(root);
        }
    }

    private static void LoadInto(IPeerStore store, string csv, long rows, PeersResults results, List<string> failures)
    {
        Console.Error.WriteLine($"peers: loading {rows:N0} rows into {store.Name}");
        PageCache.Read(csv);
        long start = Stopwatch.GetTimestamp();
        long loaded = store.Load(csv);
        double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        results.Add(Load, store.Name, seconds, $"{rows / seconds / 1e6:N2} M rows/s", unit: "s");
        failures.Check(loaded == rows, $"{store.Name} loaded {loaded:N0} rows, not {rows:N0}");
        results.Add(DiskUsed, store.Name, store.DiskBytes(), $"files' lengths {Disk.LengthBytes(store.Folder) / 1e6:N0} MB", unit: "bytes");
    }

    /// <summary>
    /// Appends batches of <paramref name="batch"/> rows to a scratch store of the kind, loaded from a small CSV, for
    /// at least <see cref="Timing.WarmUp"/>, so that the timed append measures each store's steady state, as a live writer
    /// that runs for hours sees it. Without it, ListMmf's per-row path (managed code) ran the JIT's first,
    /// unoptimized tier for much of a one-shot append of 1M rows: 0.28 s against 0.13 s with
    /// <c>DOTNET_TieredCompilation=0</c> (`peers --rows 1000000 --rounds 1`, this repository's machine), while the
    /// peers' native appends did not move (DuckDB 0.21 and 0.20 s).
    /// </summary>
    private static void WarmUpAppend(Func<string, IPeerStore> kind, string folder, int batch)
    {
        string csv = EnsureCsv(WarmUpCsvRows);
        using (IPeerStore scratch = kind(folder))
        {
            Console.Error.WriteLine($"peers: warming up {scratch.Name}'s append");
            scratch.Load(csv);
            int last = TickCsv.TimeOf(WarmUpCsvRows - 1);
            long start = Stopwatch.GetTimestamp();
            for (int batches = 0; batches < 3 || Stopwatch.GetElapsedTime(start) < Timing.WarmUp; batches++)
            {
                TickRow[] rows = AppendRows(batch, last);
                scratch.Append(rows);
                last = rows[^1].Time;
            }
        }

        BenchmarkFiles.DeleteDirectory(folder);
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

    /// <summary>Rows after the CSV's last, three a second, for the append.</summary>
    private static TickRow[] AppendRows(int count, int lastTime) =>
        Enumerable.Range(0, count).Select(i => new TickRow(lastTime + 1 + (i / 3), 4500 + ((i % 400) * 0.25), (i % 97) + 1)).ToArray();
}
