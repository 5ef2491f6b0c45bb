using System;
using System.IO;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;

namespace ListMmf.Benchmarks.Core;

/// <summary>
/// Indexer reads of Int32 items through each mapping backend beside the same reads from a managed <c>int[]</c>.
/// Sequential reads walk the whole list a window at a time; random reads use precomputed random indices over
/// the whole list. Results read per item; each group's baseline is the array.
/// </summary>
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class IndexerReadBenchmarks
{
    private const int Window = 1 << 16;
    private const int RandomReads = 1 << 12;

    private int[] _array = [];
    private long[] _randomIndices = [];
    private ListMmf<int>? _posix;
    private ListMmf<int>? _memoryMappedFile;
    private string _path = "";
    private long _sequentialStart;

    /// <summary>Items in the list: 4 MB (fits in cache) and 400 MB (does not).</summary>
    [Params(1_000_000, 100_000_000)]
    public int Count { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _array = BenchmarkFiles.Int32Items(Count);
        _path = BenchmarkFiles.WithItems("indexer", _array);

        _posix = new ListMmf<int>(_path, FileAccess.Read, new ListMmfOptions { Backend = MappingBackend.Posix });
        _memoryMappedFile = new ListMmf<int>(_path, FileAccess.Read, new ListMmfOptions { Backend = MappingBackend.MemoryMappedFile });

        var random = new Random(42);
        _randomIndices = new long[RandomReads];
        for (int i = 0; i < _randomIndices.Length; i++)
        {
            _randomIndices[i] = random.NextInt64(Count);
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _posix?.Dispose();
        _memoryMappedFile?.Dispose();
        BenchmarkFiles.Delete(_path);
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Window), BenchmarkCategory("Sequential")]
    public long ArraySequential()
    {
        long start = NextWindow();
        long sum = 0;
        int[] array = _array;
        for (long i = start; i < start + Window; i++)
        {
            sum += array[i];
        }

        return sum;
    }

    [Benchmark(OperationsPerInvoke = Window), BenchmarkCategory("Sequential")]
    public long PosixSequential() => SumWindow(_posix!);

    [Benchmark(OperationsPerInvoke = Window), BenchmarkCategory("Sequential")]
    public long MemoryMappedFileSequential() => SumWindow(_memoryMappedFile!);

    /// <summary>The same window read through <see cref="ListMmf{T}.AsSpan"/>: how scans should read a list.</summary>
    [Benchmark(OperationsPerInvoke = Window), BenchmarkCategory("Sequential")]
    public long PosixSpanSequential()
    {
        long sum = 0;
        foreach (int item in _posix!.AsSpan(NextWindow(), Window))
        {
            sum += item;
        }

        return sum;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = RandomReads), BenchmarkCategory("Random")]
    public long ArrayRandom()
    {
        long sum = 0;
        int[] array = _array;
        foreach (long index in _randomIndices)
        {
            sum += array[index];
        }

        return sum;
    }

    [Benchmark(OperationsPerInvoke = RandomReads), BenchmarkCategory("Random")]
    public long PosixRandom() => SumRandom(_posix!);

    [Benchmark(OperationsPerInvoke = RandomReads), BenchmarkCategory("Random")]
    public long MemoryMappedFileRandom() => SumRandom(_memoryMappedFile!);

    private long NextWindow()
    {
        long start = _sequentialStart;
        _sequentialStart = start + Window + Window > Count ? 0 : start + Window;
        return start;
    }

    private long SumWindow(ListMmf<int> list)
    {
        long start = NextWindow();
        long sum = 0;
        for (long i = start; i < start + Window; i++)
        {
            sum += list[i];
        }

        return sum;
    }

    private long SumRandom(ListMmf<int> list)
    {
        long sum = 0;
        foreach (long index in _randomIndices)
        {
            sum += list[index];
        }

        return sum;
    }
}
