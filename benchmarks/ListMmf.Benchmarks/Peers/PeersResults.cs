using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;

namespace ListMmf.Benchmarks.Peers;

/// <summary>One cell of the peers table: an operation's figure for one store.</summary>
internal sealed record PeerResult(string Operation, string Store, double? Value, string? Note, string Unit);

/// <summary>The peers figures: printed as a table (operations by stores, each cell with its ratio to ListMmf), written as JSON, Markdown and an SVG chart, and judged against the issue's goals.</summary>
internal sealed class PeersResults(PeersRequest request)
{
    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };
    private readonly List<PeerResult> _results = [];

    /// <summary>The bytes of the rows as columns: what the disk goal compares with.</summary>
    public long RawColumnBytes { get; set; }

    public void Add(string operation, string store, double? value, string? note, string unit) =>
        _results.Add(new PeerResult(operation, store, value, note, unit));

    public void Print(TextWriter output)
    {
        output.WriteLine();
        output.WriteLine(Title());
        output.WriteLine(Machine());
        output.WriteLine();
        output.Write(Markdown());
        output.WriteLine();
        foreach (string goal in Goals())
        {
            output.WriteLine(goal);
        }
    }

    public void Write(string? json, string? markdown, string? svg)
    {
        if (json is not null)
        {
            File.WriteAllText(json, JsonSerializer.Serialize(new { title = Title(), machine = Machine(), request, results = _results, goals = Goals() }, Indented));
        }

        if (markdown is not null)
        {
            File.WriteAllText(markdown, $"{Title()}\n\n{Machine()}\n\n{Markdown()}\n{string.Join("\n", Goals().Select(goal => $"- {goal}"))}\n");
        }

        if (svg is not null)
        {
            File.WriteAllText(svg, PeersChart.Draw(_results, Operations(), Stores(), Title()));
        }
    }

    private string Title() =>
        $"peers: {request.Rows:N0} ticks; lookups of {request.Targets:N0} fresh targets, batches of {string.Join("/", request.Batches.Select(b => b.ToString("N0", CultureInfo.InvariantCulture)))} and {request.Hours:N0} one-hour sums per round, median of {request.Rounds} interleaved rounds (wall time; CPU time of all threads beside it); {request.Appends:N0} appends; value reads over {request.Values:N0} values";

    private static string Machine() =>
        $"{RuntimeInformation.OSDescription}, {RuntimeInformation.ProcessArchitecture}, {Environment.ProcessorCount} cores, .NET {Environment.Version}";

    private List<string> Operations() => _results.Select(r => r.Operation).Distinct().ToList();

    private List<string> Stores() => _results.Select(r => r.Store).Distinct().ToList();

    private PeerResult? Find(string operation, string store) => _results.FirstOrDefault(r => r.Operation == operation && r.Store == store);

    private string Markdown()
    {
        List<string> stores = Stores();
        var text = new StringBuilder();
        text.Append("| operation | ").Append(string.Join(" | ", stores)).Append(" |\n");
        text.Append("|---|").Append(string.Concat(stores.Select(_ => "---:|"))).Append('\n');
        foreach (string operation in Operations())
        {
            double? ours = Find(operation, "ListMmf")?.Value;
            text.Append("| ").Append(operation).Append(" | ");
            text.Append(string.Join(" | ", stores.Select(store => Cell(Find(operation, store), ours))));
            text.Append(" |\n");
        }

        return text.ToString();
    }

    private static string Cell(PeerResult? result, double? ours)
    {
        if (result is null)
        {
            return "";
        }

        if (result.Value is not { } value)
        {
            return result.Note ?? "";
        }

        string ratio = ours is { } baseline && baseline > 0 && result.Store != "ListMmf" ? $" ({value / baseline:N1}x)" : "";
        string note = result.Note is null ? "" : $", {result.Note}";
        return $"{Format(value, result.Unit)}{ratio}{note}";
    }

    internal static string Format(double value, string unit) => unit switch
    {
        "ns" when value >= 1e6 => $"{value / 1e6:N2} ms",
        "ns" when value >= 1e3 => $"{value / 1e3:N2} µs",
        "ns" => $"{value:N1} ns",
        "s" => $"{value:N2} s",
        "bytes" => $"{value / 1e6:N0} MB",
        _ => value.ToString("N2", CultureInfo.InvariantCulture),
    };

    /// <summary>The goals, each judged against the fastest peer as its documentation sets it up, with what this run measured.</summary>
    private List<string> Goals()
    {
        var goals = new List<string>();
        double? Value(string operation, string store) => Find(operation, store)?.Value;
        double? FastestPeer(string operation, string? fallback = null) => Stores()
            .Where(store => store is not ("ListMmf" or SealedPeer.StoreName or ValueReads.Ram))
            .Select(store => Value(operation, store) ?? (fallback is null ? null : Value(fallback, store)))
            .Where(value => value is not null)
            .DefaultIfEmpty(null)
            .Min();
        double? Ratio(string operation, string? fallback = null) => FastestPeer(operation, fallback) / Value(operation, "ListMmf");
        void Goal(string name, double? ratio, double wanted, string how)
        {
            goals.Add(ratio is { } r
                ? $"goal {(r >= wanted ? "MET" : "MISSED")}: {name}: {r:N1}x ({how}; wanted {wanted:N1}x or more)"
                : $"goal not measured: {name}");
        }

        Goal("single lookup, warm, fastest peer / ListMmf", Ratio(QueryRounds.Single), 10, "per lookup");
        double? floor = Value(QueryRounds.Floor, "ListMmf");
        goals.Add($"reported: the memory floor (one dependent read of the time column) is {Format(floor ?? double.NaN, "ns")}: " +
            $"ListMmf's single lookup costs {Value(QueryRounds.Single, "ListMmf") / floor:N1} of them, 10x the fastest peer would allow " +
            $"{FastestPeer(QueryRounds.Single) / 10 / floor:N1}");
        Goal("bulk load of the CSV, DuckDB's time / ListMmf's", Value(PeersCommand.Load, "DuckDB") / Value(PeersCommand.Load, "ListMmf"), 1.5, "DuckDB's read_csv on every core");
        Goal("append then durable, fastest peer / ListMmf", Ratio(PeersCommand.Append), 3, "the whole append and what makes it durable");
        foreach (int batch in request.Batches)
        {
            goals.Add($"reported: batched lookups of {batch:N0}, fastest peer / ListMmf: {Ratio(QueryRounds.Batch(batch), QueryRounds.Single):N1}x (a peer without a batch API counts its single lookups)");
        }

        Goal("ASOF join, DuckDB / ListMmf", Value(QueryRounds.AsOf((int)Math.Min(request.Rows, 10_000_000)), "DuckDB")
            / Value(QueryRounds.AsOf((int)Math.Min(request.Rows, 10_000_000)), "ListMmf"), 10, "per trade, DuckDB's ASOF JOIN on every core");
        goals.Add($"reported: one hour's sum, fastest peer / ListMmf: {Ratio(QueryRounds.Range):N1}x");
        goals.Add($"reported: hourly VWAP over the whole table, fastest peer / ListMmf: {Ratio(QueryRounds.Vwap):N1}x");
        Goal("filtered count over the whole table, DuckDB / ListMmf", Value(QueryRounds.Count, "DuckDB") / Value(QueryRounds.Count, "ListMmf"), 2, "both on every core");
        Goal("one-minute bars over the whole table, DuckDB / ListMmf", Value(QueryRounds.Bars, "DuckDB") / Value(QueryRounds.Bars, "ListMmf"), 2, "DuckDB's group by on every core");
        string instruments = Instruments.Operation(Math.Min(request.Rows, 10_000_000));
        goals.Add($"reported: last price of {Instruments.Count:N0} instruments at T, DuckDB / ListMmf: {Value(instruments, "DuckDB") / Value(instruments, "ListMmf"):N1}x");
        Goal("cold start, open plus the first lookup, fastest peer / ListMmf", Ratio(ColdLookups.First), 1, "the bytes each read are in its note; wanted besides: at most 1 MiB");
        Goal("cold start, the next lookups' median, fastest peer / ListMmf", Ratio(ColdLookups.Next), 1, "each lookup timed on its own");
        if (Value(ColdLookups.Days, "ListMmf") is { } day)
        {
            goals.Add($"goal {(day <= 150_000 ? "MET" : "MISSED")}: 1,000 cold day files: {Format(day, "ns")} a file for the open and one lookup (wanted at most 150 µs)");
        }
        if (Value(PeersCommand.DiskUsed, "ListMmf") is { } disk && RawColumnBytes > 0)
        {
            double over = (disk / RawColumnBytes) - 1;
            goals.Add($"goal {(over <= 0.01 ? "MET" : "MISSED")}: disk: ListMmf uses {disk / 1e6:N0} MB for {RawColumnBytes / 1e6:N0} MB of raw column bytes ({over:P1} over; wanted at most 1%)");
        }

        SealedGoals(goals, Value, FastestPeer);
        return goals;
    }

    /// <summary>The sealed column's goals (issue 51): against DuckDB's disk, the appendable table's own times, and the fastest peer.</summary>
    private void SealedGoals(List<string> goals, Func<string, string, double?> value, Func<string, string?, double?> fastestPeer)
    {
        const string Sealed = SealedPeer.StoreName;
        if (value(PeersCommand.DiskUsed, Sealed) is not { } disk)
        {
            return;
        }

        void AtMost(string name, double? ratio, double wanted) => goals.Add(ratio is { } r
            ? $"goal {(r <= wanted ? "MET" : "MISSED")}: sealed: {name}: {r:N2}x (wanted at most {wanted:N1}x)"
            : $"goal not measured: sealed: {name}");
        double? Own(string operation) => value(operation, Sealed) / value(operation, "ListMmf");

        AtMost("disk, sealed / DuckDB's", disk / value(PeersCommand.DiskUsed, "DuckDB"), 1);
        AtMost("single lookup, warm, sealed / appendable", Own(QueryRounds.Single), 1.5);
        double? peer = fastestPeer(QueryRounds.Single, null) / value(QueryRounds.Single, Sealed);
        goals.Add(peer is { } p ? $"goal {(p >= 10 ? "MET" : "MISSED")}: sealed: single lookup, fastest peer / sealed: {p:N1}x (wanted 10x or more)"
            : "goal not measured: sealed: single lookup against the fastest peer");
        AtMost("one hour's sum, sealed / appendable", Own(QueryRounds.Range), 2);
        AtMost("hourly VWAP over the whole table, sealed / appendable", Own(QueryRounds.Vwap), 1);
        AtMost("filtered count over the whole table, sealed / appendable", Own(QueryRounds.Count), 1);
        if (value(PeersCommand.Seal, Sealed) is { } seal && RawColumnBytes > 0)
        {
            double rate = RawColumnBytes / seal / 1e6;
            goals.Add($"goal {(rate >= 500 ? "MET" : "MISSED")}: sealed: seal {rate:N0} MB/s of raw columns on one core (wanted 500 MB/s or more)");
        }

        if (value(PeersCommand.Unseal, Sealed) is { } unseal && RawColumnBytes > 0)
        {
            goals.Add($"reported: sealed: unseal {RawColumnBytes / unseal / 1e6:N0} MB/s of raw columns on one core, new files made durable");
        }
    }
}
