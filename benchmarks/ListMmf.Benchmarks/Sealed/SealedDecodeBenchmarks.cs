using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Core;

namespace ListMmf.Benchmarks.Sealed;

/// <summary>
/// The shape every sealed-codec benchmark shares: <see cref="Count"/> values of one column written to an appendable
/// file and to a sealed copy in <c>[GlobalSetup]</c>, then decoding the sealed file beside copying the appendable file's
/// span (the baseline), a run of 16,384 at a time into a buffer that stays in the cache, as a scan reads; and sealing
/// a fresh copy of the appendable file (read, encode, write and make durable), which needs one invocation an iteration
/// (<c>[InvocationCount(1)]</c> on each class); and every value read through each list's indexer in order, as a gather
/// of ascending rows (an ASOF join's matches) reads; and a quarter of the rows, ascending with random gaps (the quotes an
/// ASOF join of trades matched), gathered by each list's <c>Gather</c> beside the sealed list's indexer. Time per value
/// (OperationsPerInvoke); the setup prints the sealed file's bytes per value.
/// </summary>
/// <typeparam name="T">The column's item type.</typeparam>
public abstract class SealedDecodeBenchmarks<T>
    where T : unmanaged
{
    /// <summary>The values of each file.</summary>
    protected const int Count = 4 << 20;

    /// <summary>The values each read takes: a scan's buffer, which stays in the core's cache.</summary>
    private const int Run = 16_384;

    /// <summary>The rows each gather reads: a quarter of them.</summary>
    private const int Gathered = Count / 4;

    private readonly T[] _destination = new T[Run];
    private readonly T[] _gathered = new T[Gathered];
    private long[] _rows = [];
    private readonly List<string> _paths = [];
    private ListMmf<T>? _appendable;
    private SealedListMmf<T>? _sealed;
    private string _sealPath = "";

    /// <summary>The appendable file, written by the setup.</summary>
    protected string AppendablePath { get; private set; } = "";

    /// <summary>The column's name in the scratch files' names and the setup's line, e.g. "prices-Cents".</summary>
    protected abstract string ColumnName { get; }

    [GlobalSetup]
    public void Setup()
    {
        AppendablePath = FreshPath(ColumnName);
        string sealedPath = FreshPath($"{ColumnName}-sealed");
        using (var writer = new ListMmf<T>(AppendablePath))
        {
            writer.AddRange(Values());
        }

        File.Copy(AppendablePath, sealedPath);
        SealedListMmf.Seal(sealedPath);
        _appendable = new ListMmf<T>(AppendablePath, FileAccess.Read);
        _sealed = new SealedListMmf<T>(sealedPath);
        var random = new Data.SplitMix64(29);
        _rows = Enumerable.Range(0, Gathered).Select(_ => (long)random.Below(Count)).Order().ToArray();
        Console.WriteLine($"// {ColumnName}: sealed {_sealed.LengthOnDisk:N0} bytes, {(double)_sealed.LengthOnDisk / Count:F3} bytes a value");
    }

    [IterationSetup(Target = nameof(Seal))]
    public void CopyToSeal()
    {
        if (_sealPath.Length == 0)
        {
            _sealPath = FreshPath($"{ColumnName}-seal");
        }

        BenchmarkFiles.Delete(_sealPath);
        File.Copy(AppendablePath, _sealPath);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _appendable?.Dispose();
        _sealed?.Dispose();
        foreach (string path in _paths)
        {
            BenchmarkFiles.Delete(path);
        }
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

    /// <summary>Every value through the appendable list's indexer, in order, as a gather of ascending rows reads.</summary>
    [Benchmark(OperationsPerInvoke = Count)]
    public void IndexAppendable()
    {
        ListMmf<T> list = _appendable!;
        for (int at = 0; at < Count; at++)
        {
            _destination[at & (Run - 1)] = list[at];
        }
    }

    /// <summary>Every value through the sealed list's indexer, in order, as <see cref="IndexAppendable"/>.</summary>
    [Benchmark(OperationsPerInvoke = Count)]
    public void IndexSealed()
    {
        SealedListMmf<T> list = _sealed!;
        for (int at = 0; at < Count; at++)
        {
            _destination[at & (Run - 1)] = list[at];
        }
    }

    /// <summary>A quarter of the rows, ascending with random gaps, gathered from the appendable list.</summary>
    [Benchmark(OperationsPerInvoke = Gathered)]
    public void GatherAppendable() => _appendable!.Gather(_rows, _gathered);

    /// <summary>The same rows gathered from the sealed list: a block decoded once for the rows in it.</summary>
    [Benchmark(OperationsPerInvoke = Gathered)]
    public void GatherSealed() => _sealed!.Gather(_rows, _gathered);

    /// <summary>The same rows through the sealed list's indexer, one at a time, as a gather without <c>Gather</c> reads.</summary>
    [Benchmark(OperationsPerInvoke = Gathered)]
    public void IndexSealedRows()
    {
        SealedListMmf<T> list = _sealed!;
        long[] rows = _rows;
        for (int i = 0; i < rows.Length; i++)
        {
            _gathered[i] = list[rows[i]];
        }
    }

    [Benchmark(OperationsPerInvoke = Count)]
    public bool Seal() => SealedListMmf.Seal(_sealPath);

    /// <summary>The column's <see cref="Count"/> values, the same in every process.</summary>
    protected abstract T[] Values();

    /// <summary>A fresh scratch path that the cleanup deletes.</summary>
    protected string FreshPath(string name)
    {
        string path = BenchmarkFiles.Fresh(name);
        _paths.Add(path);
        return path;
    }
}
