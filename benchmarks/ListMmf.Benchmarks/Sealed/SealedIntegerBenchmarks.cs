using System;
using System.IO;
using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Sealed;

/// <summary>
/// 4,194,304 Int32 values of the two kinds a tick table's integer columns hold, both sealed as frame of reference:
/// Unix-second times a few to a second (ascending, about 9 bits) and trade sizes of 1-200 (8 bits). Decoding the
/// sealed file beside copying the appendable file's span (the baseline), a run of 16,384 at a time into a buffer
/// that stays in the cache, as a scan reads. Time per value (OperationsPerInvoke); the setup prints each file's bytes
/// per value.
/// </summary>
public class SealedIntegerBenchmarks
{
    private const int Count = 4 << 20;

    /// <summary>The values each read takes: a scan's buffer, which stays in the core's cache.</summary>
    private const int Run = 16_384;

    private readonly int[] _destination = new int[Run];
    private string _appendablePath = "";
    private string _sealedPath = "";
    private ListMmf<int>? _appendable;
    private SealedListMmf<int>? _sealed;

    /// <summary>Which column.</summary>
    public enum IntegerColumn
    {
        Times,
        Sizes,
    }

    [Params(IntegerColumn.Times, IntegerColumn.Sizes)]
    public IntegerColumn Column { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _appendablePath = BenchmarkFiles.Fresh($"integers-{Column}");
        _sealedPath = BenchmarkFiles.Fresh($"integers-{Column}-sealed");
        using (var writer = new ListMmf<int>(_appendablePath))
        {
            writer.AddRange(Values(Column));
        }

        File.Copy(_appendablePath, _sealedPath);
        SealedListMmf.Seal(_sealedPath);
        _appendable = new ListMmf<int>(_appendablePath, FileAccess.Read);
        _sealed = new SealedListMmf<int>(_sealedPath);
        Console.WriteLine($"// {Column}: sealed {_sealed.LengthOnDisk:N0} bytes, {(double)_sealed.LengthOnDisk / Count:F3} bytes a value");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _appendable?.Dispose();
        _sealed?.Dispose();
        BenchmarkFiles.Delete(_appendablePath);
        BenchmarkFiles.Delete(_sealedPath);
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

    private static int[] Values(IntegerColumn column)
    {
        var random = new SplitMix64(23);
        int[] values = new int[Count];
        int time = 1_704_186_000;
        for (int i = 0; i < values.Length; i++)
        {
            time += random.Below(3) == 0 ? 1 : 0;
            values[i] = column == IntegerColumn.Times ? time : 1 + (int)random.Below(200);
        }

        return values;
    }
}
