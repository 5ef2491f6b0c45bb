using System;
using System.Globalization;
using BenchmarkDotNet.Attributes;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// The benchmark study's measurement: 1,000 LowerBound searches per operation over the reference timestamp file, by
/// every implementation (the plain mapped binary search, the page index one query at a time and in batches of 16
/// and 64, the file readers, a managed array, the sealed copy), with the plain mapped search as the baseline. <c>OperationsPerInvoke</c> makes the Mean read per search;
/// ns per search is also µs per 1,000 searches. The dataset is the one the <c>lowerbound</c> command prepared
/// (its size passed in <c>LISTMMF_DATASET_ELEMENTS</c>).
/// </summary>
[Config(typeof(LowerBoundConfig))]
public class LowerBoundBenchmarks
{
    public const string ElementsVariable = "LISTMMF_DATASET_ELEMENTS";
    private const int FreshTargets = 1 << 22;

    private readonly long[] _results = new long[QueryTargets.PerOperation];
    private LowerBoundRunner? _runner;
    private int[] _targets = [];
    private int _next;

    /// <summary>
    /// "fixed": the same 1,000 targets every operation, as in the original study (CPU caches warm). "fresh": new targets
    /// every operation (caches cold, file in the page cache).
    /// </summary>
    [Params("fixed", "fresh")]
    public string QuerySet { get; set; } = "fixed";

    [GlobalSetup(Target = nameof(Mmap))]
    public void SetupMmap() => Setup("mmap (Posix)");

    [GlobalSetup(Target = nameof(MemoryMappedFile))]
    public void SetupMemoryMappedFile() => Setup("MemoryMappedFile");

    [GlobalSetup(Target = nameof(MmapIndexed))]
    public void SetupMmapIndexed() => Setup("mmap indexed");

    [GlobalSetup(Target = nameof(MmapBatched16))]
    public void SetupMmapBatched16() => Setup("mmap batched 16");

    [GlobalSetup(Target = nameof(MmapBatched64))]
    public void SetupMmapBatched64() => Setup("mmap batched 64");

    [GlobalSetup(Target = nameof(FileStreamSpan))]
    public void SetupFileStreamSpan() => Setup("FileStream + Span");

    [GlobalSetup(Target = nameof(BinaryReader))]
    public void SetupBinaryReader() => Setup("BinaryReader");

    [GlobalSetup(Target = nameof(Buffered64KiB))]
    public void SetupBuffered() => Setup("Buffered 64 KiB");

    [GlobalSetup(Target = nameof(RandomAccessPread))]
    public void SetupRandomAccess() => Setup("RandomAccess (pread)");

    [GlobalSetup(Target = nameof(ManagedArray))]
    public void SetupManagedArray() => Setup("int[] in RAM");

    [GlobalSetup(Target = nameof(Sealed))]
    public void SetupSealed() => Setup("sealed");

    [GlobalCleanup]
    public void Cleanup() => _runner?.Dispose();

    [Benchmark(Baseline = true, OperationsPerInvoke = QueryTargets.PerOperation, Description = "mmap (Posix)")]
    public long Mmap() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "MemoryMappedFile")]
    public long MemoryMappedFile() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "mmap indexed")]
    public long MmapIndexed() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "mmap batched 16")]
    public long MmapBatched16() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "mmap batched 64")]
    public long MmapBatched64() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "FileStream + Span")]
    public long FileStreamSpan() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "BinaryReader")]
    public long BinaryReader() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "Buffered 64 KiB")]
    public long Buffered64KiB() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "RandomAccess (pread)")]
    public long RandomAccessPread() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "int[] in RAM")]
    public long ManagedArray() => Search();

    [Benchmark(OperationsPerInvoke = QueryTargets.PerOperation, Description = "sealed")]
    public long Sealed() => Search();

    private void Setup(string implementation)
    {
        string? elements = Environment.GetEnvironmentVariable(ElementsVariable);
        string path = ReferenceDataset.PathFor(elements is null ? ReferenceDataset.ReferenceElements : long.Parse(elements, CultureInfo.InvariantCulture));
        _runner = LowerBoundRunner.Open(implementation, path);
        using var list = new ListMmf<int>(path, System.IO.FileAccess.Read);
        int first = list[0];
        int last = list[list.Count - 1];
        _targets = QuerySet == "fixed" ? QueryTargets.Fixed(first, last) : QueryTargets.Fresh(first, last, FreshTargets);
        _next = 0;
    }

    private long Search()
    {
        ReadOnlySpan<int> targets = _targets.AsSpan(_next, QueryTargets.PerOperation);
        if (_targets.Length > QueryTargets.PerOperation)
        {
            _next = _next + (2 * QueryTargets.PerOperation) > _targets.Length ? 0 : _next + QueryTargets.PerOperation;
        }

        _runner!.Run(targets, _results);
        return _results[^1];
    }
}
