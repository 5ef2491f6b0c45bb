using System;
using System.IO;
using Xunit;

namespace ListMmf.Tests;

/// <summary>Every list type answers the shared <see cref="IListMmf"/> members the same way for the same file.</summary>
public sealed class ListShapeTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private struct ByTicks : IKeySelector<Quote192, long>
    {
        public static long KeyOf(in Quote192 row) => row.TimestampTicks;
    }

    public static TheoryData<string> Kinds() =>
        ["ListMmf", "SortedListMmf", "Seconds", "Ticks", "KeyedListMmf", "IntegerListMmf", "ListMmfBitArray"];

    [Theory, MemberData(nameof(Kinds))]
    public void AWriterAndAReaderOfEveryListTypeShowTheSameFileThroughTheSharedShape(string kind)
    {
        string path = _directory.File(kind + ".mmf");
        using (IListMmf writer = Open(kind, path, FileAccess.ReadWrite))
        {
            Assert.True(writer.IsWritable);
            Assert.Equal(3, writer.Count);
            writer.Flush();
        }

        using IListMmf reader = Open(kind, path, FileAccess.Read);
        Assert.False(reader.IsWritable);
        Assert.Equal(Path.GetFullPath(path), reader.Path);
        Assert.Equal(3, reader.Count);
        Assert.Equal(ListMmfFileInfo.Read(path).DataType, reader.DataType);
    }

    /// <summary>Opens a list of <paramref name="kind"/>; a writer appends three items.</summary>
    private static IListMmf Open(string kind, string path, FileAccess access)
    {
        bool write = access == FileAccess.ReadWrite;
        var start = new DateTime(2024, 3, 11, 9, 30, 0);
        switch (kind)
        {
            case "ListMmf":
                var list = new ListMmf<double>(path, access);
                if (write) list.AddRange([1.5, 2.5, 3.5]);
                return list;
            case "SortedListMmf":
                var sorted = new SortedListMmf<long>(path, TimeSeriesOrder.Ascending, access);
                if (write) sorted.AddRange([1, 2, 3]);
                return sorted;
            case "Seconds":
                var seconds = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending, access);
                if (write) seconds.AddRange([start, start.AddSeconds(1), start.AddSeconds(2)]);
                return seconds;
            case "Ticks":
                var ticks = new ListMmfTimeSeriesDateTime(path, TimeSeriesOrder.Ascending, access);
                if (write) ticks.AddRange([start, start.AddTicks(1), start.AddTicks(2)]);
                return ticks;
            case "KeyedListMmf":
                var keyed = new KeyedListMmf<Quote192, long, ByTicks>(path, TimeSeriesOrder.Ascending, access);
                if (write) keyed.AddRange([new Quote192 { TimestampTicks = 1 }, new Quote192 { TimestampTicks = 2 }, new Quote192 { TimestampTicks = 3 }]);
                return keyed;
            case "IntegerListMmf":
                var integers = IntegerListMmf.Open(path, access);
                if (write) integers.AddRange([1, 2, 3]);
                return integers;
            default:
                var bits = new ListMmfBitArray(path, access);
                if (write) bits.AddRange([true, false, true]);
                return bits;
        }
    }
}
