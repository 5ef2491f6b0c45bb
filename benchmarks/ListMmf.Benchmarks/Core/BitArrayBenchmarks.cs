using System.Collections;
using System.IO;
using BenchmarkDotNet.Attributes;

namespace ListMmf.Benchmarks.Core;

/// <summary>
/// Bulk operations over 10,000,000 bits: <see cref="ListMmfBitArray"/> over its mapped file beside
/// <see cref="BitArray"/> in managed memory, the same work in one run (And, then Not; a population count, which
/// BitArray has none of, so its side copies the words out and counts them).
/// </summary>
[MemoryDiagnoser]
public class BitArrayBenchmarks
{
    private const int Bits = 10_000_000;
    private readonly int[] _words = new int[(Bits + 31) / 32];
    private BitArray _left = new(0);
    private BitArray _right = new(0);
    private ListMmfBitArray? _mappedLeft;
    private ListMmfBitArray? _mappedRight;
    private string _leftPath = "";
    private string _rightPath = "";

    [GlobalSetup]
    public void Setup()
    {
        var values = new bool[Bits];
        var others = new bool[Bits];
        var random = new Data.SplitMix64(5);
        for (int i = 0; i < Bits; i++)
        {
            values[i] = (random.Next() & 1) != 0;
            others[i] = (random.Next() & 3) != 0;
        }

        _left = new BitArray(values);
        _right = new BitArray(others);
        _leftPath = BenchmarkFiles.Fresh("bits-left");
        _rightPath = BenchmarkFiles.Fresh("bits-right");
        _mappedLeft = new ListMmfBitArray(_leftPath);
        _mappedLeft.AddRange(values);
        _mappedRight = new ListMmfBitArray(_rightPath);
        _mappedRight.AddRange(others);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _mappedLeft?.Dispose();
        _mappedRight?.Dispose();
        BenchmarkFiles.Delete(_leftPath);
        BenchmarkFiles.Delete(_rightPath);
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("And")]
    public BitArray BitArrayAndNot() => _left.And(_right).Not();

    [Benchmark]
    [BenchmarkCategory("And")]
    public ListMmfBitArray MappedAndNot() => _mappedLeft!.And(_mappedRight!).Not();

    [Benchmark]
    public long BitArrayPopCount()
    {
        _left.CopyTo(_words, 0);
        long set = 0;
        foreach (int word in _words)
        {
            set += System.Numerics.BitOperations.PopCount((uint)word);
        }

        return set;
    }

    [Benchmark]
    public long MappedPopCount() => _mappedLeft!.PopCount();
}
