using System;
using System.IO;
using System.Linq;
using ListMmf.Benchmarks.Data;
using ListMmf.Benchmarks.Ipc;
using ListMmf.Benchmarks.LowerBound;

namespace ListMmf.Benchmarks;

/// <summary>
/// The benchmark console.
/// <list type="bullet">
/// <item><c>lowerbound [--elements N] [BenchmarkDotNet options]</c>: the LowerBound suite on the reference dataset.</item>
/// <item><c>quick [--elements N] [--rounds R] [--json PATH] [--svg PATH]</c>: the same comparison in seconds, without BenchmarkDotNet.</item>
/// <item><c>cold [--elements N] [--rounds R] [--lookups L]</c>: the reference dataset opened and searched with none of it in memory (Linux).</item>
/// <item><c>dataset [--elements N]</c>: generates or verifies the dataset and prints its hash.</item>
/// <item><c>ipc [--readers 1,3,6,9,12] [--seconds S]</c>: one writer, many reader processes: append and visibility latency.</item>
/// <item><c>table-latency [--rows N] [--rounds R]</c>: per-row append latency of a four-column table, as percentiles.</item>
/// <item><c>csv-sample --rows N --out FILE</c>: writes a generated 3-column tick CSV (for the import benchmark and CI's round trip).</item>
/// <item><c>csv-compare [--rows N] [--rounds R]</c>: import csv beside CsvHelper, Sylvan and DuckDB's read_csv on the same file, interleaved.</item>
/// <item><c>duckdb-check --table DIR --parquet FILE [--samples N]</c>: DuckDB reads the Parquet file and must find the table's rows in it.</item>
/// <item><c>peers [--rows N] [--rounds R] [--targets K] [--batches K,K,...] [--hours H] [--cold-lookups C] [--appends A] [--values V]
/// [--json PATH] [--markdown PATH] [--svg PATH]</c>: ListMmf beside DuckDB, SQLite and RocksDB, each set up by its documentation, on the same ticks.</item>
/// <item><c>catalog [--instruments N] [--days D] [--rows-per-day R] [--rounds K]</c>: a market's catalog written and replayed in one
/// time order beside a merge of arrays in memory and DuckDB.</item>
/// <item><c>catalog-cold [--instruments N] [--days D] [--rows-per-day R] [--rounds K]</c>: a catalog of N x D day partitions opened
/// with its pages dropped and the first row of one instrument at or after a time read (Linux).</item>
/// <item><c>catalog-workloads [--workloads w1,w2,w3] [--scale S] [--rounds K]</c>: issue 67's workloads (wide, deep with random
/// windows, dense ties followed live by four readers), replayed cold and warm, appendable and sealed.</item>
/// <item><c>catalog-lean --lean DIR [--rounds K]</c>: real Lean ticks imported into a catalog and replayed beside a merge over
/// Lean's zips and over arrays in memory.</item>
/// <item><c>sample DIRECTORY</c>: regenerates data-samples.</item>
/// <item>options only (<c>--filter</c>, <c>--list</c>, <c>--job</c>, ...): BenchmarkDotNet's switcher over every benchmark.</item>
/// </list>
/// </summary>
public static class Program
{
    private const string Usage = "commands: lowerbound, quick, cold, dataset, ipc, table-latency, csv-sample, csv-compare, duckdb-check, peers, catalog, catalog-cold, catalog-workloads, catalog-lean, sealed-sizes, python-reads, sample DIRECTORY, or BenchmarkDotNet options such as --list flat";

