using System.IO;
using BenchmarkDotNet.Attributes;

namespace ListMmf.Benchmarks.Core;

/// <summary>
/// <c>foreach</c> over a list, whose enumerator checks on every step that the list was not disposed, beside
/// <c>foreach</c> over a managed <c>int[]</c> and over <see cref="ListMmf{T}.AsSpan"/>. Results read per item.
/// </summary>
public class EnumeratorBenchmarks
{
    private int[] _array = [];
    private ListMmf<int>? _list;
    private string _path = "";

    [Params(1_000_000)]
    public int Count { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _array = BenchmarkFiles.Int32Items(Count);
        _path = BenchmarkFiles.WithItems("enumerator", _array);

        _list = new ListMmf<int>(_path, FileAccess.Read);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _list?.Dispose();
        BenchmarkFiles.Delete(_path);
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = 1_000_000)]
    public long ArrayForeach()
    {
        long sum = 0;
        foreach (int item in _array)
        {
            sum += item;
        }

        return sum;
    }

    [Benchmark(OperationsPerInvoke = 1_000_000)]
    public long ListForeach()
    {
        long sum = 0;
        foreach (int item in _list!)
        {
            sum += item;
        }

        return sum;
    }

    [Benchmark(OperationsPerInvoke = 1_000_000)]
    public long SpanForeach()
    {
        long sum = 0;
        foreach (int item in _list!.AsSpan(0, Count))
        {
            sum += item;
        }

        return sum;
    }
}
