using System.IO;
using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Csv;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// The query operations of <c>peers</c> under BenchmarkDotNet: the first tick at or after T (1,000 fresh random
/// targets per operation) and one hour's sum(price * size) (100 random hours per operation), for ListMmf, DuckDB,
/// SQLite and RocksDB holding the same generated ticks, each loaded once in <c>[GlobalSetup]</c>.
/// </summary>
[MedianColumn]
public class PeersBenchmarks
{
    private const int Lookups = 1000;
    private const int Sums = 100;
    private readonly int[] _targets = new int[Lookups];
    private readonly int[] _hours = new int[Sums];
    private string _root = "";
    private string _csv = "";
    private IPeerStore? _store;

    [Params(1_000_000)]
    public int Rows { get; set; }

    [Params("ListMmf", "DuckDB", "SQLite", "RocksDB")]
    public string Store { get; set; } = "ListMmf";

    [GlobalSetup]
    public void Setup()
    {
        _root = BenchmarkFiles.FreshDirectory("peers-bdn");
        _csv = Path.Combine(_root, "ticks.csv");
        Directory.CreateDirectory(_root);
        TickCsv.Write(_csv, Rows);
        string folder = Path.Combine(_root, Store);
        _store = Store switch
        {
            "ListMmf" => new ListMmfPeer(folder),
            "DuckDB" => new DuckDbPeer(folder),
            "SQLite" => new SqlitePeer(folder),
            _ => new RocksDbPeer(folder),
        };
        _store.Load(_csv);
        var random = new SplitMix64(99);
        int first = (int)TickCsv.FirstTime;
        int span = Rows / 3;
        for (int i = 0; i < Lookups; i++)
        {
            _targets[i] = first + (int)(random.Next() % (ulong)span);
        }

        for (int i = 0; i < Sums; i++)
        {
            _hours[i] = first + (int)(random.Next() % (ulong)(span - 3600));
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _store?.Dispose();
        BenchmarkFiles.DeleteDirectory(_root);
    }

    [Benchmark(OperationsPerInvoke = Lookups)]
    public long FirstTickAtOrAfter()
    {
        long sum = 0;
        foreach (int target in _targets)
        {
            sum += _store!.FirstAtOrAfter(target);
        }

        return sum;
    }

    [Benchmark(OperationsPerInvoke = Sums)]
    public double HourTurnover()
    {
        double sum = 0;
        foreach (int from in _hours)
        {
            sum += _store!.Turnover(from, from + 3600);
        }

        return sum;
    }
}