    public static int Main(string[] args)
    {
        try
        {
            if (args.Length == 0 || args[0].StartsWith('-'))
            {
                return BenchmarkRuns.Run(args);
            }

            ReadOnlySpan<string> rest = args.AsSpan(1);
            return args[0] switch
            {
                "lowerbound" => RunLowerBound(rest),
                "quick" => RunQuick(rest),
                "cold" => RunCold(rest),
                "dataset" => RunDataset(rest),
                "ipc" => RunIpc(rest),
                "ipc-reader" => RunIpcReader(rest),
                "table-latency" => RunTableLatency(rest),
                "csv-sample" => RunCsvSample(rest),
                "csv-compare" => RunCsvCompare(rest),
                "duckdb-check" => RunDuckDbCheck(rest),
                "peers" => RunPeers(rest),
                "catalog" => RunCatalog(rest),
                "catalog-lean" => RunCatalogLean(rest),
                "catalog-cold" => RunCatalogCold(rest),
                "catalog-workloads" => RunCatalogWorkloads(rest),
                "catalog-follower" => Catalog.CatalogFollower.Run(rest),
                "sealed-sizes" => RunSealedSizes(rest),
                "python-reads" => RunPythonReads(rest),
                "sample" when rest.Length == 1 => SampleCommand.Run(rest[0]),
                "sample" => throw new UsageException("usage: sample DIRECTORY"),
                _ => throw new UsageException($"unknown command '{args[0]}'; {Usage}"),
            };
        }
        catch (UsageException exception)
        {
            Console.Error.WriteLine(exception.Message);
            return 2;
        }
        catch (Exception exception) when (exception is DatasetException or IOException or UnauthorizedAccessException)
        {
            Console.Error.WriteLine(exception.Message);
            return 1;
        }
    }

    private static int RunLowerBound(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("lowerbound", args, ["--elements"], allowPassThrough: true);
        long elements = line.Count("--elements", ReferenceDataset.ReferenceElements, minimum: 1);
        ReferenceDataset.Ensure(elements, Console.Error);
        Environment.SetEnvironmentVariable(LowerBoundBenchmarks.ElementsVariable, elements.ToString(System.Globalization.CultureInfo.InvariantCulture));
        string[] switcherArgs = line.PassThrough.Contains("--filter")
            ? [.. line.PassThrough]
            : ["--filter", $"*{nameof(LowerBoundBenchmarks)}*", .. line.PassThrough];
        if (!line.PassThrough.Contains("--filter") && !line.PassThrough.Contains("--list"))
        {
            // 20 benchmarks, each a process: its setup, BenchmarkDotNet's pilot, then the budget LowerBoundConfig states.
            double perBenchmark = ((LowerBoundConfig.WarmupIterations + LowerBoundConfig.MeasuredIterations) * LowerBoundConfig.IterationMilliseconds / 1000.0) + 8;
            Console.Error.WriteLine($"lowerbound: 20 benchmarks (10 searches x fixed and fresh targets), each {LowerBoundConfig.WarmupIterations} " +
                $"warm-up and {LowerBoundConfig.MeasuredIterations} measured iterations of {LowerBoundConfig.IterationMilliseconds} ms in a " +
                $"process of its own: about {20 * perBenchmark / 60:N0} minutes after the build; BenchmarkDotNet prints how many remain.");
        }

        return BenchmarkRuns.Run(switcherArgs);
    }

    private static int RunQuick(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("quick", args, ["--elements", "--rounds", "--json", "--svg"]);
        return QuickCommand.Run(
            line.Count("--elements", QuickCommand.DefaultElements, minimum: 1),
            (int)line.Count("--rounds", 15, minimum: 1),
            line.Text("--json"),
            line.Text("--svg"));
    }

    private static int RunCold(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("cold", args, ["--elements", "--rounds", "--lookups"]);
        return LowerBound.ColdCommand.Run(
            line.Count("--elements", 100_000_000, minimum: 1),
            (int)line.Count("--rounds", 5, minimum: 1),
            (int)line.Count("--lookups", 20, minimum: 1));
    }

    private static int RunTableLatency(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("table-latency", args, ["--rows", "--rounds"]);
        long rows = line.Count("--rows", 1_000_000, minimum: 1);
        if (rows > 100_000_000)
        {
            throw new UsageException("--rows takes at most 100,000,000 (the timings are kept in memory)");
        }

        return Tables.TableLatencyCommand.Run((int)rows, (int)line.Count("--rounds", 5, minimum: 1));
    }

    private static int RunCsvSample(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("csv-sample", args, ["--rows", "--out"]);
        return Csv.CsvSampleCommand.Run(line.Count("--rows", 10_000_000, minimum: 0), line.Text("--out") ?? throw new UsageException("csv-sample needs --out FILE"));
    }

