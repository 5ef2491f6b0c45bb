using System;
using System.IO;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// What a reader sees when the writer truncates (a maintenance operation): its next Count and searches are right;
/// a span taken before may see the dropped items change when the writer appends again, as the README says.
/// </summary>
public sealed class TruncateContractTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("truncated.bin");

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ReaderCountAndSearchesAreRightAfterTruncateAndAppend(MappingBackend backend)
    {
        using var writer = new SortedListMmf<long>(FilePath, TimeSeriesOrder.Ascending, FileAccess.ReadWrite, Backends.Options(backend));
        using var reader = new SortedListMmf<long>(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read, Backends.Options(backend));
        writer.AddRange(Sequence(0, 6000, step: 10));
        Assert.Equal(6000, reader.Count);

        writer.Truncate(600);
        Assert.Equal(600, reader.Count);
        Assert.Equal(600, reader.LowerBound(6000));

        writer.AddRange(Sequence(6000, 4500, step: 1));
        Assert.Equal(5100, reader.Count);
        Assert.Equal(600, reader.LowerBound(6000));
        Assert.Equal(5100, reader.LowerBound(long.MaxValue));
        Assert.Equal(599 * 10, reader[599]);
        Assert.Equal(6000, reader[600]);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void SpanTakenBeforeATruncateSeesTheRewrittenItems(MappingBackend backend)
    {
        using var writer = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        using var reader = new ListMmf<long>(FilePath, FileAccess.Read, Backends.Options(backend));
        writer.AddRange(Sequence(0, 6000, step: 1));
        ReadOnlySpan<long> before = reader.AsSpan(0, 6000);

        writer.Truncate(600);
        writer.AddRange(Sequence(100_000, 10, step: 1));

        Assert.Equal(100_000, before[600]);
        Assert.Equal(610, before[610]);
    }

    private static long[] Sequence(long start, int count, long step)
    {
        var items = new long[count];
        for (int i = 0; i < count; i++)
        {
            items[i] = start + (i * step);
        }

        return items;
    }
}
