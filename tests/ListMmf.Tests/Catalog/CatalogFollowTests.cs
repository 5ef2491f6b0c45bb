using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using System.Threading.Tasks;
using ListMmf.TestHost;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests.Catalog;

/// <summary>A replay that follows the writer: the rows before each watermark, in the order a later replay gives them.</summary>
public sealed class CatalogFollowTests
{
    [Theory]
    [InlineData(31, 1)]
    [InlineData(32, 4096)]
    public void AFollowingReplayGivesTheRowsBeforeEachWatermarkInTheOrderALaterReplayGives(int seed, int batchRows)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(seed);
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay follow = reader.Follow(DateTime.MinValue, columns: ["id"], batchRows: batchRows);
        var followed = new List<long>();

        for (int start = 0; start < world.Rows.Count; start += 37)
        {
            int end = Math.Min(start + 37, world.Rows.Count);
            world.Write(writer, start, end);
            writer.Flush(end < world.Rows.Count ? world.Rows[end].Time : world.Rows[^1].Time.AddTicks(1));
            followed.AddRange(CatalogWorld.Replayed(follow));
        }

        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), followed);
    }

    [Fact]
    public async Task AFollowingReplayOnAnotherThreadSeesEveryRowOnceInOrderWhileTheWriterAppendsAndRollsDays()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(33, instruments: 8, days: 4);
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay follow = reader.Follow(DateTime.MinValue, columns: ["id"], batchRows: 16);
        var followed = new List<long>();

        Task writing = Task.Run(() =>
        {
            for (int start = 0; start < world.Rows.Count; start += 11)
            {
                int end = Math.Min(start + 11, world.Rows.Count);
                world.Write(writer, start, end);
                writer.Flush(end < world.Rows.Count ? world.Rows[end].Time : world.Rows[^1].Time.AddTicks(1));
            }
        });
        Polling.Until(
            () =>
            {
                followed.AddRange(CatalogWorld.Replayed(follow));
                return followed.Count >= world.Rows.Count || writing.IsFaulted;
            },
            "the follower to replay every row",
            TimeSpan.FromMinutes(2));

        await writing;
        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), followed);
    }

    [Fact]
    public void AFollowingReplayWaitsForTheWatermarkBeforeGivingRowsAtOrAfterIt()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        DateTime time = CatalogWorld.FirstDay.AddHours(10);
        Trade(writer, "SPY", time, 1);
        Trade(writer, "SPY", time.AddSeconds(1), 2);
        writer.Flush(time.AddSeconds(1));
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogReplay follow = reader.Follow(DateTime.MinValue, columns: ["id"]);

        Assert.Equal([1L], CatalogWorld.Replayed(follow));
        Trade(writer, "AAA", time.AddSeconds(1), 3);
        writer.Flush(time.AddSeconds(2));

        // AAA came to the catalog after SPY, so its row of the same time comes after SPY's.
        Assert.Equal([2L, 3L], CatalogWorld.Replayed(follow));
        Assert.Equal(time.AddSeconds(2), reader.Watermark);
    }

    [Fact]
    public void ARowBeforeTheRecordedWatermarkIsRefused()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        DateTime time = CatalogWorld.FirstDay.AddHours(10);
        Trade(writer, "SPY", time, 1);
        writer.Flush(time.AddSeconds(5));

        var refused = Assert.Throws<ListMmfOrderException>(() => writer.Partition("trades", "QQQ", time.AddSeconds(4)));

        Assert.Contains("is before the watermark", refused.Message);
    }

    [Fact]
    public void AFlushRefusesARowAppendedBeforeTheRecordedWatermarkAndRecordsNothing()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        DateTime time = CatalogWorld.FirstDay.AddHours(10);
        TimeSeriesTable day = writer.Partition("trades", "SPY", time);
        Trade(writer, "SPY", time, 1);
        writer.Flush(time.AddSeconds(5));
        day.Column<double>("price").Add(2);
        day.Column<long>("id").Add(2);
        day.AddRow(time.AddSeconds(1));

        var refused = Assert.Throws<ListMmfOrderException>(writer.Flush);

        Assert.Contains("row 1 at", refused.Message);
        Assert.Equal(1, Assert.Single(writer.Partitions()).RowCount);
        day.Truncate(1); // else the writer's Dispose, which flushes, refuses the row again

    }

    [Fact]
    public void AWatermarkOnlyAdvances()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        writer.Flush(CatalogWorld.FirstDay);

        Assert.Throws<ArgumentOutOfRangeException>(() => writer.Flush(CatalogWorld.FirstDay.AddTicks(-1)));
        Assert.Equal(CatalogWorld.FirstDay, writer.Watermark);
    }

    [Fact]
    public void AFollowingReplayOfMoreInstrumentsThanTheCacheHoldsReopensNoPartitionAtTheNextWatermark()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        reader.PartitionCacheSize = 2;
        using CatalogReplay follow = reader.Follow(DateTime.MinValue, kinds: ["trades"], columns: ["id"]);
        DateTime time = CatalogWorld.FirstDay.AddHours(10);
        long id = 0;
        void Minute()
        {
            for (int i = 0; i < 6; i++)
            {
                Trade(writer, $"I{i}", time, ++id);
            }

            writer.Flush(time.AddTicks(1));
            time = time.AddMinutes(1);
        }

        Minute();
        Assert.Equal(6, CatalogWorld.Replayed(follow).Length);
        long opened = reader.TableCache.Opened;
        Minute();
        Minute();

        Assert.Equal([7L, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18], CatalogWorld.Replayed(follow));
        Assert.Equal(opened, reader.TableCache.Opened);
    }

    [LinuxFact]
    [SupportedOSPlatform("linux")]
    public void AFollowingReplayLetsGoOfThePartitionsItKeptWhenDisposed()
    {
        using var folder = new TempDirectory();
        DateTime time = CatalogWorld.FirstDay.AddHours(10);
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            Trade(writer, "SPY", time, 1);
            Trade(writer, "QQQ", time, 2);
            writer.Flush(time.AddTicks(1));
        }

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        reader.PartitionCacheSize = 0;
        CatalogReplay follow = reader.Follow(DateTime.MinValue, kinds: ["trades"], columns: ["id"]);
        Assert.Equal([1L, 2], CatalogWorld.Replayed(follow));
        Assert.NotEmpty(MappedFiles.InSubfoldersOf(folder.Path));

        follow.Dispose();

        Assert.Empty(MappedFiles.InSubfoldersOf(folder.Path));
    }

    [LinuxFact]
    [SupportedOSPlatform("linux")]
    public void AFollowingReplayLetsGoOfAPartitionItsInstrumentMovedPast()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        reader.PartitionCacheSize = 0;
        DateTime time = CatalogWorld.FirstDay.AddHours(10);
        Trade(writer, "SPY", time, 1);
        writer.Flush(time.AddTicks(1));
        using CatalogReplay follow = reader.Follow(DateTime.MinValue, kinds: ["trades"], columns: ["id"]);
        Assert.Equal([1L], CatalogWorld.Replayed(follow));
        string firstDay = Path.GetDirectoryName(Assert.Single(MappedFiles.InSubfoldersOf(folder.Path), path => path.EndsWith("id.mmf", StringComparison.Ordinal)))!;

        Trade(writer, "SPY", time.AddDays(1), 2);
        writer.Flush(time.AddDays(1).AddTicks(1));

        Assert.Equal([2L], CatalogWorld.Replayed(follow));
        Assert.DoesNotContain(MappedFiles.InSubfoldersOf(folder.Path), path => path.StartsWith(firstDay + Path.DirectorySeparatorChar, StringComparison.Ordinal));
    }

    private static void Trade(TimeSeriesCatalog catalog, string instrument, DateTime time, long id)
    {
        TimeSeriesTable table = catalog.Partition("trades", instrument, time);
        table.Column<double>("price").Add(id);
        table.Column<long>("id").Add(id);
        table.AddRow(time);
    }
}
