using System.IO;
using System.Runtime.Versioning;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// Which form a file is in is found from its first page (<see cref="FileStart"/>), as a table's open does for each
/// column before opening it, without reading megabytes of a cold file: a fault in a mapping that asks for large pages
/// read 4 MiB of each column (two 2 MiB folios), where a cold read brings at most the kernel's first read-ahead of a
/// few pages.
/// </summary>
public sealed class FileStartTests
{
    [FileLargePageFact]
    [SupportedOSPlatform("linux")]
    public void FindingTheFormOfAColdFileReadsLessThanALargePageOfIt()
    {
        using var directory = new TempDirectory();
        string path = directory.File("ticks.mmf");
        using (var writer = new ListMmf<long>(path))
        {
            for (long i = 0; i < 1_000_000; i++)
            {
                writer.Add(i);
            }
        }

        PageCacheFiles.Drop(path);
        Assert.Equal(0, PageCacheFiles.CachedBytesOf(path));

        Assert.False(SealedListMmf.IsSealed(path));

        long cached = PageCacheFiles.CachedBytesOf(path);
        Assert.True(cached < 2 << 20, $"finding the form read {cached:N0} bytes of the file into the page cache");
    }

    [Fact]
    public void TheFirstBytesOfAFileShorterThanAPageAreItsWholeContent()
    {
        using var directory = new TempDirectory();
        string path = directory.File("short.bin");
        byte[] content = [1, 2, 3, 4, 5, 6, 7];
        File.WriteAllBytes(path, content);

        Assert.Equal(content, FileStart.Read(path, 4096, out long length));
        Assert.Equal(content.Length, length);
    }
}
