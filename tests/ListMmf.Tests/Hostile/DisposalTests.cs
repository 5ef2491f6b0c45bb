using System;
using System.IO;
using Xunit;

namespace ListMmf.Tests.Hostile;

/// <summary>After Dispose every member refuses with <see cref="ObjectDisposedException"/>; nothing reads unmapped memory.</summary>
public sealed class DisposalTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("disposed.bin");

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void EnumeratorUsedAfterDisposeThrows(MappingBackend backend)
    {
        var list = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        list.AddRange([1, 2, 3]);
        ListMmf<long>.Enumerator enumerator = list.GetEnumerator();
        list.Dispose();

        Assert.Throws<ObjectDisposedException>(() => enumerator.MoveNext());
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ForeachOverAListDisposedInsideTheLoopThrows(MappingBackend backend)
    {
        var list = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        list.AddRange([1, 2, 3]);
        long seen = 0;

        Assert.Throws<ObjectDisposedException>(() =>
        {
            foreach (long item in list)
            {
                seen += item;
                list.Dispose();
            }
        });
        Assert.Equal(1, seen);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ListMembersAfterDisposeThrow(MappingBackend backend)
    {
        var list = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        list.AddRange([1, 2, 3]);
        list.Dispose();

        Assert.Throws<ObjectDisposedException>(() => list.Count);
        Assert.Throws<ObjectDisposedException>(() => list.Capacity);
        Assert.Throws<ObjectDisposedException>(() => list[0]);
        Assert.Throws<ObjectDisposedException>(() => list[0] = 5);
        Assert.Throws<ObjectDisposedException>(() => list.AsSpan(0, 0).Length);
        Assert.Throws<ObjectDisposedException>(() => list.Add(4));
        Assert.Throws<ObjectDisposedException>(() => list.AddRange([4, 5]));
        Assert.Throws<ObjectDisposedException>(() => list.AddRange([]));
        Assert.Throws<ObjectDisposedException>(() => list.EnsureCapacity(10));
        Assert.Throws<ObjectDisposedException>(() => list.Truncate(0));
        Assert.Throws<ObjectDisposedException>(list.Flush);
        Assert.Throws<ObjectDisposedException>(list.Verify);
        Assert.Throws<ObjectDisposedException>(() => list.GetEnumerator());
        list.Dispose();
        Assert.Contains("disposed", list.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void ReaderMembersAfterDisposeThrow()
    {
        using (var writer = new ListMmf<long>(FilePath))
        {
            writer.AddRange([1, 2, 3]);
        }

        var reader = new ListMmf<long>(FilePath, FileAccess.Read);
        reader.Dispose();

        Assert.Throws<ObjectDisposedException>(() => reader.Count);
        Assert.Throws<ObjectDisposedException>(() => reader[0]);
        Assert.Throws<ObjectDisposedException>(() => reader.AsSpan(0, 0).Length);
        Assert.Throws<ObjectDisposedException>(() => reader.AddRange([]));
    }

    [Fact]
    public void SortedListSearchesAfterDisposeThrow()
    {
        var sorted = new SortedListMmf<long>(FilePath, TimeSeriesOrder.Ascending);
        sorted.AddRange([1, 2, 3]);
        sorted.Dispose();

        Assert.Throws<ObjectDisposedException>(() => sorted.LowerBound(2));
        Assert.Throws<ObjectDisposedException>(() => sorted.LowerBound(2, 0, 0));
        Assert.Throws<ObjectDisposedException>(() => sorted.UpperBound(2));
        Assert.Throws<ObjectDisposedException>(() => sorted.BinarySearch(2));
        Assert.Throws<ObjectDisposedException>(() => sorted.EqualRange(2));
        Assert.Throws<ObjectDisposedException>(() => sorted.FindRange(1, 3));
        Assert.Throws<ObjectDisposedException>(sorted.Verify);
        Assert.Throws<ObjectDisposedException>(() => sorted.AsSpan(new IndexRange(0, 0)).Length);
    }

    [Fact]
    public void TimeSeriesSearchesAfterDisposeThrow()
    {
        var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending);
        series.Add(new DateTime(2024, 3, 12, 9, 30, 0));
        series.Dispose();

        Assert.Throws<ObjectDisposedException>(() => series.LowerBound(new DateTime(2024, 3, 12)));
        Assert.Throws<ObjectDisposedException>(() => series.UpperBound(new DateTime(2024, 3, 12)));
        Assert.Throws<ObjectDisposedException>(() => series.Count);
    }
}
