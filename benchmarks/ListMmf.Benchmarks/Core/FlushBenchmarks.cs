using System.IO;
using BenchmarkDotNet.Attributes;

namespace ListMmf.Benchmarks.Core;

/// <summary>
/// A live writer's checkpoint: 1,000 Int64 ticks appended to a file that holds 10M already, then <c>Flush</c>, in a
/// version 1 file (the baseline: the pages after the first, then the first page, which holds the count beside the
/// first items) and a version 2 file (the items written since the last flush, then the header with the durable count).
/// Both are two barriers on Linux; before format 2 each was followed by a whole-file fsync, and the items' sync walked
/// every item of the file (measured against that build with a throw-away harness, benchmarks/README.md, "Flush"). The
/// files sit where LISTMMF_BENCH_DIR says: put them on the disk the data lives on, never on tmpfs, where a flush costs
/// nothing.
/// </summary>
[SimpleJob(warmupCount: 3, iterationCount: 15)]
[MedianColumn]
public class FlushBenchmarks
{
    private const int Appended = 1_000;
    private const int Held = 10_000_000;
    private const int Capacity = Held + (1 << 20);

    private ListMmf<long>? _version1;
    private ListMmf<long>? _version2;

    [GlobalSetup]
    public void Setup()
    {
        _version1 = Filled("flush-v1", ListMmfFormatVersion.Version1);
        _version2 = Filled("flush-v2", ListMmfFormatVersion.Version2);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        foreach (ListMmf<long>? list in new[] { _version1, _version2 })
        {
            if (list is not null)
            {
                string path = list.Path;
                list.Dispose();
                BenchmarkFiles.Delete(path);
            }
        }
    }

    [Benchmark(Baseline = true)]
    public void Version1() => AppendThenFlush(_version1!);

    [Benchmark]
    public void Version2() => AppendThenFlush(_version2!);

    private static ListMmf<long> Filled(string name, ListMmfFormatVersion format)
    {
        var list = new ListMmf<long>(
            BenchmarkFiles.Fresh(name), FileAccess.ReadWrite, new ListMmfOptions { FormatVersion = format, InitialCapacity = Capacity });
        for (long i = 0; i < Held; i++)
        {
            list.Add(i);
        }

        list.Flush();
        return list;
    }

    private static void AppendThenFlush(ListMmf<long> list)
    {
        if (list.Count > Capacity - Appended)
        {
            list.Truncate(Held);
        }

        long next = list.Count;
        for (int i = 0; i < Appended; i++)
        {
            list.Add(next + i);
        }

        list.Flush();
    }
}
