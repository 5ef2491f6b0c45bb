using System;
using BenchmarkDotNet.Attributes;

namespace ListMmf.Benchmarks.Core;

/// <summary>
/// Appending 64 MiB of Int32 items with one <c>AddRange</c> to a new, empty list (so the file grows while it is
/// written, as a live writer's does), beside copying the same bytes into a new managed <c>int[]</c>.
/// Throughput in GB/s is 67,108,864 bytes divided by the mean time.
/// </summary>
public class AddRangeBenchmarks
{
    private const int Items = 16 << 20;

    private int[] _source = [];
    private int[] _destination = [];
    private ListMmf<int>? _list;
    private string _path = "";

    [GlobalSetup]
    public void Setup()
    {
        _source = new int[Items];
        for (int i = 0; i < _source.Length; i++)
        {
            _source[i] = i;
        }

        _path = BenchmarkFiles.Fresh("addrange");
    }

    [IterationSetup(Target = nameof(ArrayCopy))]
    public void NewArray() => _destination = new int[Items];

    [IterationSetup(Target = nameof(PosixAddRange))]
    public void NewPosixList() => _list = NewList(MappingBackend.Posix);

    [IterationSetup(Target = nameof(MemoryMappedFileAddRange))]
    public void NewMemoryMappedFileList() => _list = NewList(MappingBackend.MemoryMappedFile);

    [IterationCleanup]
    public void CloseList()
    {
        _list?.Dispose();
        _list = null;
        _destination = [];
    }

    [GlobalCleanup]
    public void Cleanup() => BenchmarkFiles.Delete(_path);

    [Benchmark(Baseline = true)]
    public void ArrayCopy() => _source.AsSpan().CopyTo(_destination);

    [Benchmark]
    public void PosixAddRange() => _list!.AddRange(_source);

    [Benchmark]
    public void MemoryMappedFileAddRange() => _list!.AddRange(_source);

    private ListMmf<int> NewList(MappingBackend backend)
    {
        BenchmarkFiles.Delete(_path);
        return new ListMmf<int>(_path, System.IO.FileAccess.ReadWrite, new ListMmfOptions { Backend = backend });
    }
}
