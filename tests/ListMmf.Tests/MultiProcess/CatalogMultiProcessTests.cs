using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.MultiProcess;

/// <summary>
/// A writer process appends many instruments' trades and quotes to a catalog, rolling days and recording a watermark
/// at each flush, while two reader processes follow it: each must see every row once, in the order a sort of all
/// rows by time, kind rank, instrument ordinal and row gives.
/// </summary>
[Collection(nameof(LiveReaderStressTests))]
public sealed class CatalogMultiProcessTests
{
    [Fact]
    public void ReaderProcessesFollowingACatalogBeingWrittenSeeEveryRowInTheOrderOfALaterReplay()
    {
        using var directory = new TempDirectory();
        string folder = directory.File("market");
        var readers = Enumerable.Range(0, 2).Select(_ => ChildProcess.Start("catalog-follow", folder, "41", "600")).ToList();
        try
        {
            using var writer = ChildProcess.Start("catalog-write", folder, "41");
            Assert.Equal("created", writer.ReadLine());
            int writerExit = writer.WaitForExit(System.TimeSpan.FromMinutes(10));
            Assert.True(writerExit == 0, $"writer exited with {writerExit}: {writer.ErrorText()}");
            string written = writer.ReadLine() ?? "";

            foreach (ChildProcess reader in readers)
            {
                int exit = reader.WaitForExit(System.TimeSpan.FromMinutes(10));
                string opened = reader.ReadLine() ?? "";
                string line = reader.ReadLine() ?? "";
                Assert.True(exit == 0, $"reader exited with {exit}: {opened} {line} {reader.ErrorText()}");
                Assert.StartsWith($"{written} order=same", line);
            }
        }
        finally
        {
            readers.ForEach(reader => reader.Dispose());
        }
    }

    [Platform.UnixFact]
    public void SnapshotsTakenWhileAWriterProcessAppendsReplayLaterExactlyAsWhenTaken()
    {
        using var directory = new TempDirectory();
        string folder = directory.File("market");
        var taken = new List<(string Name, long[] Ids)>();
        using (var writer = ChildProcess.Start("catalog-write", folder, "43"))
        {
            Assert.Equal("created", writer.ReadLine());
            var deadline = Stopwatch.StartNew();
            while (!writer.HasExited && deadline.Elapsed < TimeSpan.FromMinutes(10))
            {
                using var reader = TimeSeriesCatalog.Open(folder, FileAccess.Read);
                string name = $"s{taken.Count}";
                reader.CreateSnapshot(name);
                using var snapshot = TimeSeriesCatalog.OpenSnapshot(folder, name);
                taken.Add((name, Ids(snapshot)));
            }

            int exit = writer.WaitForExit(TimeSpan.FromMinutes(10));
            Assert.True(exit == 0, $"writer exited with {exit}: {writer.ErrorText()}");
        }

        Assert.Contains(taken, snapshot => snapshot.Ids.Length > 0);
        foreach ((string name, long[] ids) in taken)
        {
            using var snapshot = TimeSeriesCatalog.OpenSnapshot(folder, name);
            Assert.Equal(ids, Ids(snapshot));
        }
    }

    private static long[] Ids(TimeSeriesCatalog catalog)
    {
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);
        return CatalogWorld.Replayed(replay);
    }
}
