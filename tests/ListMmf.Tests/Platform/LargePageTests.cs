using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// On Linux a writer's mapping asks for large pages (MADV_HUGEPAGE), so that its appends fault in a whole folio at a
/// time; a reader's does not. Seen through <c>/proc/self/smaps</c>, whose <c>VmFlags</c> show the advice as <c>hg</c>.
/// </summary>
public sealed class LargePageTests
{
    [LargePageFact]
    public void AWritersMappingAsksForLargePagesAndAReadersDoesNot()
    {
        using var directory = new TempDirectory();
        string path = directory.File("ticks.mmf");
        using var writer = new ListMmf<long>(path, FileAccess.ReadWrite, Backends.Options(MappingBackend.Posix));
        writer.Add(1);
        using var reader = new ListMmf<long>(path, FileAccess.Read, Backends.Options(MappingBackend.Posix));

        Dictionary<string, string[]> flags = MappingFlags(path);

        Assert.True(flags.ContainsKey("rw-s"), $"no writable mapping of {path} was found: {string.Join(", ", flags.Keys)}");
        Assert.True(flags.ContainsKey("r--s"), $"no read-only mapping of {path} was found: {string.Join(", ", flags.Keys)}");
        Assert.Contains("hg", flags["rw-s"]);
        Assert.DoesNotContain("hg", flags["r--s"]);
    }

    /// <summary>
    /// A prefaulting writer faults in whole 2 MiB folios ahead of its items, so that a reader maps its items in 2 MiB
    /// pages, and a lookup's random read takes fewer misses to translate (benchmarks/README.md, "Single lookup").
    /// The items reach into the fourth 2 MiB page; the first may hold pages written before the writer prefaulted.
    /// </summary>
    [FileLargePageFact]
    public void AReaderMapsTheItemsOfAPrefaultingWriterInLargePages()
    {
        using var directory = new TempDirectory();
        string path = directory.File("ticks.mmf");
        var writing = Backends.Options(MappingBackend.Posix) with { InitialCapacity = 2_000_000, PrefaultAhead = true };
        using var writer = new ListMmf<long>(path, FileAccess.ReadWrite, writing);
        for (long i = 0; i < 1_000_000; i++)
        {
            writer.Add(i);
        }

        var reading = Backends.Options(MappingBackend.Posix) with { PopulateOnOpen = true };
        using var reader = new ListMmf<long>(path, FileAccess.Read, reading);

        long mapped = FileLargePages.MappedBytes(path, "r--s");
        Assert.True(mapped >= 3 * FileLargePages.LargePage, $"the reader maps {mapped:N0} bytes of {path} in 2 MiB pages, fewer than the 6 MiB from 2 MiB to 8 MiB");
    }

    /// <summary>
    /// A seal leaves its new file out of the page cache, so that its readers' mappings, which ask for large pages,
    /// bring it in in 2 MiB folios. Reading the file's information first (as the tool and the tables do) must not read
    /// the file's start into small folios, which every reader would then map in 4 KiB pages: a <c>read</c> of the
    /// header lost 4 of 12 MiB so (benchmarks/README.md, "sealed tables, and the 776M dataset").
    /// Finding which form a file is in (as a table's open does for each column) must not either.
    /// </summary>
    [FileLargePageFact]
    public void ReadingASealedFilesInformationLeavesItsReadersTheirLargePages() =>
        AssertSealedReadersMapLargePagesAfter(path => ListMmfFileInfo.Read(path).IsSealed);

    [FileLargePageFact]
    public void FindingASealedFilesFormLeavesItsReadersTheirLargePages() =>
        AssertSealedReadersMapLargePagesAfter(SealedListMmf.IsSealed);

    private static void AssertSealedReadersMapLargePagesAfter(Func<string, bool> look)
    {
        using var directory = new TempDirectory();
        string path = directory.File("ticks.mmf");
        const int Items = 2 << 20;
        using (var writer = new ListMmf<long>(path))
        {
            var random = new Random(5);
            for (int i = 0; i < Items; i++)
            {
                writer.Add(random.NextInt64());
            }
        }

        SealedListMmf.Seal(path);
        Assert.True(look(path));

        using var reader = new SealedListMmf<long>(path, Backends.Options(MappingBackend.Posix) with { PopulateOnOpen = true });

        long wholePages = new FileInfo(path).Length / FileLargePages.LargePage;
        long mapped = FileLargePages.MappedBytes(path, "r--s");
        Assert.True(mapped >= (wholePages - 1) * FileLargePages.LargePage,
            $"the reader maps {mapped:N0} bytes of {path} in 2 MiB pages, fewer than {wholePages - 1} of its {wholePages} whole 2 MiB pages");
    }

    /// <summary>The VmFlags of each mapping of <paramref name="path"/> in this process, by its permissions.</summary>
    private static Dictionary<string, string[]> MappingFlags(string path) =>
        ProcessMappings.Of(path).ToDictionary(mapping => mapping.Permissions, mapping => mapping.Flags);
}
