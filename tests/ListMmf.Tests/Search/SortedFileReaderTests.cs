using System;
using System.IO;
using Xunit;

namespace ListMmf.Tests.Search;

/// <summary>The no-mmap readers: what they search in a file that is still growing, and what they refuse.</summary>
public sealed class SortedFileReaderTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("sorted.bt");

    public static TheoryData<string> Readers() => ["FileStream", "BinaryReader", "Buffered64K", "RandomAccess"];

    private static SortedFileReader<T> Open<T>(string kind, string path)
        where T : unmanaged, System.Numerics.IComparisonOperators<T, T, bool> => kind switch
        {
            "FileStream" => new FileStreamSortedReader<T>(path),
            "BinaryReader" => new BinaryReaderSortedReader<T>(path),
            "Buffered64K" => new BufferedSortedReader<T>(path),
            _ => new RandomAccessSortedReader<T>(path),
        };

    [Theory, MemberData(nameof(Readers))]
    public void AReaderDisposedTwiceClosesOnceAndThrowsNothing(string kind)
    {
        using (var writer = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending))
        {
            writer.AddRange([10, 20, 30]);
        }

        SortedFileReader<int> reader = Open<int>(kind, FilePath);
        Assert.Equal(1, reader.LowerBound(15));

        reader.Dispose();
        reader.Dispose();

        using var exclusive = new FileStream(FilePath, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
    }

    [Theory, MemberData(nameof(Readers))]
    public void ReaderSearchesThePrefixPublishedWhenOpenedUntilRefreshed(string kind)
    {
        using var writer = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending);
        writer.AddRange([10, 20, 30]);
        using SortedFileReader<int> reader = Open<int>(kind, FilePath);
        Assert.Equal(3, reader.LowerBound(45));
        writer.AddRange([40, 50]);

        Assert.Equal(3, reader.Count);
        Assert.Equal(3, reader.LowerBound(45));
        Assert.Equal(5, reader.Refresh());
        Assert.Equal(4, reader.LowerBound(45));
        Assert.Equal(5, reader.UpperBound(50));
    }

    [Theory, MemberData(nameof(Readers))]
    public void ReaderRefusesAFileOfAnotherItemType(string kind)
    {
        using (var list = new ListMmf<long>(FilePath))
        {
            list.Add(1);
        }

        Assert.Throws<ListMmfDataTypeException>(() => Open<int>(kind, FilePath).Dispose());
    }

    [Theory, MemberData(nameof(Readers))]
    public void ReaderRefusesACountPastTheEndOfTheFile(string kind)
    {
        var bytes = new byte[16 + 8];
        BitConverter.TryWriteBytes(bytes.AsSpan(4), 13);
        BitConverter.TryWriteBytes(bytes.AsSpan(8), 3L);
        File.WriteAllBytes(FilePath, bytes);
        Assert.Throws<ListMmfFormatException>(() => Open<int>(kind, FilePath).Dispose());
    }

    [Theory, MemberData(nameof(Readers))]
    public void ReaderRefusesASearchRangeOutsideItsCount(string kind)
    {
        using (var writer = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending))
        {
            writer.AddRange([10, 20, 30]);
        }

        using SortedFileReader<int> reader = Open<int>(kind, FilePath);
        Assert.Throws<ArgumentOutOfRangeException>(() => reader.LowerBound(5, 0, 4));
        Assert.Throws<ArgumentOutOfRangeException>(() => reader.UpperBound(5, 2, 1));
    }

    [Theory, MemberData(nameof(Readers))]
    public void ReaderOfStructsThatCrossBlockBoundariesAgreesWithTheList(string kind)
    {
        // 24-byte keys: with the 16-byte header, items straddle the buffered reader's 64 KiB blocks.
        using (var writer = new SortedListMmf<Key24>(FilePath, TimeSeriesOrder.Ascending))
        {
            for (long i = 0; i < 20_000; i++)
            {
                writer.Add(new Key24(i * 3));
            }
        }

        using var list = new SortedListMmf<Key24>(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read);
        using SortedFileReader<Key24> reader = Open<Key24>(kind, FilePath);
        for (long value = -2; value < 60_010; value += 7)
        {
            Assert.Equal(list.LowerBound(new Key24(value)), reader.LowerBound(new Key24(value)));
        }
    }

    /// <summary>A 24-byte key ordered by its first field, with two payload fields.</summary>
    public readonly record struct Key24(long Value, long PayloadA = -1, long PayloadB = -2)
        : System.Numerics.IComparisonOperators<Key24, Key24, bool>
    {
        public static bool operator <(Key24 left, Key24 right) => left.Value < right.Value;

        public static bool operator >(Key24 left, Key24 right) => left.Value > right.Value;

        public static bool operator <=(Key24 left, Key24 right) => left.Value <= right.Value;

        public static bool operator >=(Key24 left, Key24 right) => left.Value >= right.Value;
    }
}
