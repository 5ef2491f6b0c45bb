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
        "mmap (Posix)", "MemoryMappedFile", "mmap indexed", "mmap batched 16", "mmap batched 64",
        "FileStream + Span", "BinaryReader", "Buffered 64 KiB", "RandomAccess (pread)", "int[] in RAM", "sealed",
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
        "mmap (Posix)" => new Mapped(name, path, MappingBackend.Default, indexed: false, batch: 1),
        "MemoryMappedFile" => new Mapped(name, path, MappingBackend.MemoryMappedFile, indexed: false, batch: 1),
        "mmap indexed" => new Mapped(name, path, MappingBackend.Default, indexed: true, batch: 1),
        "mmap batched 16" => new Mapped(name, path, MappingBackend.Default, indexed: true, batch: 16),
        "mmap batched 64" => new Mapped(name, path, MappingBackend.Default, indexed: true, batch: 64),
        "FileStream + Span" => new FileReader(name, new FileStreamSortedReader<int>(path)),
        "BinaryReader" => new FileReader(name, new BinaryReaderSortedReader<int>(path)),
        "Buffered 64 KiB" => new FileReader(name, new BufferedSortedReader<int>(path)),
        "RandomAccess (pread)" => new FileReader(name, new RandomAccessSortedReader<int>(path)),
        "int[] in RAM" => new ManagedArray(name, path),
        "sealed" => new Sealed(name, ReferenceDataset.SealedPathFor(ListMmfFileInfo.Read(path).Count)),
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "Unknown implementation."),
    };

    /// <summary>The index build of the first indexed runner, if any: time and bytes.</summary>
    public static (TimeSpan Time, long Bytes)? IndexBuildOf(IEnumerable<LowerBoundRunner> runners)
    {
        foreach (LowerBoundRunner runner in runners)
        {
            if (runner is Mapped { IndexBuild: { } build })
            {
                return build;
            }
        }

        return null;
    }

    /// <summary>Searches every target; writes each LowerBound to <paramref name="results"/>.</summary>
    public abstract void Run(ReadOnlySpan<int> targets, Span<long> results);

    public abstract void Dispose();

    /// <summary>
    /// The mapped search: the plain binary search (the baseline, index off), the page index one query at a time, or
    /// the batched search in batches of <c>batch</c>. An index is built here, before anything is timed.
    /// </summary>
    private sealed class Mapped : LowerBoundRunner
    {
        private readonly SortedListMmf<int> _list;
        private readonly int _batch;

        public Mapped(string name, string path, MappingBackend backend, bool indexed, int batch)
            : base(name)
        {
            _list = new(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read, new ListMmfOptions { Backend = backend, SearchIndex = indexed });
            _batch = batch;
            if (indexed)
            {
                long start = System.Diagnostics.Stopwatch.GetTimestamp();
                _list.LowerBound(0);
                IndexBuild = (System.Diagnostics.Stopwatch.GetElapsedTime(start), _list.Index?.Bytes ?? 0);
            }
        }

        /// <summary>How long the first search took, building the index, and the index's size.</summary>
        public (TimeSpan Time, long Bytes)? IndexBuild { get; }

        public override void Run(ReadOnlySpan<int> targets, Span<long> results)
        {
            if (_batch == 1)
            {
                for (int i = 0; i < targets.Length; i++)
                {
                    results[i] = _list.LowerBound(targets[i]);
                }

                return;
            }

            for (int start = 0; start < targets.Length; start += _batch)
            {
                int size = Math.Min(_batch, targets.Length - start);
                _list.LowerBound(targets.Slice(start, size), results.Slice(start, size));
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

    /// <summary>
    /// The sealed copy of the dataset (<see cref="ReferenceDataset.EnsureSealed"/>): the directory's first items, then
    /// one compressed block, searched in place.
    /// </summary>
    private sealed class Sealed(string name, string path) : LowerBoundRunner(name)
    {
        private readonly SealedListMmf<int> _list = new(path);

        public override void Run(ReadOnlySpan<int> targets, Span<long> results)
        {
            for (int i = 0; i < targets.Length; i++)
            {
                results[i] = _list.LowerBound(targets[i]);
            }
        }

        public override void Dispose() => _list.Dispose();
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
