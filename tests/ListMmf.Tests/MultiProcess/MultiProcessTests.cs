using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.TestHost;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests.MultiProcess;

/// <summary>
/// One writer and many readers in real processes: live appends seen item for item across growths, a writer killed
/// at random points, a second writer refused, a reader killed without effect. Every wait polls with a deadline.
/// </summary>
public sealed class MultiProcessTests : IDisposable
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(5);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("live.bin");

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ReaderProcessesSeeEveryItemInOrderAcrossManyGrowths(MappingBackend readerBackend)
    {
        const long Items = 2_000_000;
        var readers = Enumerable.Range(0, 3)
            .Select(_ => ChildProcess.Start("verify", FilePath, Text(Items), Text(Deadline.TotalMilliseconds), readerBackend.ToString()))
            .ToList();
        using var writer = ChildProcess.Start("append", FilePath, Text(Items));
        try
        {
            Assert.Equal(0, writer.WaitForExit(Deadline));
            foreach (ChildProcess reader in readers)
            {
                int exit = reader.WaitForExit(Deadline);
                Assert.True(exit == 0, $"reader {reader.Id} exited {exit}: {reader.ErrorText()}");
            }
        }
        finally
        {
            readers.ForEach(reader => reader.Dispose());
        }

        using var list = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Equal(Items, list.Count);
        Assert.True(list.Capacity * sizeof(long) >= 8 << 20, "the file grew from 64 KiB at least seven times while the readers followed");
    }

    [Fact]
    public void WriterKilledAtRandomPointsLeavesEveryPublishedItemIntact()
    {
        var random = new Random(5);
        long published = 0;
        for (int kill = 0; kill < 5; kill++)
        {
            long target = published + random.Next(1, 400_000);
            using (var writer = ChildProcess.Start("append", FilePath, "-1"))
            {
                Assert.Equal("writing", writer.ReadLine());
                WaitUntil(() => CountOf(FilePath) >= target, $"the writer to pass {target} items");
                writer.Kill();
            }

            using var reopened = new ListMmf<long>(FilePath);
            Assert.True(reopened.Count >= target, $"count {reopened.Count} fell below {target}, which a reader had seen published");
            AssertItemsIntact(reopened, from: 0);
            published = reopened.Count;
        }
    }

    [Fact]
    public void SecondWriterInAnotherProcessIsRefusedUntilTheFirstExits()
    {
        using var holder = ChildProcess.Start("hold", FilePath);
        Assert.Equal("holding", holder.ReadLine());

        var refused = Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(FilePath));
        Assert.Equal(Path.GetFullPath(FilePath), refused.FilePath);

        holder.CloseInput();
        Assert.Equal(0, holder.WaitForExit(Deadline));
        using var writer = new ListMmf<long>(FilePath);
        Assert.True(writer.IsWritable);
    }

    [Fact]
    public void KilledWriterLeavesNoStaleLock()
    {
        using (var writer = ChildProcess.Start("append", FilePath, "-1"))
        {
            Assert.Equal("writing", writer.ReadLine());
            writer.Kill();
        }

        using var next = new ListMmf<long>(FilePath);
        next.Add(TestHost.Program.ValueAt(next.Count));
        AssertItemsIntact(next, from: 0);
    }

    /// <summary>The refusal is simulated with a POSIX file-size limit; Windows has none to set from a test.</summary>
    [UnixFact]
    public void GrowthThatTheFileSystemRefusesFailsAtGrowthWithEveryPublishedItemIntact()
    {
        const long LimitBytes = 4 << 20;
        using var filler = ChildProcess.StartWithFileSizeLimit(LimitBytes / 1024, "fill", FilePath);
        string? count = filler.ReadLine();
        string? message = filler.ReadLine();
        Assert.True(filler.WaitForExit(Deadline) == 0, filler.ErrorText());

        Assert.Contains("could not grow the file", message, StringComparison.Ordinal);
        Assert.Contains(Path.GetFullPath(FilePath), message, StringComparison.Ordinal);
        Assert.True(new FileInfo(FilePath).Length <= LimitBytes, "the failed growth was rolled back");
        using var reopened = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Equal(long.Parse(count!, System.Globalization.CultureInfo.InvariantCulture), reopened.Count);
        Assert.True(reopened.Count > 100_000, $"only {reopened.Count} items before the limit");
        AssertItemsIntact(reopened, from: 0);
    }

    [Fact]
    public void KilledReaderDoesNotDisturbTheWriter()
    {
        using var writer = new ListMmf<long>(FilePath);
        writer.Add(Program.ValueAt(0));
        using (var reader = ChildProcess.Start("verify", FilePath, Text(long.MaxValue), Text(Deadline.TotalMilliseconds), nameof(MappingBackend.Default)))
        {
            for (long i = 1; i < 200_000; i++)
            {
                writer.Add(Program.ValueAt(i));
            }

            Assert.False(reader.HasExited, "the reader should still be following the writer");
            reader.Kill();
        }

        for (long i = 200_000; i < 1_000_000; i++)
        {
            writer.Add(Program.ValueAt(i));
        }

        Assert.Equal(1_000_000, writer.Count);
        AssertItemsIntact(writer, from: 0);
    }

    private static void AssertItemsIntact(ListMmf<long> list, long from)
    {
        for (long i = from; i < list.Count; i++)
        {
            if (list[i] != Program.ValueAt(i))
            {
                Assert.Fail($"item {i} of {list.Count} is {list[i]}, expected {Program.ValueAt(i)}");
            }
        }
    }

    private static string Text(double value) => value.ToString(System.Globalization.CultureInfo.InvariantCulture);

    private static long CountOf(string path)
    {
        if (!File.Exists(path))
        {
            return 0;
        }

        using var reader = new ListMmf<long>(path, FileAccess.Read);
        return reader.Count;
    }

    private static void WaitUntil(Func<bool> condition, string what) => Polling.Until(condition, what, Deadline);
}
