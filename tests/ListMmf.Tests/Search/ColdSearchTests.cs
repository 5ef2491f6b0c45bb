using System;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using System.Threading.Tasks;
using ListMmf.Search;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests.Search;

/// <summary>
/// The searches of a cold start (<see cref="ColdSearch{T, TItem, TKeyOf}"/>): pages read beside the mapping, through
/// the fence file where one was written, each answer checked against its neighbours; and the fence file's life.
/// </summary>
public sealed class ColdSearchTests : IDisposable
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(2);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData(false, false)]
    [InlineData(false, true)]
    [InlineData(true, false)]
    [InlineData(true, true)]
    public void ColdSearchesAnswerAsTheMappingDoes(bool fences, bool version2)
    {
        int[] items = Times(300_000, seed: 1);
        string path = Write(items, version2);
        if (fences)
        {
            WriteFences(path);
        }

        using SortedListMmf<int> list = OpenCold(path);
        int[] targets = Targets(items, seed: 2);
        Assert.Equal(LowerBoundOf(items, targets[^1]), list.LowerBound(targets[^1]));
        Assert.Equal(fences, list.Cold!.Fences is not null);
        var lowers = new long[targets.Length];
        list.LowerBound(targets, lowers);
        for (int i = 0; i < targets.Length; i++)
        {
            long lower = LowerBoundOf(items, targets[i]);
            Assert.Equal(lower, list.LowerBound(targets[i]));
            Assert.Equal(lower, lowers[i]);
            Assert.Equal(UpperBoundOf(items, targets[i]), list.UpperBound(targets[i]));
        }
    }

    [Fact]
    public void ThroughTheFencesTheFirstSearchReadsOnePageOfTheList()
    {
        int[] items = Times(1_000_000, seed: 3);
        string path = Write(items, version2: true);
        WriteFences(path);
        using SortedListMmf<int> list = OpenCold(path);

        Assert.Equal(LowerBoundOf(items, items[654_321]), list.LowerBound(items[654_321]));

        Assert.Equal(1, list.Cold!.PagesRead);
    }

    [Fact]
    public void AWritersFlushLeavesTheFencesSoTheFirstColdSearchReadsOnePage()
    {
        int[] items = Times(1_000_000, seed: 31);
        string path = _directory.File("written.bt");
        using var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual) { IndexMinimumPages = 1 };
        writer.AddRange(items);
        writer.Flush();

        using SortedListMmf<int> list = OpenCold(path);
        Assert.Equal(LowerBoundOf(items, items[654_321]), list.LowerBound(items[654_321]));

        Assert.NotNull(list.Cold!.Fences);
        Assert.Equal(1, list.Cold.PagesRead);
    }

    [Fact]
    public void AWritersCloseExtendsTheFencesWithTheItemsItAppended()
    {
        int[] items = Times(600_000, seed: 32);
        string path = _directory.File("extended.bt");
        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual) { IndexMinimumPages = 1 })
        {
            writer.AddRange(items.AsSpan(0, 300_000));
        }

        Assert.Equal(300_000, FencedCount(path));
        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual) { IndexMinimumPages = 1 })
        {
            writer.AddRange(items.AsSpan(300_000));
        }

        Assert.True(FencesMatch(path, items));
        Assert.Equal(items.Length, FencedCount(path));
    }

    [Fact]
    public void AWritersCloseCopiesTheFencesItFoundRatherThanReadingTheirKeys()
    {
        int[] items = Times(600_000, seed: 38);
        string path = _directory.File("copied.bt");
        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual) { IndexMinimumPages = 1 })
        {
            writer.AddRange(items.AsSpan(0, 300_000));
        }

        // A fence in the middle of the first page of fences (outside the file's checksum) changed to a mark: copied
        // over, it shows the writer kept the fences rather than reading their keys from the list.
        const int marked = 100;
        const int mark = 12_345;
        using (var fences = new FileStream(path + FenceFile<int>.Extension, FileMode.Open, FileAccess.ReadWrite))
        {
            fences.Position = FenceFile<int>.PageBytes + (marked * sizeof(int));
            fences.Write(BitConverter.GetBytes(mark));
        }

        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual) { IndexMinimumPages = 1 })
        {
            writer.AddRange(items.AsSpan(300_000));
        }

        Assert.Equal(items.Length, FencedCount(path));
        byte[] written = File.ReadAllBytes(path + FenceFile<int>.Extension);
        Assert.Equal(mark, BitConverter.ToInt32(written, FenceFile<int>.PageBytes + (marked * sizeof(int))));
    }

    [Fact]
    public void AWriterFindingFencesOfOtherItemsWritesThemAgain()
    {
        int[] others = Times(300_000, seed: 33).Select(time => time - 5_000_000).ToArray();
        int[] items = Times(300_000, seed: 34);
        string path = _directory.File("fenced.bt");
        string otherPath = Write(others, version2: true);
        WriteFences(otherPath);
        File.Copy(otherPath + FenceFile<int>.Extension, path + FenceFile<int>.Extension);

        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual) { IndexMinimumPages = 1 })
        {
            writer.AddRange(items);
        }

        Assert.True(FencesMatch(path, items));
    }

    [Fact]
    public void ATableWritersFlushLeavesTheFencesOfItsTimeColumn()
    {
        // Past the page index's minimum (32 MiB of times), which a table's time column keeps.
        int[] times = Times(8_500_000, seed: 36);
        string folder = _directory.File("ticks");
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual).Add<byte>("flag");
        using var table = TimeSeriesTable.Create(folder, schema);
        table.Column<byte>("flag").AddRange(new byte[times.Length]);
        table.AddRows(times);
        table.Flush();

        Assert.True(FencesMatch(Path.Combine(folder, schema.Time.FileName), times));
    }

    [Fact]
    public void AColdReaderHoldingTheFencesLeavesTheWritersFlushesAndCloseIntact()
    {
        // Windows renames nothing over a file another process holds open: the writer's new fences then wait for a
        // later flush, and nothing it published is affected. Elsewhere the rename goes through under the reader.
        int[] items = Times(600_000, seed: 39);
        string path = _directory.File("held.bt");
        var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual) { IndexMinimumPages = 1 };
        writer.AddRange(items.AsSpan(0, 300_000));
        writer.Flush();
        using SortedListMmf<int> reader = OpenCold(path);
        Assert.Equal(LowerBoundOf(items[..300_000], items[123_456]), reader.LowerBound(items[123_456]));
        Assert.NotNull(reader.Cold!.Fences);

        writer.AddRange(items.AsSpan(300_000));
        writer.Flush();
        writer.Dispose();

        Assert.Equal(items.Length, reader.Count);
        Assert.Equal(LowerBoundOf(items, items[543_210]), reader.LowerBound(items[543_210]));
        using SortedListMmf<int> next = OpenCold(path);
        Assert.Equal(LowerBoundOf(items, items[456_789]), next.LowerBound(items[456_789]));
    }

    [Fact]
    public void AWriterReadsNoKeysItDidNotWriteForFences()
    {
        int[] items = Times(400_000, seed: 37);
        string path = Write(items[..300_000], version2: true);
        Assert.False(File.Exists(path + FenceFile<int>.Extension));

        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual) { IndexMinimumPages = 1 })
        {
            writer.AddRange(items.AsSpan(300_000));
            writer.Flush();
        }

        Assert.False(File.Exists(path + FenceFile<int>.Extension));
    }

    [Fact]
    public void ASmallListsWriterWritesNoFences()
    {
        string path = Write(Times(100_000, seed: 35), version2: true);

        Assert.False(File.Exists(path + FenceFile<int>.Extension));
    }

    [Fact]
    public void WithoutFencesEachProbeReadsAtMostOnePage()
    {
        int[] items = Times(1_000_000, seed: 4);
        string path = Write(items, version2: true);
        using SortedListMmf<int> list = OpenCold(path);

        Assert.Equal(LowerBoundOf(items, items[123_456]), list.LowerBound(items[123_456]));

        Assert.InRange(list.Cold!.PagesRead, 1, 21);
    }

    [Fact]
    public void FencesThatDescribeOtherItemsCostAPlainSearchNotAWrongAnswer()
    {
        int[] items = Times(300_000, seed: 5);
        string path = Write(items, version2: true);
        WriteFences(path);
        byte[] fences = File.ReadAllBytes(path + FenceFile<int>.Extension);
        File.Delete(path);
        int[] other = items.Select(time => time + 7_777).ToArray();
        Write(other, version2: true, path);
        File.WriteAllBytes(path + FenceFile<int>.Extension, fences);
        using SortedListMmf<int> list = OpenCold(path);

        foreach (int target in Targets(items, seed: 6).Take(200))
        {
            Assert.Equal(LowerBoundOf(other, target), list.LowerBound(target));
        }
    }

    [Fact]
    public void AFenceFileWithABrokenChecksumIsNotUsed()
    {
        int[] items = Times(300_000, seed: 7);
        string path = Write(items, version2: true);
        WriteFences(path);
        using (var file = new FileStream(path + FenceFile<int>.Extension, FileMode.Open, FileAccess.ReadWrite))
        {
            file.Position = 64;
            file.WriteByte(0xA5);
        }

        using SortedListMmf<int> list = OpenCold(path);

        Assert.Equal(LowerBoundOf(items, items[1_000]), list.LowerBound(items[1_000]));
        Assert.Null(list.Cold!.Fences);
    }

    [Fact]
    public void ItemsAppendedAfterTheFencesAreFound()
    {
        int[] items = Times(300_000, seed: 8);
        string path = Write(items[..200_000], version2: true);
        WriteFences(path);
        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual))
        {
            writer.AddRange(items.AsSpan(200_000));
        }

        using SortedListMmf<int> list = OpenCold(path);

        foreach (int target in Targets(items, seed: 9).Take(300))
        {
            Assert.Equal(LowerBoundOf(items, target), list.LowerBound(target));
        }

        Assert.NotNull(list.Cold!.Fences);
    }

    [Fact]
    public void AListTruncatedAndRewrittenUnderItsFencesIsSearchedRight()
    {
        int[] items = Times(300_000, seed: 10);
        string path = Write(items, version2: true);
        WriteFences(path);
        int[] rewritten = [.. items[..100_000], .. Enumerable.Range(1, 150_000).Select(i => items[99_999] + (i * 5))];
        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual))
        {
            writer.Truncate(100_000);
            writer.AddRange(rewritten.AsSpan(100_000));
        }

        using SortedListMmf<int> list = OpenCold(path);

        foreach (int target in Targets(rewritten, seed: 11).Take(300))
        {
            Assert.Equal(LowerBoundOf(rewritten, target), list.LowerBound(target));
        }
    }

    [Fact]
    public void ALiveWritersAppendsAreFoundByAColdReader()
    {
        int[] items = Times(200_000, seed: 12);
        string path = Write(items[..50_000], version2: true);
        WriteFences(path);
        using var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual);
        using SortedListMmf<int> reader = OpenCold(path);
        for (int start = 50_000; start < items.Length; start += 10_000)
        {
            writer.AddRange(items.AsSpan(start, 10_000));
            int[] seen = items[..(start + 10_000)];
            foreach (int target in Targets(seen, seed: start).Take(20))
            {
                Assert.Equal(LowerBoundOf(seen, target), reader.LowerBound(target));
            }
        }
    }

    [Fact]
    public void AColdReaderThatFollowsATruncateBeginningSearchesTheNewFile()
    {
        int[] items = Times(400_000, seed: 22);
        string path = Write(items, version2: true);
        using SortedListMmf<int> reader = OpenCold(path);
        reader.IndexMinimumPages = 200;
        Assert.Equal(LowerBoundOf(items, items[300_000]), reader.LowerBound(items[300_000]));
        Assert.NotNull(reader.Cold);
        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual))
        {
            writer.TruncateBeginning(350_000);
        }

        int[] kept = items[350_000..];
        foreach (int target in Targets(kept, seed: 23).Take(200))
        {
            Assert.Equal(LowerBoundOf(kept, target), reader.LowerBound(target));
        }
    }

    [Fact]
    public async Task QuotesThatStraddlePagesAreSearchedColdThroughTheirKeys()
    {
        Quote192[] quotes = Enumerable.Range(0, 40_000).Select(i => new Quote192 { TimestampTicks = 1_000_000L + (i / 2 * 10) }).ToArray();
        string path = _directory.File("quotes.bt");
        using (var writer = new KeyedListMmf<Quote192, long, ByTicks>(path, TimeSeriesOrder.AscendingOrEqual))
        {
            writer.AddRange(quotes);
        }

        using (var indexed = new KeyedListMmf<Quote192, long, ByTicks>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read))
        {
            indexed.IndexMinimumPages = 1;
            indexed.LowerBound(0);
            await indexed.WhenIdle().WaitAsync(Deadline);
        }

        using var list = new KeyedListMmf<Quote192, long, ByTicks>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        list.IndexMinimumPages = 1;
        list.AssumeCold = true;
        list.ColdSearchesBeforeIndex = long.MaxValue;
        long[] ticks = quotes.Select(quote => quote.TimestampTicks).ToArray();
        var random = new Random(13);
        for (int i = 0; i < 500; i++)
        {
            long target = 999_990 + random.Next(200_020);
            Assert.Equal(LowerBoundOf(ticks, target), list.LowerBound(target));
        }

        Assert.NotNull(list.Cold!.Fences);
    }

    [Fact]
    public async Task EnoughColdSearchesBuildThePageIndexAndThenUseIt()
    {
        int[] items = Times(300_000, seed: 14);
        string path = Write(items, version2: true);
        using SortedListMmf<int> list = OpenCold(path, stayCold: false);
        int[] targets = Targets(items, seed: 15);
        for (int i = 0; i < 63; i++)
        {
            Assert.Equal(LowerBoundOf(items, targets[i]), list.LowerBound(targets[i]));
        }

        Assert.Null(list.Index);
        list.LowerBound(targets[63]);
        await list.WhenIdle().WaitAsync(Deadline);

        Assert.NotNull(list.Index);
        Assert.Null(list.Cold);
        Assert.Equal(LowerBoundOf(items, targets[64]), list.LowerBound(targets[64]));
    }

    [Fact]
    public void ABatchAsLargeAsTheColdSearchesBuildsTheIndexAtOnce()
    {
        int[] items = Times(300_000, seed: 16);
        string path = Write(items, version2: true);
        using SortedListMmf<int> list = OpenCold(path, stayCold: false);
        int[] targets = Targets(items, seed: 17).Take(64).ToArray();
        var results = new long[targets.Length];

        list.LowerBound(targets, results);

        Assert.NotNull(list.Index);
        Assert.Equal(targets.Select(target => LowerBoundOf(items, target)), results);
    }

    [Fact]
    public void TheIndexBuildWritesFencesThatMatchTheItems()
    {
        int[] items = Times(300_000, seed: 18);
        string path = Write(items, version2: true);

        WriteFences(path);

        using FenceFile<int>? fences = FenceFile<int>.Open(path, sizeof(int), ItemsOffsetOf(path));
        Assert.NotNull(fences);
        Assert.Equal(items.Length, fences.IndexedCount);
        var keys = new ArraySource<int>(items);
        Assert.True(fences.Matches(ref keys, items.Length));
    }

    [Fact]
    public void FencesThatNoLongerMatchAreWrittenAgain()
    {
        int[] items = Times(300_000, seed: 19);
        string path = Write(items, version2: true);
        WriteFences(path);
        File.Delete(path);
        int[] other = items.Select(time => time + 3).ToArray();
        Write(other, version2: true, path);

        WriteFences(path);

        using FenceFile<int>? fences = FenceFile<int>.Open(path, sizeof(int), ItemsOffsetOf(path));
        var keys = new ArraySource<int>(other);
        Assert.True(fences!.Matches(ref keys, other.Length));
    }

    [Fact]
    public async Task AFolderThatCannotBeWrittenLeavesTheSearchesRight()
    {
        int[] items = Times(300_000, seed: 20);
        string path = Write(items, version2: true);
        Directory.CreateDirectory(path + FenceFile<int>.Extension);
        using var list = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read) { IndexMinimumPages = 1 };

        Assert.Equal(LowerBoundOf(items, items[77_777]), list.LowerBound(items[77_777]));
        await list.WhenIdle().WaitAsync(Deadline);

        Assert.True(Directory.Exists(path + FenceFile<int>.Extension));
        Assert.NotNull(list.Index);
    }

    [LinuxFact]
    [SupportedOSPlatform("linux")]
    public void AFileWhosePagesWereDroppedIsSearchedCold()
    {
        int[] items = Times(2_000_000, seed: 21);
        string path = Write(items, version2: true);
        PageCacheFiles.Drop(path);
        using var list = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read) { IndexMinimumPages = 1 };

        Assert.Equal(LowerBoundOf(items, items[1_234_567]), list.LowerBound(items[1_234_567]));

        Assert.NotNull(list.Cold);
        Assert.Null(list.Index);
    }

    private static int ItemsOffsetOf(string path)
    {
        using var list = new ListMmf<int>(path, FileAccess.Read);
        return list.Storage.ItemsOffset;
    }

    private static SortedListMmf<int> OpenCold(string path, bool stayCold = true)
    {
        return new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read)
        {
            IndexMinimumPages = 1,
            AssumeCold = true,
            ColdSearchesBeforeIndex = stayCold ? long.MaxValue : SortedCore<int, int, ItemKey<int>>.DefaultColdSearchesBeforeIndex,
        };
    }

    /// <summary>Builds the page index of the file, which writes its fence file, and waits for both.</summary>
    private static void WriteFences(string path)
    {
        using var list = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read) { IndexMinimumPages = 1 };
        list.LowerBound(0);
        Assert.True(list.WhenIdle().Wait(Deadline));
        Assert.True(File.Exists(path + FenceFile<int>.Extension));
    }

    /// <summary>How many items the fence file beside <paramref name="path"/> describes.</summary>
    private static long FencedCount(string path)
    {
        using var list = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        using FenceFile<int>? fences = FenceFile<int>.Open(path, sizeof(int), list.List.Storage.ItemsOffset);
        return fences?.IndexedCount ?? 0;
    }

    /// <summary>Whether the fence file beside <paramref name="path"/> describes every one of <paramref name="items"/>, fence by fence.</summary>
    private static bool FencesMatch(string path, int[] items)
    {
        using var list = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        using FenceFile<int>? fences = FenceFile<int>.Open(path, sizeof(int), list.List.Storage.ItemsOffset);
        var keys = new ArraySource<int>(items);
        return fences is not null && fences.IndexedCount == items.Length && fences.Matches(ref keys, items.Length);
    }

    /// <summary>Sorted market-like times: bursts of equal seconds and gaps.</summary>
    private static int[] Times(int count, int seed)
    {
        var random = new Random(seed);
        var items = new int[count];
        int time = 1_600_000_000;
        for (int i = 0; i < count; i++)
        {
            time += random.Next(10) < 6 ? 0 : random.Next(1, 40);
            items[i] = time;
        }

        return items;
    }

    private static int[] Targets(int[] items, int seed)
    {
        var random = new Random(seed);
        return [int.MinValue, int.MaxValue, items[0], items[^1], items[0] - 1, items[^1] + 1,
            .. Enumerable.Range(0, 2_000).Select(_ => items[0] - 5 + random.Next(items[^1] - items[0] + 10))];
    }

    private string Write(int[] items, bool version2, string? path = null)
    {
        path ??= _directory.File($"times-{Guid.NewGuid():N}.bt");
        var options = ListMmfOptions.Default with { FormatVersion = version2 ? ListMmfFormatVersion.Version2 : ListMmfFormatVersion.Version1 };
        using var writer = new SortedListMmf<int>(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.ReadWrite, options);
        writer.AddRange(items);
        return path;
    }

    private static long LowerBoundOf<T>(T[] items, T value)
        where T : IComparable<T>
    {
        int index = Array.BinarySearch(items, value);
        if (index < 0)
        {
            return ~index;
        }

        while (index > 0 && items[index - 1].CompareTo(value) == 0)
        {
            index--;
        }

        return index;
    }

    private static long UpperBoundOf(int[] items, int value) => value == int.MaxValue ? items.Length : LowerBoundOf(items, value + 1);

    private struct ByTicks : IKeySelector<Quote192, long>
    {
        public static long KeyOf(in Quote192 row) => row.TimestampTicks;
    }
}
