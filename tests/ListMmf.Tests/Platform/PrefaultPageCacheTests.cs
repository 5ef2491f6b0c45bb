using System;
using System.IO;
using System.Runtime.Versioning;
using System.Threading;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// A writer with <see cref="ListMmfOptions.PrefaultAhead"/> fills the page cache with the window ahead of its
/// items, and the next window in the background, and no further: the pages past the items are unwritten extents, and
/// read-around (up to <c>read_ahead_kb</c>, or two 2 MiB folios under large-page advice) would fill megabytes of new
/// memory ahead of the writer on every fault. Each window runs on to the end of a large page where the writer asked
/// for them. Seen through mincore(2) of a mapping of the file, which reports the file's page cache.
/// </summary>
public sealed class PrefaultPageCacheTests
{
    /// <summary>Slack for the page holding the end of the items and the header's page.</summary>
    private const long Slack = 64 << 10;

    /// <summary>What a window's end is rounded up to: a large page where the writer asked for them, else a page.</summary>
    private static long Rounding => Math.Max(Environment.SystemPageSize, StoragePlatform.Current.LargePageBytes);

    [LinuxFact]
    [SupportedOSPlatform("linux")]
    public void APrefaultFillsThePageCacheOnlyAsFarAsItsTwoWindows()
    {
        using var directory = new TempDirectory();
        string path = directory.File("ticks.mmf");
        using ListMmf<long> writer = AppendedTicks(path);

        long items = writer.Storage.ItemsOffset + (writer.Count * sizeof(long));
        long cached = PageCacheFiles.CachedBytesOf(path);

        // The writer's window ends at most a window past the items, rounded up; the background's a window past that.
        long writers = RoundUp(items + ListMmfStorage.PrefaultWindow);
        Assert.InRange(cached, items, RoundUp(writers + ListMmfStorage.PrefaultWindow) + Slack);
    }

    [LinuxFact]
    [SupportedOSPlatform("linux")]
    public void TheWindowAfterTheWritersPrefaultedPagesIsFaultedInWithoutAnAppendThere()
    {
        using var directory = new TempDirectory();
        string path = directory.File("ticks.mmf");
        using ListMmf<long> writer = AppendedTicks(path);
        long items = writer.Storage.ItemsOffset + (writer.Count * sizeof(long));
        // Past the window the last prefault on the writer's thread can reach from the items: only the background's.
        long beyondTheWritersOwn = RoundUp(items) + ListMmfStorage.PrefaultWindow;

        long deadline = Environment.TickCount64 + 30_000;
        var idle = new SpinWait();
        long cached;
        while ((cached = PageCacheFiles.CachedBytesOf(path)) < beyondTheWritersOwn && Environment.TickCount64 < deadline)
        {
            idle.SpinOnce();
        }

        Assert.True(
            cached >= beyondTheWritersOwn,
            $"{cached:N0} bytes cached, not the {beyondTheWritersOwn:N0} the window after the writer's reaches");
    }

    private static long RoundUp(long bytes) => (bytes + Rounding - 1) / Rounding * Rounding;

    /// <summary>A prefaulting writer of 300,000 longs, with room for millions: past its first windows, far from growing.</summary>
    private static ListMmf<long> AppendedTicks(string path)
    {
        var options = Backends.Options(MappingBackend.Posix) with { InitialCapacity = 8_000_000, PrefaultAhead = true };
        var writer = new ListMmf<long>(path, FileAccess.ReadWrite, options);
        for (long i = 0; i < 300_000; i++)
        {
            writer.Add(i);
        }

        return writer;
    }
}
