using System;
using System.IO;
using BenchmarkDotNet.Attributes;

namespace ListMmf.Benchmarks.Core;

/// <summary>
/// Bulk reads of 1,000,000 integers into a <see cref="Span{T}"/> of long: <see cref="IntegerListMmf.CopyTo"/> from a
/// file of each stored width, beside copying the same count of long items out of an Int64 file (a memcpy). Time per
/// value (OperationsPerInvoke).
/// </summary>
public class IntegerReadBenchmarks
{
    private const int Count = 1_000_000;
    private readonly long[] _destination = new long[Count];
    private string _path = "";
    private string _longPath = "";
    private IntegerListMmf? _list;
    private ListMmf<long>? _longs;

    [Params(DataType.SByte, DataType.Int16, DataType.Int24, DataType.Int32, DataType.Int40, DataType.Int48, DataType.Int56, DataType.Int64)]
    public DataType Width { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        // Values spread over the whole signed range of the width, both ends included, so that the smallest-width
        // list stores them with exactly that code.
        var values = new long[Count];
        (long min, long max) = IntegerWidths.RangeOf(Width);
        var random = new Data.SplitMix64(11);
        values[0] = min;
        values[1] = max;
        for (int i = 2; i < Count; i++)
        {
            values[i] = Width == DataType.Int64 ? (long)random.Next() : min + (long)(random.Next() % (ulong)(max - min + 1));
        }

        _path = BenchmarkFiles.Fresh($"integers-{Width}");
        using (IntegerListMmf writer = IntegerListMmf.OpenSmallest(_path))
        {
            writer.AddRange(values);
        }

        _longPath = BenchmarkFiles.Fresh("integers-long");
        using (var writer = new ListMmf<long>(_longPath))
        {
            writer.AddRange(values);
        }

        _list = IntegerListMmf.Open(_path, FileAccess.Read);
        if (_list.DataType != Width)
        {
            throw new InvalidOperationException($"The benchmark file was stored as {_list.DataType}, not {Width}.");
        }

        _longs = new ListMmf<long>(_longPath, FileAccess.Read);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _list?.Dispose();
        _longs?.Dispose();
        BenchmarkFiles.Delete(_path);
        BenchmarkFiles.Delete(_longPath);
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public void CopyLongItems() => _longs!.AsSpan(0, Count).CopyTo(_destination);

    [Benchmark(OperationsPerInvoke = Count)]
    public void CopyToLongs() => _list!.CopyTo(0, _destination);
}
