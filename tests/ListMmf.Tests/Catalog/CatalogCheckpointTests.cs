using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.Catalog;

/// <summary>
/// A catalog's checkpoint of its index (partitions.checkpoint): a reader that starts from it sees what a reader of
/// the whole index sees, whatever the checkpoint holds.
/// </summary>
public sealed class CatalogCheckpointTests
{
    [Fact]
    public void AWriterLeavesACheckpointAtItsClose()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            CatalogWorld.Random(3).WriteTo(writer);
            Assert.False(File.Exists(CheckpointOf(folder.Path)));
        }

        Assert.True(File.Exists(CheckpointOf(folder.Path)));
    }

    [Fact]
    public void AReaderFromTheCheckpointAndTheLinesAfterItSeesWhatAReaderOfTheWholeIndexSees()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(5, instruments: 8, days: 4);
        int half = world.Rows.Count / 2;
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            world.Write(writer, 0, half);
            writer.Flush(world.Rows[half].Time);
        }

        using var live = TimeSeriesCatalog.Open(folder.Path);
        world.Write(live, half, world.Rows.Count);
        live.Flush(world.Rows[^1].Time.AddTicks(1));

        (string[] Partitions, DateTime Watermark, long[] Replayed) fromCheckpoint = Read(folder.Path);
        File.Delete(CheckpointOf(folder.Path));
        (string[] Partitions, DateTime Watermark, long[] Replayed) whole = Read(folder.Path);

        Assert.Equal(whole.Partitions, fromCheckpoint.Partitions);
        Assert.Equal(whole.Watermark, fromCheckpoint.Watermark);
        Assert.Equal(world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue), fromCheckpoint.Replayed);
    }

    [Fact]
    public void EveryByteOfTheCheckpointChangedLeavesAReaderSeeingTheIndexAsItIs()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            CatalogWorld.Random(7, instruments: 3, days: 2, rowsPerSeriesDay: 5).WriteTo(writer);
        }

        string checkpoint = CheckpointOf(folder.Path);
        byte[] healthy = File.ReadAllBytes(checkpoint);
        File.Delete(checkpoint);
        string[] expected = Read(folder.Path).Partitions;
        for (int at = 0; at < healthy.Length; at++)
        {
            byte[] damaged = (byte[])healthy.Clone();
            damaged[at] ^= 0x10;
            File.WriteAllBytes(checkpoint, damaged);

            Assert.Equal(expected, Read(folder.Path).Partitions);
        }
    }

    [Fact]
    public void AnotherCatalogsCheckpointIsNotUsed()
    {
        // Two catalogs of one shape (an instrument, two lines), the second's last trade an hour later.
        using var folder = new TempDirectory();
        using var other = new TempDirectory();
        foreach ((string path, int hour) in new[] { (folder.Path, 11), (other.Path, 12) })
        {
            using var writer = TimeSeriesCatalog.Create(path, CatalogWorld.Schema());
            TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
            writer.Flush();
            TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(hour), 2);
        }

        File.Copy(CheckpointOf(other.Path), CheckpointOf(folder.Path), overwrite: true);
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);

        Assert.Equal(CatalogWorld.FirstDay.AddHours(11), Assert.Single(reader.Partitions()).LastTime);
    }

    [Fact]
    public void AReaderAsksForASeriesAfterTheWriterReplacedTheCheckpointItStartedFrom()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(17, instruments: 4, days: 3);
        int half = world.Rows.Count / 2;
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            world.Write(writer, 0, half);
        }

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        byte[] first = File.ReadAllBytes(CheckpointOf(folder.Path));
        using (var writer = TimeSeriesCatalog.Open(folder.Path))
        {
            world.Write(writer, half, world.Rows.Count);
        }

        Assert.NotEqual(first, File.ReadAllBytes(CheckpointOf(folder.Path)));
        File.Delete(CheckpointOf(folder.Path));
        using var whole = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal(Describe(whole), Describe(reader));
    }

    [Fact]
    public void AWriterLeavesACheckpointAsItsIndexGrows()
    {
        using var folder = new TempDirectory();
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("price"));
        using var writer = TimeSeriesCatalog.Create(folder.Path, schema);
        DateTime time = CatalogWorld.FirstDay.AddHours(10);
        int flushes = 0;
        while (!File.Exists(CheckpointOf(folder.Path)) && flushes < 100)
        {
            for (int instrument = 0; instrument < 100; instrument++)
            {
                TimeSeriesTable table = writer.Partition("trades", $"S{instrument}", time);
                table.Column<double>("price").Add(instrument);
                table.AddRow(time);
            }

            writer.Flush();
            flushes++;
            time = time.AddSeconds(1);
        }

        // A line a partition a flush: the first checkpoint comes with the flush that takes the index past 4,096 lines.
        using (var lines = new ListMmf<PartitionRecord>(Path.Combine(folder.Path, "partitions.mmf"), FileAccess.Read))
        {
            Assert.InRange(CatalogCheckpoint.Open(lines, kinds: 1)!.Lines, 4096, 4096 + 99);
        }

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal(100, reader.Partitions("trades").Count);
        Assert.All(reader.Partitions("trades"), partition => Assert.Equal(flushes, partition.RowCount));
    }

    [Fact]
    public void VerifyIndexPassesACheckpointAndTheLinesAfterIt()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(19, instruments: 4, days: 2);
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            world.Write(writer, 0, world.Rows.Count / 2);
        }

        using var live = TimeSeriesCatalog.Open(folder.Path);
        world.Write(live, world.Rows.Count / 2, world.Rows.Count);
        live.Flush();
        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);

        reader.VerifyIndex();
    }

    [Fact]
    public void VerifyIndexRefusesACheckpointWhoseLinesDisagreeWithTheIndex()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
            TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(11), 2);
        }

        // A checkpoint that passes every check a reader makes, written for the index's lines, with a row too many.
        string index = Path.Combine(folder.Path, "partitions.mmf");
        using (var lines = new ListMmf<PartitionRecord>(index, FileAccess.Read))
        {
            PartitionRecord last = lines[lines.Count - 1];
            var series = new Dictionary<(int Kind, int Instrument), List<PartitionRecord>> { [(0, 0)] = [last with { Rows = 3 }] };
            CatalogCheckpoint.Write(index, kinds: 2, series, lines.Count, watermark: 0, last);
        }

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        Assert.Equal(3, Assert.Single(reader.Partitions()).RowCount);
        var refused = Assert.Throws<ListMmfFormatException>(reader.VerifyIndex);
        Assert.Equal(CheckpointOf(folder.Path), refused.FilePath);
        Assert.Contains("holds other partitions of kind 0, instrument 0 than its", refused.Message, StringComparison.Ordinal);
    }

    private static string CheckpointOf(string folder) => Path.Combine(folder, "partitions.checkpoint");

    private static (string[] Partitions, DateTime Watermark, long[] Replayed) Read(string folder)
    {
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);
        return (Describe(catalog), catalog.Watermark, CatalogWorld.Replayed(replay));
    }

    private static string[] Describe(TimeSeriesCatalog catalog) =>
        catalog.Partitions().Select(partition => $"{partition} {partition.PeriodStart:O} {partition.FirstTime:O} " +
            $"{partition.LastTime:O} {partition.Path}").ToArray();
}
