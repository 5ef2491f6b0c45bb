using System;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.Catalog;

public sealed class CatalogSnapshotTests
{
    [Theory]
    [InlineData(71)]
    [InlineData(72)]
    public void ASnapshotReplaysTheRowsRecordedWhenItWasTakenWhileTheWriterAppendsRollsAndSeals(int seed)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(seed);
        int half = world.Rows.Count / 2;
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        world.Write(writer, 0, half);
        writer.Flush(world.Rows[half].Time);

        writer.CreateSnapshot("half");
        long[] recorded;
        string[] instruments;
        using (var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read))
        {
            recorded = Ids(reader);
            instruments = reader.Instruments.ToArray();
        }

        world.Write(writer, half, world.Rows.Count);
        TimeSeriesCatalogTests.AddTrade(writer, "LATE", CatalogWorld.FirstDay.AddDays(3), 1);
        writer.Seal(CatalogWorld.FirstDay.AddDays(2));

        using var snapshot = TimeSeriesCatalog.OpenSnapshot(folder.Path, "half");
        Assert.Equal(recorded, Ids(snapshot));
        Assert.Equal(instruments, snapshot.Instruments);
        Assert.Equal(world.Rows[half].Time, snapshot.Watermark);
    }

    [Platform.UnixFact]
    public void AReadersSnapshotHoldsOnlyWhatTheWriterMadeDurable()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        writer.Flush();

        // A new instrument's partition is in the index at once, recorded empty, but not durable until the next flush.
        TimeSeriesCatalogTests.AddTrade(writer, "QQQ", CatalogWorld.FirstDay.AddHours(11), 2);
        using (var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read))
        {
            Assert.Equal(["SPY", "QQQ"], reader.Instruments);
            reader.CreateSnapshot("flushed");
        }

        using var snapshot = TimeSeriesCatalog.OpenSnapshot(folder.Path, "flushed");
        Assert.Equal(["SPY"], snapshot.Instruments);
        Assert.Equal([1L], Ids(snapshot));
    }

    [Fact]
    public void TheWritersSnapshotHoldsWhatItAppendedFlushedFirst()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        TimeSeriesCatalogTests.AddTrade(writer, "QQQ", CatalogWorld.FirstDay.AddHours(11), 2);

        writer.CreateSnapshot("appended");

        using var snapshot = TimeSeriesCatalog.OpenSnapshot(folder.Path, "appended");
        Assert.Equal(["SPY", "QQQ"], snapshot.Instruments);
        Assert.Equal([1L, 2L], Ids(snapshot));
    }

    [Fact]
    public void AnInstrumentAddedAfterASnapshotIsNotInIt()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        writer.Flush();
        writer.CreateSnapshot("before");
        TimeSeriesCatalogTests.AddTrade(writer, "QQQ", CatalogWorld.FirstDay.AddHours(11), 2);
        writer.Flush();

        using var snapshot = TimeSeriesCatalog.OpenSnapshot(folder.Path, "before");
        var refused = Assert.Throws<ArgumentException>(() => snapshot.Replay(DateTime.MinValue, DateTime.MaxValue, instruments: ["QQQ"]));
        Assert.Contains("no instrument 'QQQ'", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ASnapshotNameIsTakenOnceAndListed()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        writer.CreateSnapshot("run-2");
        writer.CreateSnapshot("run-1");

        Assert.Throws<ListMmfException>(() => writer.CreateSnapshot("run-1"));
        Assert.Equal(["run-1", "run-2"], writer.Snapshots().Select(snapshot => snapshot.Name));
    }

    [Platform.UnixFact]
    public void ReadersTakingOneSnapshotNameAtOnceLeaveOneWholeSnapshotAndTellTheOthersItIsTaken()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
        writer.Flush();
        var readers = Enumerable.Range(0, 4).Select(_ => TimeSeriesCatalog.Open(folder.Path, FileAccess.Read)).ToArray();
        try
        {
            for (int round = 0; round < 50; round++)
            {
                string name = $"run-{round}";
                using var start = new Barrier(readers.Length);
                Exception?[] outcomes = readers.AsParallel().WithDegreeOfParallelism(readers.Length).Select(reader =>
                {
                    start.SignalAndWait();
                    try
                    {
                        reader.CreateSnapshot(name);
                        return null;
                    }
                    catch (Exception exception)
                    {
                        return exception;
                    }
                }).ToArray();

                Assert.Single(outcomes, outcome => outcome is null);
                Assert.All(outcomes.OfType<Exception>(), refused =>
                    Assert.Contains($"already has a snapshot '{name}'", Assert.IsType<ListMmfException>(refused).Message, StringComparison.Ordinal));
                using var snapshot = TimeSeriesCatalog.OpenSnapshot(folder.Path, name);
                Assert.Equal([1L], Ids(snapshot));
            }

            Assert.Equal(50, writer.Snapshots().Count);
            Assert.Empty(Directory.EnumerateFiles(Path.Combine(folder.Path, CatalogSnapshot.FolderName), "*.tmp"));
        }
        finally
        {
            foreach (TimeSeriesCatalog reader in readers)
            {
                reader.Dispose();
            }
        }
    }

    [Theory]
    [InlineData("a/b")]
    [InlineData("CON")]
    [InlineData("")]
    public void ASnapshotNameThatIsNoPortableFileNameIsRefused(string name)
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());

        Assert.ThrowsAny<ArgumentException>(() => writer.CreateSnapshot(name));
    }

    [Fact]
    public void OpeningASnapshotTheCatalogDoesNotHaveIsRefusedNamingIt()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()).Dispose();

        var missing = Assert.Throws<FileNotFoundException>(() => TimeSeriesCatalog.OpenSnapshot(folder.Path, "nightly"));
        Assert.Contains("no snapshot 'nightly'", missing.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ASnapshotTakingMoreLinesThanTheIndexHoldsIsRefused()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
            writer.Flush();
            writer.CreateSnapshot("s");
        }

        string file = Path.Combine(folder.Path, "snapshots", "s.json");
        string json = File.ReadAllText(file);
        Assert.Matches("\"indexLines\": [1-9]\\b", json);
        File.WriteAllText(file, Regex.Replace(json, "\"indexLines\": \\d+", "\"indexLines\": 1000"));

        var refused = Assert.Throws<ListMmfFormatException>(() => TimeSeriesCatalog.OpenSnapshot(folder.Path, "s"));
        Assert.Contains("first 1,000 lines", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void FollowingASnapshotIsRefused()
    {
        using var folder = new TempDirectory();
        using (var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema()))
        {
            writer.CreateSnapshot("s");
        }

        using var snapshot = TimeSeriesCatalog.OpenSnapshot(folder.Path, "s");
        Assert.Throws<InvalidOperationException>(() => snapshot.Follow(DateTime.MinValue));
    }

    [Fact]
    public void AKindNamedAfterTheSnapshotsFolderIsRefused()
    {
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day);

        Assert.Throws<ArgumentException>(() => schema.Add("snapshots", new TimeSeriesTableSchema("time", DataType.DateTime)));
    }

    private static long[] Ids(TimeSeriesCatalog catalog)
    {
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);
        return CatalogWorld.Replayed(replay);
    }
}
