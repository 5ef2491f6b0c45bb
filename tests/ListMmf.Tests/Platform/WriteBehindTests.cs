using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// <see cref="ListMmfOptions.WriteBehind"/>: a writer starts the writeback of each whole 2 MiB block of items as it
/// appends, so that they are no longer dirty when it flushes. Seen through <c>/proc/self/smaps</c>: starting a page's
/// writeback cleans it and write-protects it in every mapping, so the mapping's dirty bytes drop.
/// </summary>
public sealed class WriteBehindTests
{
    private const int Items = 4 << 20;

    [LinuxFact]
    public void AppendsOnThePosixBackendWithWriteBehindLeaveLittleOfThemDirty() =>
        AppendsWithWriteBehindLeaveLittleOfThemDirty(MappingBackend.Posix);

    [LinuxFact]
    public void AppendsOnTheMemoryMappedFileBackendWithWriteBehindLeaveLittleOfThemDirty() =>
        AppendsWithWriteBehindLeaveLittleOfThemDirty(MappingBackend.MemoryMappedFile);

    private static void AppendsWithWriteBehindLeaveLittleOfThemDirty(MappingBackend backend)
    {
        using var directory = new TempDirectory();
        string path = directory.File("ticks.mmf");
        using var list = new ListMmf<long>(path, FileAccess.ReadWrite, Backends.Options(backend, initialCapacity: Items) with { WriteBehind = true });
        for (long i = 0; i < Items; i++)
        {
            list.Add(i);
        }

        (long resident, long dirty) = Mapped(path);

        // 32 MiB appended and never flushed: without write-behind all of it is still dirty (measured). With it, the last
        // block of 2 MiB or less, and the first page's folio (folios here reach 2 MiB).
        Assert.True(resident >= Items * sizeof(long), $"only {resident:N0} bytes of {path} are resident: the mapping was not found");
        Assert.True(dirty <= Items * sizeof(long) / 4, $"{dirty:N0} bytes of {path} are still dirty after {Items * sizeof(long):N0} bytes of appends");
    }

    /// <summary>Resident and dirty bytes of every mapping of <paramref name="path"/> in this process.</summary>
    private static (long Resident, long Dirty) Mapped(string path)
    {
        IReadOnlyList<FileMappingState> mappings = ProcessMappings.Of(path);
        return (mappings.Sum(mapping => mapping.Bytes("Rss")),
            mappings.Sum(mapping => mapping.Bytes("Shared_Dirty") + mapping.Bytes("Private_Dirty")));
    }
}
