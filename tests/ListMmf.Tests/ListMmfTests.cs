using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Storage;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests;

/// <summary>The list's operations, on every backend.</summary>
public sealed class ListMmfTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("list.bin");

    private ListMmf<int> OpenWriter(MappingBackend backend, long initialCapacity = 0) =>
        new(FilePath, FileAccess.ReadWrite, Backends.Options(backend, initialCapacity));

    private ListMmf<int> OpenReader(MappingBackend backend) =>
        new(FilePath, FileAccess.Read, Backends.Options(backend));

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ReopenedWriterKeepsItemsAndAppendsAfterThem(MappingBackend backend)
    {
        using (ListMmf<int> first = OpenWriter(backend))
        {
            first.AddRange([1, 2, 3]);
        }

        using (ListMmf<int> second = OpenWriter(backend))
        {
            Assert.Equal(3, second.Count);
            second.Add(4);
        }

        using ListMmf<int> reader = OpenReader(backend);
        Assert.Equal([1, 2, 3, 4], reader.ToArray());
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void GrowthThroughManyRemapsKeepsEveryItem(MappingBackend backend)
    {
        const int Items = 3_000_000;
        using ListMmf<int> list = OpenWriter(backend);
        long capacity = list.Capacity;
        int growths = 0;
        for (int i = 0; i < Items; i++)
        {
            list.Add(i ^ 0x5A5A5A5A);
            if (list.Capacity != capacity)
            {
                capacity = list.Capacity;
                growths++;
            }
        }

        Assert.True(growths >= 5, $"only {growths} growths");
        Assert.Equal(Items, list.Count);
        for (int i = 0; i < Items; i++)
        {
            Assert.Equal(i ^ 0x5A5A5A5A, list[i]);
        }
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void GrowthPreallocatesTheFileToTheNewCapacity(MappingBackend backend)
    {
        using ListMmf<int> list = OpenWriter(backend);
        list.EnsureCapacity(1_000_000);
        Assert.True(list.Capacity >= 1_000_000);
        Assert.True(new FileInfo(FilePath).Length >= 16 + (list.Capacity * sizeof(int)));
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void AFileLargerThanItsLargestGrowthStepGrowsByThatStep(MappingBackend backend)
    {
        const long Mib = 1 << 20;
        using ListMmf<int> list = OpenWriter(backend, initialCapacity: (80 * Mib) / sizeof(int));
        long before = new FileInfo(FilePath).Length;

        list.EnsureCapacity(list.Capacity + 1);

        // In place (Posix), a step is one fallocate and costs by its length: 64 MiB; a new view each growth: doubling.
        long step = backend == MappingBackend.Posix ? 64 * Mib : before;
        Assert.Equal(before + step, new FileInfo(FilePath).Length);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void AddRangeLargerThanCapacityGrowsOnce(MappingBackend backend)
    {
        int[] items = Enumerable.Range(-500_000, 1_000_000).ToArray();
        using ListMmf<int> list = OpenWriter(backend);
        list.Add(7);
        list.AddRange(items);
        Assert.Equal(1 + items.Length, list.Count);
        Assert.Equal(7, list[0]);
        Assert.True(list.AsSpan(1, items.Length).SequenceEqual(items));
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void AsSpanEqualsTheIndexer(MappingBackend backend)
    {
        using ListMmf<int> list = OpenWriter(backend);
        for (int i = 0; i < 100_000; i++)
        {
            list.Add(i * 31);
        }

        ReadOnlySpan<int> window = list.AsSpan(12_345, 50_000);
        for (int i = 0; i < window.Length; i++)
        {
            Assert.Equal(list[12_345 + i], window[i]);
        }
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void AsSpanOutsideCountThrows(MappingBackend backend)
    {
        using ListMmf<int> list = OpenWriter(backend);
        list.AddRange([1, 2, 3]);
        Assert.Throws<ArgumentOutOfRangeException>(() => list.AsSpan(2, 2).Length);
        Assert.Throws<ArgumentOutOfRangeException>(() => list.AsSpan(-1, 1).Length);
        Assert.Equal(0, list.AsSpan(3, 0).Length);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void IndexerOutsideCountThrows(MappingBackend backend)
    {
        using ListMmf<int> list = OpenWriter(backend, initialCapacity: 100);
        list.AddRange([1, 2, 3]);
        Assert.Throws<ArgumentOutOfRangeException>(() => list[3]);
        Assert.Throws<ArgumentOutOfRangeException>(() => list[-1]);
        Assert.Throws<ArgumentOutOfRangeException>(() => list[3] = 9);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void IndexerSetReplacesAnExistingItem(MappingBackend backend)
    {
        using (ListMmf<int> list = OpenWriter(backend))
        {
            list.AddRange([1, 2, 3]);
            list[1] = 20;
        }

        using ListMmf<int> reader = OpenReader(backend);
        Assert.Equal([1, 20, 3], reader.ToArray());
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void TruncateLowersCountButNeverShrinksTheFile(MappingBackend backend)
    {
        using ListMmf<int> list = OpenWriter(backend);
        list.AddRange(Enumerable.Range(0, 10_000).ToArray());
        long lengthBefore = new FileInfo(FilePath).Length;
        list.Truncate(10);
        Assert.Equal(10, list.Count);
        Assert.Equal(lengthBefore, new FileInfo(FilePath).Length);
        list.Add(-1);
        Assert.Equal(-1, list[10]);
        Assert.Throws<ArgumentOutOfRangeException>(() => list.Truncate(12));
        Assert.Throws<ArgumentOutOfRangeException>(() => list.Truncate(-1));
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void EnumeratorYieldsTheItemsInOrderWithoutAllocating(MappingBackend backend)
    {
        using ListMmf<int> list = OpenWriter(backend);
        list.AddRange(Enumerable.Range(0, 1_000).ToArray());
        long sum = SumByForeach(list);
        long allocated = GC.GetAllocatedBytesForCurrentThread();
        sum += SumByForeach(list);
        allocated = GC.GetAllocatedBytesForCurrentThread() - allocated;
        Assert.Equal(2 * 999 * 1000 / 2, sum);
        Assert.Equal(0, allocated);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ReaderSeesTheWritersAppendsWithoutReopening(MappingBackend backend)
    {
        using ListMmf<int> writer = OpenWriter(backend);
        writer.Add(1);
        using ListMmf<int> reader = OpenReader(backend);
        Assert.Equal(1, reader.Count);
        for (int i = 2; i <= 2_000_000; i++)
        {
            writer.Add(i);
        }

        Assert.Equal(2_000_000, reader.Count);
        Assert.Equal(2_000_000, reader[1_999_999]);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ReadOnlyListRefusesChanges(MappingBackend backend)
    {
        using (ListMmf<int> writer = OpenWriter(backend))
        {
            writer.AddRange([1, 2, 3]);
        }

        using ListMmf<int> reader = OpenReader(backend);
        Assert.False(reader.IsWritable);
        Assert.Throws<NotSupportedException>(() => reader.Add(4));
        Assert.Throws<NotSupportedException>(() => reader.AddRange([4]));
        Assert.Throws<NotSupportedException>(() => reader[0] = 4);
        Assert.Throws<NotSupportedException>(() => reader.Truncate(0));
        Assert.Throws<NotSupportedException>(() => reader.EnsureCapacity(1_000_000));
        Assert.Throws<NotSupportedException>(() => reader.Flush());
        Assert.Equal([1, 2, 3], reader.ToArray());
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ReaderOfAnEmptyListRefusesEvenAnEmptyAddRange(MappingBackend backend)
    {
        OpenWriter(backend).Dispose();
        using ListMmf<int> reader = OpenReader(backend);
        Assert.Throws<NotSupportedException>(() => reader.AddRange(ReadOnlySpan<int>.Empty));
        Assert.Throws<NotSupportedException>(() => reader.Add(1));
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void CountDamagedToNegativeAfterOpeningIsReportedNotUsedAsABound(MappingBackend backend)
    {
        using (ListMmf<int> writer = OpenWriter(backend))
        {
            writer.AddRange([1, 2, 3]);
        }

        using ListMmf<int> reader = OpenReader(backend);
        using (var file = new FileStream(FilePath, FileMode.Open, FileAccess.Write, FileShare.ReadWrite))
        {
            file.Position = 8;
            file.Write(BitConverter.GetBytes(-5L));
        }

        Assert.Throws<ListMmfFormatException>(() => reader.Count);
        Assert.Throws<ListMmfFormatException>(() => reader[1_000_000]);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void EnumeratorPastTheEndGivesTheDefaultWithoutReading(MappingBackend backend)
    {
        using ListMmf<int> list = OpenWriter(backend);
        list.AddRange([7, 8]);
        ListMmf<int>.Enumerator items = list.GetEnumerator();
        Assert.True(items.MoveNext());
        Assert.True(items.MoveNext());
        Assert.Equal(8, items.Current);
        Assert.False(items.MoveNext());
        Assert.Equal(0, items.Current);
        Assert.False(items.MoveNext());
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ReaderOfAMissingFileThrowsFileNotFound(MappingBackend backend)
    {
        var exception = Assert.Throws<FileNotFoundException>(() => OpenReader(backend));
        Assert.Contains("list.bin", exception.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(FilePath));
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void SecondWriterIsRefusedWhileTheFirstIsOpen(MappingBackend backend)
    {
        using ListMmf<int> first = OpenWriter(backend);
        var exception = Assert.Throws<ListMmfLockedException>(() => OpenWriter(backend));
        Assert.Equal(first.Path, exception.FilePath);
        Assert.Contains(first.Path, exception.Message, StringComparison.Ordinal);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void WriterCanReopenOnceTheFirstIsDisposed(MappingBackend backend)
    {
        OpenWriter(backend).Dispose();
        using ListMmf<int> second = OpenWriter(backend);
        Assert.Equal(0, second.Count);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void DisposedListThrowsObjectDisposed(MappingBackend backend)
    {
        ListMmf<int> list = OpenWriter(backend);
        list.AddRange([1, 2, 3]);
        list.Dispose();
        Assert.Throws<ObjectDisposedException>(() => list.Count);
        Assert.Throws<ObjectDisposedException>(() => list[0]);
        Assert.Throws<ObjectDisposedException>(() => list.Add(1));
        Assert.Throws<ObjectDisposedException>(() => list.AsSpan(0, 1).Length);
        Assert.Throws<ObjectDisposedException>(() => list.GetEnumerator());
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void FlushKeepsEveryItem(MappingBackend backend)
    {
        using (ListMmf<long> list = new(FilePath, FileAccess.ReadWrite, Backends.Options(backend)))
        {
            for (long i = 0; i < 100_000; i++)
            {
                list.Add(i);
            }

            list.Flush();
        }

        using ListMmf<long> reader = new(FilePath, FileAccess.Read, Backends.Options(backend));
        Assert.Equal(100_000, reader.Count);
        Assert.Equal(99_999, reader[99_999]);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void PrefaultedWriterKeepsEveryItemAcrossGrowth(MappingBackend backend)
    {
        var options = new ListMmfOptions { Backend = backend, PrefaultAhead = true };
        using (var list = new ListMmf<long>(FilePath, FileAccess.ReadWrite, options))
        {
            for (long i = 0; i < 300_000; i++)
            {
                list.Add(i * 3);
            }
        }

        using var reader = new ListMmf<long>(FilePath, FileAccess.Read, options);
        Assert.Equal(300_000, reader.Count);
        Assert.Equal(299_999 * 3, reader[299_999]);
    }

    /// <summary>The window ahead of the writer is resident, not the whole spare capacity; measured through /proc (Linux).</summary>
    [LinuxFact]
    public void PrefaultedWriterKeepsTheMebibyteAheadOfItsItemsResidentOnLinux()
    {
        const long Window = ListMmfStorage.PrefaultWindow;
        using var list = new ListMmf<long>(FilePath, FileAccess.ReadWrite, new ListMmfOptions { InitialCapacity = 4_000_000, PrefaultAhead = true });
        long atOpen = ProcessMappings.Bytes(list.Path, "Rss");
        for (long i = 0; i < 1_000_000; i++)
        {
            list.Add(i);
        }

        long afterAppends = ProcessMappings.Bytes(list.Path, "Rss");
        // At most two windows past the items (the writer's, and the next one a thread-pool thread may have faulted in
        // by now), wherever the appends are in them, each with the rest of a 2 MiB folio where the system maps the
        // writer's pages whole (LargePageTests): far below the 32 MB of capacity.
        const long Folio = 2 << 20;
        const long Ahead = 2 * (Window + Folio);
        Assert.InRange(atOpen, Window - 4096, Ahead);
        Assert.True(
            afterAppends is >= 1_000_000 * sizeof(long) and <= (1_000_000 * sizeof(long)) + Ahead,
            $"{afterAppends:N0} bytes resident after the appends; this process's mappings of the file:\n{string.Join('\n', ProcessMappings.Of(list.Path).SelectMany(mapping => mapping.Lines))}");
    }

    [Fact]
    public void WriterInAMissingDirectoryNamesTheFile()
    {
        string path = _directory.File(Path.Combine("missing", "list.bin"));
        var exception = Assert.Throws<DirectoryNotFoundException>(() => new ListMmf<int>(path));
        Assert.Contains(path, exception.Message, StringComparison.Ordinal);
    }

    private static long SumByForeach(ListMmf<int> list)
    {
        long sum = 0;
        foreach (int item in list)
        {
            sum += item;
        }

        return sum;
    }
}