    private static int RunCsvCompare(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("csv-compare", args, ["--rows", "--rounds"]);
        return Csv.CsvCompareCommand.Run(line.Count("--rows", 10_000_000, minimum: 1), (int)line.Count("--rounds", 5, minimum: 1));
    }

    private static int RunDuckDbCheck(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("duckdb-check", args, ["--table", "--parquet", "--samples"]);
        return Columnar.DuckDbCheckCommand.Run(
            line.Text("--table") ?? throw new UsageException("duckdb-check needs --table DIR"),
            line.Text("--parquet") ?? throw new UsageException("duckdb-check needs --parquet FILE"),
            (int)line.Count("--samples", 1000, minimum: 0));
    }

    private static int RunSealedSizes(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("sealed-sizes", args, ["--lean", "--generated", "--work"]);
        return Sealed.SealedSizesCommand.Run(
            line.Text("--lean"),
            (int)Math.Min(int.MaxValue, line.Count("--generated", 0, minimum: 0)),
            line.Text("--work") ?? Path.Combine(Path.GetTempPath(), "listmmf-sealed-sizes"));
    }

    private static int RunPythonReads(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("python-reads", args, ["--generated", "--lean", "--rounds", "--work", "--python"]);
        return Sealed.PythonReadsCommand.Run(
            (int)Math.Min(int.MaxValue, line.Count("--generated", 0, minimum: 0)),
            line.Text("--lean"),
            (int)line.Count("--rounds", 7, minimum: 1),
            line.Text("--work") ?? Path.Combine(Path.GetTempPath(), "listmmf-python-reads"),
            line.Text("--python"));
    }

    private static int RunPeers(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse(
            "peers",
            args,
            ["--rows", "--rounds", "--targets", "--batches", "--hours", "--cold-lookups", "--appends", "--values", "--json", "--markdown", "--svg"]);
        long rows = line.Count("--rows", 100_000_000, minimum: 3_600 * 3 * 2);
        return Peers.PeersCommand.Run(new Peers.PeersRequest(
            rows,
            (int)line.Count("--rounds", 5, minimum: 1),
            (int)line.Count("--targets", 10_000, minimum: 1),
            Sizes("--batches", line.Text("--batches") ?? "1000,10000,100000"),
            (int)line.Count("--hours", 1_000, minimum: 1),
            (int)line.Count("--cold-lookups", 20, minimum: 1),
            (int)Math.Min(int.MaxValue, line.Count("--appends", 1_000_000, minimum: 1)),
            (int)Math.Min(int.MaxValue / 1024, line.Count("--values", 1_000_000, minimum: 1)),
            line.Text("--json"),
            line.Text("--markdown"),
            line.Text("--svg")));
    }

    private static int RunCatalogLean(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("catalog-lean", args, ["--lean", "--rounds"]);
        return Catalog.LeanReplayCommand.Run(
            line.Text("--lean") ?? throw new UsageException("catalog-lean needs --lean DIR, a folder of Lean's zips (../shared/data/lean)"),
            (int)line.Count("--rounds", 5, minimum: 1));
    }

    private static int RunCatalogCold(ReadOnlySpan<string> args) =>
        RunMarket("catalog-cold", args, defaultDays: 100, defaultRowsPerDay: 1_000, maximumRowsPerDay: 1_000_000, Catalog.CatalogColdCommand.Run);

    private static int RunCatalog(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("catalog", args, [.. MarketOptions, "--busy"]);
        (int instruments, int days, int rowsPerDay, int rounds) = Market(line, defaultDays: 5, defaultRowsPerDay: 10_000, maximumRowsPerDay: 10_000_000);
        // The busy instrument's rows stay within an array's reach however long the market is.
        int busy = (int)Math.Clamp(line.Count("--busy", 1, minimum: 1), 1, Math.Max(1, 100_000_000 / ((long)days * rowsPerDay)));
        return Catalog.CatalogCommand.Run(instruments, days, rowsPerDay, busy, rounds);
    }

