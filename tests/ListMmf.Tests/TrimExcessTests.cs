using System;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests;

/// <summary>TrimExcess: a complete file gives its unused space back, its writer and readers go on as before.</summary>
public sealed class TrimExcessTests : IDisposable
{
    private const long Granularity = 64 * 1024;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("list.bt");

    /// <summary>Appends 0..count-1 a thousand at a time, as a live writer does: the file grows in steps and ends with spare room.</summary>
    private static void Fill<T>(ListMmf<T> list, int from, int count, Func<int, T> item)
        where T : unmanaged
    {
        for (int start = from; start < from + count; start += 1000)
        {
            list.AddRange(Enumerable.Range(start, Math.Min(1000, from + count - start)).Select(item).ToArray());
        }
    }

    /// <summary>The trimmed length of a version 2 file (the default), whose items start after its 4 KiB header.</summary>
    private static long LengthFor(long count, int itemSize) => (HeaderBytes + (count * itemSize) + Granularity - 1) / Granularity * Granularity;

    private const int HeaderBytes = 4096;

    [Theory]
    [MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void TheFileKeepsOnlyItsItemsRoundedUpTo64KiB(MappingBackend backend)
    {
        using var list = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        Fill(list, 0, 300_000, i => (long)i);
        long before = new FileInfo(FilePath).Length;

        list.TrimExcess();

        Assert.True(before > LengthFor(300_000, 8), $"the file was {before:N0} bytes before the trim: nothing to give back");
        Assert.Equal(LengthFor(300_000, 8), new FileInfo(FilePath).Length);
        Assert.Equal((LengthFor(300_000, 8) - HeaderBytes) / 8, list.Capacity);
        Assert.Equal(300_000, list.Count);
        Assert.Equal(Enumerable.Range(0, 300_000).Select(i => (long)i), list.AsSpan(0, 300_000).ToArray());
    }

    [Theory]
    [MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void AppendsAfterTheTrimGrowTheFileAgainAndKeepEveryItemAfterAReopen(MappingBackend backend)
    {
        using (var list = new ListMmf<int>(FilePath, FileAccess.ReadWrite, Backends.Options(backend)))
        {
            Fill(list, 0, 100_000, i => i);
            list.TrimExcess();
            list.AddRange(Enumerable.Range(100_000, 100_000).ToArray());
            list.Flush();
        }

        using var reopened = new ListMmf<int>(FilePath, FileAccess.Read, Backends.Options(backend));
        Assert.Equal(Enumerable.Range(0, 200_000), reopened.AsSpan(0, 200_000).ToArray());
    }

    [Theory]
    [MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void AReaderMappedPastTheNewEndKeepsReadingAndSeesLaterAppends(MappingBackend backend)
    {
        using var writer = new ListMmf<int>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        Fill(writer, 0, 100_000, i => i);
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read, Backends.Options(backend));
        long mappedBefore = reader.Capacity;

        writer.TrimExcess();

        Assert.True(mappedBefore > writer.Capacity, $"the reader maps {mappedBefore:N0} items, the trimmed file {writer.Capacity:N0}");
        Assert.Equal(Enumerable.Range(0, 100_000), reader.AsSpan(0, 100_000).ToArray());
        writer.AddRange(Enumerable.Range(100_000, 400_000).ToArray());
        Assert.Equal(500_000, reader.Count);
        Assert.Equal(Enumerable.Range(0, 500_000), reader.AsSpan(0, 500_000).ToArray());
        Assert.Equal(499_999, reader[499_999]);
    }

    [Fact]
    public void AfterATruncateTheTrimReplacesTheFileSoThatSpansOverTheDroppedItemsStayMapped()
    {
        using var writer = new ListMmf<int>(FilePath);
        Fill(writer, 0, 200_000, i => i);
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        ReadOnlySpan<int> held = reader.AsSpan(0, 200_000);

        writer.Truncate(10);
        writer.TrimExcess();

        // Cut in place, the span's last pages would lie past the end of the file and reading them would raise SIGBUS.
        Assert.Equal(199_999, held[199_999]);
        Assert.Equal(LengthFor(10, 4), new FileInfo(FilePath).Length);
        Assert.Equal(10, reader.Count);
        Assert.Equal(Enumerable.Range(0, 10), reader.AsSpan(0, 10).ToArray());
    }

    [Fact]
    public void ATrimOfAFileWithNoSpareSpaceLeavesItAsItIs()
    {
        using var list = new ListMmf<int>(FilePath);
        list.AddRange(Enumerable.Range(0, 100_000).ToArray());
        list.TrimExcess();
        DateTime written = File.GetLastWriteTimeUtc(FilePath);
        long length = new FileInfo(FilePath).Length;

        list.TrimExcess();

        Assert.Equal(length, new FileInfo(FilePath).Length);
        Assert.Equal(written, File.GetLastWriteTimeUtc(FilePath));
    }

    [Fact]
    public void AReadOnlyListRefusesToTrim()
    {
        using (var writer = new ListMmf<int>(FilePath))
        {
            writer.Add(1);
        }

        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        NotSupportedException refused = Assert.Throws<NotSupportedException>(reader.TrimExcess);
        Assert.Contains(FilePath, refused.Message);
    }

    [Fact]
    public void ATableTrimsEveryColumnAndKeepsItsRows()
    {
        string folder = _directory.File("table");
        var schema = new TimeSeriesTableSchema("time").Add<double>("price");
        using (TimeSeriesTable table = TimeSeriesTable.Create(folder, schema))
        {
            TableColumn<double> price = table.Column<double>("price");
            for (int i = 0; i < 50_000; i++)
            {
                price.Add(i * 0.5);
                table.AddRow(new DateTime(2024, 1, 2).AddSeconds(i / 3));
            }

            table.TrimExcess();
            table.Flush();
        }

        Assert.Equal(LengthFor(50_000, 4), new FileInfo(Path.Combine(folder, "time.mmf")).Length);
        Assert.Equal(LengthFor(50_000, 8), new FileInfo(Path.Combine(folder, "price.mmf")).Length);
        using TimeSeriesTable reopened = TimeSeriesTable.Open(folder, FileAccess.Read);
        reopened.Verify();
        Assert.Equal(50_000, reopened.RowCount);
        Assert.Equal(49_999 * 0.5, reopened.Column<double>("price")[49_999]);
    }
}
