using System;
using System.IO;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Core;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// LowerBound by time over 192-byte quotes (<see cref="KeyedListMmf{TRow, TKey, TSelector}"/>): the plain binary
/// search over the rows (the baseline, as before the keyed list shared the sorted core) beside the same list through
/// the page index, and the sorted list of the same ticks through its own. Fresh random targets every operation, so
/// that the CPU caches are cold and the file is in the page cache.
/// </summary>
/// <remarks>dotnet run -c Release --project benchmarks/ListMmf.Benchmarks -- --filter '*KeyedLookupBenchmarks*'</remarks>
public class KeyedLookupBenchmarks
{
    private const int Lookups = 4096;
    private const int TargetSets = 64;

    private KeyedListMmf<Quote, long, ByTicks>? _plain;
    private KeyedListMmf<Quote, long, ByTicks>? _indexed;
    private SortedListMmf<long>? _ticks;
    private long[][] _targets = [];
    private int _next;
    private string _quotesPath = "";
    private string _ticksPath = "";

    /// <summary>Quotes in the list: 192 MB and 1.9 GB of rows.</summary>
    [Params(1_000_000, 10_000_000)]
    public int Rows { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _quotesPath = BenchmarkFiles.Fresh("keyed-quotes");
        _ticksPath = BenchmarkFiles.Fresh("keyed-ticks");
        var random = new Random(7);
        long ticks = new DateTime(2024, 1, 2, 9, 30, 0).Ticks;
        using (var quotes = new KeyedListMmf<Quote, long, ByTicks>(_quotesPath, TimeSeriesOrder.AscendingOrEqual))
        using (var keys = new SortedListMmf<long>(_ticksPath, TimeSeriesOrder.AscendingOrEqual))
        {
            var batch = new Quote[4096];
            var batchTicks = new long[batch.Length];
            for (int written = 0; written < Rows; written += batch.Length)
            {
                int size = Math.Min(batch.Length, Rows - written);
                for (int i = 0; i < size; i++)
                {
                    // Bursts of equal stamps and gaps, as quotes arrive.
                    ticks += random.Next(4) == 0 ? random.Next(1, 200_000) : 0;
                    batch[i] = new Quote { Ticks = ticks, Bid = written + i };
                    batchTicks[i] = ticks;
                }

                quotes.AddRange(batch.AsSpan(0, size));
                keys.AddRange(batchTicks.AsSpan(0, size));
            }
        }

        var unindexed = new ListMmfOptions { SearchIndex = false };
        _plain = new KeyedListMmf<Quote, long, ByTicks>(_quotesPath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read, unindexed);
        _indexed = new KeyedListMmf<Quote, long, ByTicks>(_quotesPath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        _ticks = new SortedListMmf<long>(_ticksPath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        long first = _plain.KeyAt(0), last = _plain.KeyAt(Rows - 1);
        _targets = new long[TargetSets][];
        for (int set = 0; set < TargetSets; set++)
        {
            _targets[set] = new long[Lookups];
            for (int i = 0; i < Lookups; i++)
            {
                _targets[set][i] = first + random.NextInt64(last - first + 1);
            }
        }

        // Built here, not in the first measured operation.
        _indexed.LowerBound(first);
        _ticks.LowerBound(first);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _plain?.Dispose();
        _indexed?.Dispose();
        _ticks?.Dispose();
        BenchmarkFiles.Delete(_quotesPath);
        BenchmarkFiles.Delete(_ticksPath);
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Lookups)]
    public long KeyedBinarySearch() => Search(_plain!.LowerBound);

    [Benchmark(OperationsPerInvoke = Lookups)]
    public long KeyedPageIndex() => Search(_indexed!.LowerBound);

    /// <summary>The sorted list of the same ticks: what a column of times alone gives.</summary>
    [Benchmark(OperationsPerInvoke = Lookups)]
    public long SortedTicksPageIndex() => Search(_ticks!.LowerBound);

    private long Search(Func<long, long> lowerBound)
    {
        long[] targets = _targets[_next++ % TargetSets];
        long sum = 0;
        foreach (long target in targets)
        {
            sum += lowerBound(target);
        }

        return sum;
    }

    /// <summary>A 192-byte quote stamped in ticks.</summary>
    [StructLayout(LayoutKind.Sequential, Size = 192)]
    public struct Quote
    {
        public long Ticks;
        public double Bid;
    }

    private struct ByTicks : IKeySelector<Quote, long>
    {
        public static long KeyOf(in Quote quote) => quote.Ticks;
    }
}
