using System;
using System.IO;
using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Sealed;

/// <summary>
/// 4,194,304 prices of each kind the sealed codecs meet (quarter points as ticks of a power of two, cents and
/// five-place pips as decimals), each a walk of up to 3 units a trade: decoding the sealed file beside copying the
/// appendable file's span (the baseline), a run of 16,384 at a time into a buffer that stays in the cache, as a scan
/// reads; and sealing a copy of the appendable file (read, encode, write and make durable). Time per price
/// (OperationsPerInvoke); the setup prints each file's bytes per price.
/// </summary>
[InvocationCount(1)]
public class SealedPriceBenchmarks
{
    private const int Count = 4 << 20;

    /// <summary>The values each read takes: a scan's buffer, which stays in the core's cache.</summary>
    private const int Run = 16_384;

    private readonly double[] _destination = new double[Run];
    private string _appendablePath = "";
    private string _sealedPath = "";
    private string _sealPath = "";
    private ListMmf<double>? _appendable;
    private SealedListMmf<double>? _sealed;

    /// <summary>How the prices are quoted.</summary>
    public enum PriceUnit
    {
        QuarterPoints,
        Cents,
        Pips,
    }

    [Params(PriceUnit.QuarterPoints, PriceUnit.Cents, PriceUnit.Pips)]
    public PriceUnit Unit { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _appendablePath = BenchmarkFiles.Fresh($"prices-{Unit}");
        _sealedPath = BenchmarkFiles.Fresh($"prices-{Unit}-sealed");
        _sealPath = BenchmarkFiles.Fresh($"prices-{Unit}-seal");
        using (var writer = new ListMmf<double>(_appendablePath))
        {
            writer.AddRange(Prices(Unit));
        }

        File.Copy(_appendablePath, _sealedPath);
        SealedListMmf.Seal(_sealedPath);
        _appendable = new ListMmf<double>(_appendablePath, FileAccess.Read);
        _sealed = new SealedListMmf<double>(_sealedPath);
        Console.WriteLine($"// {Unit}: sealed {_sealed.LengthOnDisk:N0} bytes, {(double)_sealed.LengthOnDisk / Count:F3} bytes a price");
    }

    [IterationSetup(Target = nameof(Seal))]
    public void CopyToSeal()
    {
        BenchmarkFiles.Delete(_sealPath);
        File.Copy(_appendablePath, _sealPath);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _appendable?.Dispose();
        _sealed?.Dispose();
        BenchmarkFiles.Delete(_appendablePath);
        BenchmarkFiles.Delete(_sealedPath);
        BenchmarkFiles.Delete(_sealPath);
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public void CopyAppendable()
    {
        for (int at = 0; at < Count; at += Run)
        {
            _appendable!.AsSpan(at, Run).CopyTo(_destination);
        }
    }

    [Benchmark(OperationsPerInvoke = Count)]
    public void DecodeSealed()
    {
        for (int at = 0; at < Count; at += Run)
        {
            _sealed!.CopyTo(at, _destination);
        }
    }

    [Benchmark(OperationsPerInvoke = Count)]
    public bool Seal() => SealedListMmf.Seal(_sealPath);

    /// <summary>A walk of up to 3 units a trade from a price typical of the unit, each price as a parser makes it.</summary>
    private static double[] Prices(PriceUnit unit)
    {
        (long start, double perUnit) = unit switch
        {
            PriceUnit.QuarterPoints => (18_000L, 4.0),
            PriceUnit.Cents => (18_734L, 100.0),
            _ => (108_731L, 100_000.0),
        };
        var random = new SplitMix64(17);
        double[] prices = new double[Count];
        long units = start;
        for (int i = 0; i < prices.Length; i++)
        {
            units += (long)random.Below(7) - 3;
            prices[i] = units / perUnit;
        }

        return prices;
    }
}
