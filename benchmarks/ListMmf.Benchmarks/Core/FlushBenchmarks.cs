using System.IO;
using BenchmarkDotNet.Attributes;

namespace ListMmf.Benchmarks.Core;

/// <summary>
/// A writer's checkpoint: 1,000 Int64 ticks appended, then <c>Flush</c>, for each file format. Version 2 flushes in two
/// barriers (the items, then the header with the durable count), version 1 in two as well on Linux (the pages after
/// the first, then the first page, which holds the count beside the first items); before format 2 each was followed by
/// a whole-file fsync, four barriers in all (measured against that build with a throw-away harness, benchmarks/README.md,
/// "Flush"). The file sits where LISTMMF_BENCH_DIR says: put it on the disk the data lives on, never on tmpfs, where a
/// flush costs nothing.
/// </summary>
public class FlushBenchmarks
{
    private const int Appended = 1_000;

    private string _path = "";
    private ListMmf<long>? _list;

    [Params(ListMmfFormatVersion.Version1, ListMmfFormatVersion.Version2)]
    public ListMmfFormatVersion Format { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _path = BenchmarkFiles.Fresh($"flush-{Format}");
        _list = new ListMmf<long>(_path, FileAccess.ReadWrite, new ListMmfOptions { FormatVersion = Format, InitialCapacity = 1 << 24 });
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _list?.Dispose();
        BenchmarkFiles.Delete(_path);
    }

    [Benchmark]
    public void AppendThenFlush()
    {
        ListMmf<long> list = _list!;
        if (list.Count > (1 << 24) - Appended)
        {
            list.Truncate(0);
        }

        long next = list.Count;
        for (int i = 0; i < Appended; i++)
        {
            list.Add(next + i);
        }

        list.Flush();
    }
}
