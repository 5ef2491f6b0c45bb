using System;
using System.Collections.Generic;
using System.IO;
using ListMmf.Search;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// One LowerBound implementation over the dataset, searching a batch of targets per call; the batch loop calls the
/// implementation directly, so only the batch pays for the interface call.
/// </summary>
internal abstract class LowerBoundRunner : IDisposable
{
    protected LowerBoundRunner(string name) => Name = name;

    /// <summary>The implementations, in the order the tables list them; mmap first, the baseline.</summary>
    public static readonly string[] Names =
    [
        "mmap (Posix)", "MemoryMappedFile", "FileStream + Span", "BinaryReader", "Buffered 64 KiB", "RandomAccess (pread)", "int[] in RAM",
    ];

    public string Name { get; }

    public static List<LowerBoundRunner> OpenAll(string path)
    {
        var runners = new List<LowerBoundRunner>();
        try
        {
            foreach (string name in Names)
            {
                runners.Add(Open(name, path));
            }
        }
        catch
        {
            runners.ForEach(runner => runner.Dispose());
            throw;
        }

        return runners;
    }

    public static LowerBoundRunner Open(string name, string path) => name switch
    {
        "mmap (Posix)" => new Mapped(name, path, OperatingSystem.IsWindows() ? MappingBackend.Default : MappingBackend.Posix),
        "MemoryMappedFile" => new Mapped(name, path, MappingBackend.MemoryMappedFile),
        "FileStream + Span" => new FileReader(name, new FileStreamSortedReader<int>(path)),
        "BinaryReader" => new FileReader(name, new BinaryReaderSortedReader<int>(path)),
        "Buffered 64 KiB" => new FileReader(name, new BufferedSortedReader<int>(path)),
        "RandomAccess (pread)" => new FileReader(name, new RandomAccessSortedReader<int>(path)),
        "int[] in RAM" => new ManagedArray(name, path),
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "Unknown implementation."),
    };

    /// <summary>Searches every target; writes each LowerBound to <paramref name="results"/>.</summary>
    public abstract void Run(ReadOnlySpan<int> targets, Span<long> results);

    public abstract void Dispose();

    private sealed class Mapped(string name, string path, MappingBackend backend) : LowerBoundRunner(name)
    {
        private readonly SortedListMmf<int> _list = new(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read, new ListMmfOptions { Backend = backend });

        public override void Run(ReadOnlySpan<int> targets, Span<long> results)
        {
            for (int i = 0; i < targets.Length; i++)
            {
                results[i] = _list.LowerBound(targets[i]);
            }
        }


        public override void Dispose() => _list.Dispose();
    }

    private sealed class FileReader(string name, SortedFileReader<int> reader) : LowerBoundRunner(name)
    {
        public override void Run(ReadOnlySpan<int> targets, Span<long> results)
        {
            for (int i = 0; i < targets.Length; i++)
            {
                results[i] = reader.LowerBound(targets[i]);
            }
        }


        public override void Dispose() => reader.Dispose();
    }

    /// <summary>The ceiling: the same search over a managed <c>int[]</c> holding the whole file in RAM.</summary>
    private sealed class ManagedArray : LowerBoundRunner
    {
        private readonly int[] _items;

        public ManagedArray(string name, string path)
            : base(name)
        {
            using var list = new ListMmf<int>(path, FileAccess.Read);
            _items = GC.AllocateUninitializedArray<int>(checked((int)list.Count));
            for (int start = 0; start < _items.Length; start += 1 << 24)
            {
                int length = Math.Min(1 << 24, _items.Length - start);
                list.AsSpan(start, length).CopyTo(_items.AsSpan(start, length));
            }
        }

        public override void Run(ReadOnlySpan<int> targets, Span<long> results)
        {
            var source = new ArraySource<int>(_items);
            for (int i = 0; i < targets.Length; i++)
            {
                results[i] = SortedSearch.LowerBound(ref source, targets[i], 0, _items.Length);
            }
        }


        public override void Dispose()
        {
        }
    }
}