    private static int RunCatalogWorkloads(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("catalog-workloads", args, ["--workloads", "--scale", "--rounds"]);
        string[] workloads = (line.Text("--workloads") ?? "w1,w2,w3").Split(',');
        if (workloads.FirstOrDefault(workload => workload is not ("w1" or "w2" or "w3")) is { } unknown)
        {
            throw new UsageException($"--workloads takes w1, w2 and w3 separated by commas; '{unknown}' is not one");
        }

        string scale = line.Text("--scale") ?? "1";
        return Catalog.CatalogWorkloadsCommand.Run(
            workloads,
            double.TryParse(scale, System.Globalization.CultureInfo.InvariantCulture, out double s) && s > 0 && s <= 100
                ? s
                : throw new UsageException($"--scale takes a number above 0 and at most 100; '{scale}' is not one"),
            (int)line.Count("--rounds", 3, minimum: 1));
    }

    private static readonly string[] MarketOptions = ["--instruments", "--days", "--rows-per-day", "--rounds"];

    /// <summary>A command over a generated market: <c>[--instruments N] [--days D] [--rows-per-day R] [--rounds K]</c>.</summary>
    private static int RunMarket(string command, ReadOnlySpan<string> args, int defaultDays, int defaultRowsPerDay, int maximumRowsPerDay,
        Func<int, int, int, int, int> run)
    {
        (int instruments, int days, int rowsPerDay, int rounds) = Market(CommandLine.Parse(command, args, MarketOptions), defaultDays,
            defaultRowsPerDay, maximumRowsPerDay);
        return run(instruments, days, rowsPerDay, rounds);
    }

    private static (int Instruments, int Days, int RowsPerDay, int Rounds) Market(CommandLine line, int defaultDays, int defaultRowsPerDay,
        int maximumRowsPerDay) => (
            (int)Math.Min(100_000, line.Count("--instruments", 100, minimum: 1)),
            (int)Math.Min(3_650, line.Count("--days", defaultDays, minimum: 1)),
            (int)Math.Min(maximumRowsPerDay, line.Count("--rows-per-day", defaultRowsPerDay, minimum: 1)),
            (int)line.Count("--rounds", 5, minimum: 1));

    private static int RunIpc(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("ipc", args, ["--readers", "--seconds"]);
        return IpcCommand.Run(Sizes("--readers", line.Text("--readers") ?? "1,3,6,9,12"), line.Count("--seconds", 5, minimum: 1));
    }

    /// <summary>A list of positive counts such as 1,3,6, or a usage error naming <paramref name="option"/>.</summary>
    private static int[] Sizes(string option, string text) =>
        text.Split(',')
            .Select(item => int.TryParse(item, System.Globalization.CultureInfo.InvariantCulture, out int n) && n > 0 ? n : throw new UsageException($"{option} takes counts such as 1,3,6; '{item}' is not one"))
            .ToArray();

    /// <summary>A reader process that <c>ipc</c> starts: KIND PATH EXPECTED MEAN_US SD_US SEED.</summary>
    private static int RunIpcReader(ReadOnlySpan<string> args)
    {
        if (args.Length != 6)
        {
            throw new UsageException("usage: ipc-reader quote|timestamp PATH EXPECTED MEAN_US SD_US SEED (started by ipc)");
        }

        var invariant = System.Globalization.CultureInfo.InvariantCulture;
        long expected = long.Parse(args[2], invariant);
        double mean = double.Parse(args[3], invariant);
        double sd = double.Parse(args[4], invariant);
        ulong seed = ulong.Parse(args[5], invariant);
        return args[0] == "quote"
            ? IpcReader.Run<BestBidAsk, QuoteItem>(args[1], expected, mean, sd, seed)
            : IpcReader.Run<int, TimestampItem>(args[1], expected, mean, sd, seed);
    }

    private static int RunDataset(ReadOnlySpan<string> args)
    {
        CommandLine line = CommandLine.Parse("dataset", args, ["--elements"]);
        ReferenceDataset.Ensure(line.Count("--elements", ReferenceDataset.ReferenceElements, minimum: 1), Console.Out);
        return 0;
    }
}
