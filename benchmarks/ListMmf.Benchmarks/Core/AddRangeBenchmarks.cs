using System;
using System.IO;
using BenchmarkDotNet.Attributes;

namespace ListMmf.Benchmarks.Core;

/// <summary>
/// One <c>AddRange</c> of 64 MiB of Int32 items, beside copying the same bytes into a managed <c>int[]</c> that
/// is already allocated and touched. Two cases per backend: into a new, empty file, which grows while it is
/// written as a live writer's does (each new page is a page fault on a file-backed page), and over a list
/// truncated to 0, whose pages are already in memory (memcpy into the mapping). Throughput in GB/s is
/// 67,108,864 bytes divided by the mean time. One operation per iteration, because each needs its own setup.
/// </summary>
[InvocationCount(1)]
public class AddRangeBenchmarks
{
    private const int Items = 16 << 20;

    private int[] _source = [];
    private int[] _destination = [];
    private string _path = "";
    private ListMmf<int>? _list;

    [Params(MappingBackend.Posix, MappingBackend.MemoryMappedFile)]
    public MappingBackend Backend { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _source = new int[Items];
        for (int i = 0; i < _source.Length; i++)
        {
            _source[i] = i;
        }

        _destination = new int[Items];
        _source.AsSpan().CopyTo(_destination);
        _path = BenchmarkFiles.Fresh("addrange");
    }

    [IterationSetup(Target = nameof(AddRangeIntoNewFile))]
    public void NewList()
    {
        CloseList();
        BenchmarkFiles.Delete(_path);
        _list = Open();
    }

    [IterationSetup(Target = nameof(AddRangeOverTruncatedList))]
    public void TruncatedList()
    {
        if (_list is null)
        {
            BenchmarkFiles.Delete(_path);
            _list = Open();
            _list.AddRange(_source);
        }

        _list.Truncate(0);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        CloseList();
        BenchmarkFiles.Delete(_path);
    }

    [Benchmark(Baseline = true)]
    public void ArrayCopy() => _source.AsSpan().CopyTo(_destination);

    [Benchmark]
    public void AddRangeIntoNewFile() => _list!.AddRange(_source);

    [Benchmark]
    public void AddRangeOverTruncatedList() => _list!.AddRange(_source);

    private ListMmf<int> Open() => new(_path, FileAccess.ReadWrite, new ListMmfOptions { Backend = Backend });

    private void CloseList()
    {
        _list?.Dispose();
        _list = null;
    }
}
