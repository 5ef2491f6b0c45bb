using System;
using System.Collections.Generic;
using System.IO;
using ListMmf.Search;

namespace ListMmf.Tests.Search;

/// <summary>One way of searching a sorted Int32 file, as the parity tests see it.</summary>
public interface ISortedSearcher : IDisposable
{
    string Name { get; }

    long LowerBound(int value, long first, long last);

    long UpperBound(int value, long first, long last);
}

/// <summary>
/// Every search implementation of the library over one file: the two mapping backends with a plain binary search,
/// with the page index (forced on for lists of any size) and as a cold start searches (pages read beside the
/// mapping, through the fence file where the index build before wrote one), the four file readers, and a managed array.
/// </summary>
public static class SortedSearchers
{
    public static List<ISortedSearcher> OpenAll(string path, int[] items)
    {
        var searchers = new List<ISortedSearcher>();
        foreach (MappingBackend backend in Backends.All)
        {
            searchers.Add(new Mapped(path, backend, indexed: false));
            searchers.Add(new Mapped(path, backend, indexed: true));
            searchers.Add(new Mapped(path, backend, indexed: true, cold: true));
        }

        searchers.Add(new FileReader("FileStream", new FileStreamSortedReader<int>(path)));
        searchers.Add(new FileReader("BinaryReader", new BinaryReaderSortedReader<int>(path)));
        searchers.Add(new FileReader("Buffered64K", new BufferedSortedReader<int>(path)));
        searchers.Add(new FileReader("RandomAccess", new RandomAccessSortedReader<int>(path)));
        searchers.Add(new ManagedArray(items));
        return searchers;
    }

    private sealed class Mapped : ISortedSearcher
    {
        private readonly SortedListMmf<int> _list;

        public Mapped(string path, MappingBackend backend, bool indexed, bool cold = false)
        {
            _list = OpenSorted<int>(path, backend, indexed);
            _list.AssumeCold = cold;
            _list.ColdSearchesBeforeIndex = cold ? long.MaxValue : _list.ColdSearchesBeforeIndex;
            Name = cold ? $"mmap cold/{backend}" : indexed ? $"mmap indexed/{backend}" : $"mmap/{backend}";
        }

        public string Name { get; }

        public long LowerBound(int value, long first, long last) =>
            first == 0 && last == _list.Count ? _list.LowerBound(value) : _list.LowerBound(value, first, last);

        public long UpperBound(int value, long first, long last) =>
            first == 0 && last == _list.Count ? _list.UpperBound(value) : _list.UpperBound(value, first, last);

        public void Dispose() => _list.Dispose();
    }

    /// <summary>A reader of the sorted file, with the page index forced on for any size or turned off.</summary>
    public static SortedListMmf<T> OpenSorted<T>(string path, MappingBackend backend, bool indexed)
        where T : unmanaged, System.Numerics.IComparisonOperators<T, T, bool>
    {
        var list = new SortedListMmf<T>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read, new ListMmfOptions { Backend = backend, SearchIndex = indexed });
        list.IndexMinimumPages = 1;
        return list;
    }

    private sealed class FileReader(string name, SortedFileReader<int> reader) : ISortedSearcher
    {
        public string Name => name;

        public long LowerBound(int value, long first, long last) =>
            first == 0 && last == reader.Count ? reader.LowerBound(value) : reader.LowerBound(value, first, last);

        public long UpperBound(int value, long first, long last) =>
            first == 0 && last == reader.Count ? reader.UpperBound(value) : reader.UpperBound(value, first, last);

        public void Dispose() => reader.Dispose();
    }

    private sealed class ManagedArray(int[] items) : ISortedSearcher
    {
        public string Name => "int[]";

        public long LowerBound(int value, long first, long last)
        {
            var source = new ArraySource<int>(items);
            return SortedSearch.LowerBound(ref source, value, first, last);
        }

        public long UpperBound(int value, long first, long last)
        {
            var source = new ArraySource<int>(items);
            return SortedSearch.UpperBound(ref source, value, first, last);
        }

        public void Dispose()
        {
        }
    }
}
