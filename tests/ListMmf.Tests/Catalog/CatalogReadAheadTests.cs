using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using System.Threading;
using System.Threading.Tasks;
using ListMmf.TestHost;
using ListMmf.Tests.Platform;
using Xunit;
using Form = ListMmf.Tests.Catalog.TimeSeriesCatalogTests.Form;

namespace ListMmf.Tests.Catalog;

/// <summary>
/// Partitions opened together (a state at T, a run's new partitions) whose files are cold have those files read ahead
/// all at once (<see cref="CatalogReadAhead"/>): the columns asked for, no other, and nothing a planted file can stall;
/// a catalog opened cold reads ahead a partition opened alone until it finds one cached.
/// </summary>
[SupportedOSPlatform("linux")]
public sealed class CatalogReadAheadTests
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(30);

    [LinuxFact]
    public void ColdPartitionsOpenedTogetherHaveTheTimeAndTheAskedColumnsReadAheadAndNoOtherColumn()
    {
        using var folder = new TempDirectory();
        using TimeSeriesCatalog catalog = TradesOfADay(folder.Path, seed: 31, out CatalogPartition[] partitions);
        foreach (string file in Directory.GetFiles(folder.Path, "*.mmf", SearchOption.AllDirectories))
        {
            PageCacheFiles.Drop(file);
        }

        Assert.True(catalog.ReadAhead(partitions, ["price"]));

        foreach (CatalogPartition partition in partitions)
        {
            // The read is started, not waited for: poll until the kernel has it.
            WaitUntilCached(Path.Combine(partition.Path, "time.mmf"));
            WaitUntilCached(Path.Combine(partition.Path, "price.mmf"));
        }

        Assert.All(partitions, partition => Assert.Equal(0, PageCacheFiles.CachedBytesOf(Path.Combine(partition.Path, "id.mmf"))));
    }

    [LinuxFact]
    public void PartitionsOpenedTogetherWhoseFirstTimeColumnIsCachedAreTakenToBeWarmAndNotReadAhead()
    {
        using var folder = new TempDirectory();
        using TimeSeriesCatalog catalog = TradesOfADay(folder.Path, seed: 32, out CatalogPartition[] partitions);
        foreach (CatalogPartition partition in partitions.Skip(1))
        {
            PageCacheFiles.Drop(Path.Combine(partition.Path, "time.mmf"));
        }

        // The first partition's time column is cached: the batch is taken to be warm, and nothing is asked for.
        Assert.False(catalog.ReadAhead(partitions, []));
    }

    [LinuxFact]
    public void AFifoPlantedAtAColumnsNameOfColdPartitionsIsRefusedByTheStateNamingItRatherThanWaitedOn()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(33, instruments: 120, days: 1);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Appendable);
        foreach (string file in Directory.GetFiles(folder.Path, "*.mmf", SearchOption.AllDirectories))
        {
            PageCacheFiles.Drop(file);
        }

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogPartition[] partitions = catalog.Partitions().Where(partition => partition.Kind == "trades").ToArray();
        Assert.True(partitions.Length >= 64, "enough partitions for a state searched on every core, whose partitions are read ahead");
        CatalogPartition planted = partitions[^1];
        string price = Path.Combine(planted.Path, "price.mmf");
        File.Delete(price);
        using (Process mkfifo = Process.Start("mkfifo", [price])!)
        {
            mkfifo.WaitForExit();
            Assert.Equal(0, mkfifo.ExitCode);
        }

        Task<CatalogState> state = Task.Run(() => catalog.StateAt("trades", DateTime.MaxValue, ["price"]));

        Assert.True(((IAsyncResult)state).AsyncWaitHandle.WaitOne(Deadline), "the state waited on a FIFO");
        var refused = Assert.IsAssignableFrom<ListMmfException>(state.Exception?.InnerException);
        Assert.Contains("price.mmf", refused.Message);
    }

    [LinuxFact]
    public void APartitionOpenedAloneInACatalogOpenedColdHasTheTimeAndTheAskedColumnsReadAheadAndNoOtherColumn()
    {
        using var folder = new TempDirectory();
        using TimeSeriesCatalog catalog = OpenedCold(folder.Path, seed: 34, out CatalogPartition[] partitions);
        CatalogPartition partition = partitions[0];

        Assert.True(catalog.ReadAheadAlone(partition, ["price"]));

        WaitUntilCached(Path.Combine(partition.Path, "time.mmf"));
        WaitUntilCached(Path.Combine(partition.Path, "price.mmf"));
        Assert.Equal(0, PageCacheFiles.CachedBytesOf(Path.Combine(partition.Path, "id.mmf")));
    }

    [LinuxFact]
    public void APartitionOpenedAloneInACatalogOpenedWarmIsNotReadAheadThoughItIsCold()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogTests.Write(folder.Path, CatalogWorld.Random(35, instruments: 3, days: 2), Form.Appendable);
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        CatalogPartition partition = catalog.Partitions().First(partition => partition.Kind == "trades");
        DropEveryFile(partition.Path);
        Assert.Equal(0, PageCacheFiles.CachedBytesOf(Path.Combine(partition.Path, "time.mmf")));

        Assert.False(catalog.ReadAheadAlone(partition, ["price"]));
    }

    [LinuxFact]
    public void ACatalogOpenedColdStopsReadingAheadPartitionsOpenedAloneAtTheFirstItFindsCached()
    {
        using var folder = new TempDirectory();
        using TimeSeriesCatalog catalog = OpenedCold(folder.Path, seed: 36, out CatalogPartition[] partitions);
        _ = File.ReadAllBytes(Path.Combine(partitions[0].Path, "time.mmf"));

        Assert.False(catalog.ReadAheadAlone(partitions[0], ["price"]));
        Assert.Equal(0, PageCacheFiles.CachedBytesOf(Path.Combine(partitions[1].Path, "time.mmf")));
        Assert.False(catalog.ReadAheadAlone(partitions[1], ["price"]));
    }

    /// <summary>A small catalog written, every file's pages dropped, then opened to read, and its trades' partitions.</summary>
    private static TimeSeriesCatalog OpenedCold(string folder, int seed, out CatalogPartition[] partitions)
    {
        TimeSeriesCatalogTests.Write(folder, CatalogWorld.Random(seed, instruments: 3, days: 2), Form.Appendable);
        DropEveryFile(folder);
        var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        partitions = catalog.Partitions().Where(partition => partition.Kind == "trades").ToArray();
        return catalog;
    }

    private static void DropEveryFile(string folder)
    {
        foreach (string file in Directory.GetFiles(folder, "*", SearchOption.AllDirectories))
        {
            PageCacheFiles.Drop(file);
        }
    }

    /// <summary>A catalog of 30 instruments' trades and quotes over a day, opened to read, and its trades' partitions (enough to read ahead).</summary>
    private static TimeSeriesCatalog TradesOfADay(string folder, int seed, out CatalogPartition[] partitions)
    {
        TimeSeriesCatalogTests.Write(folder, CatalogWorld.Random(seed, instruments: 30, days: 1), Form.Appendable);
        var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        partitions = catalog.Partitions().Where(partition => partition.Kind == "trades").ToArray();
        Assert.True(partitions.Length >= CatalogReadAhead.FewestPartitions);
        return catalog;
    }

    private static void WaitUntilCached(string path)
    {
        var clock = Stopwatch.StartNew();
        while (PageCacheFiles.CachedBytesOf(path) == 0)
        {
            Assert.True(clock.Elapsed < Deadline, $"'{path}' was not read ahead within {Deadline}");
            Thread.Yield();
        }
    }
}
