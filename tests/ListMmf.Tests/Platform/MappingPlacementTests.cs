using System;
using System.IO;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// Lists opened one after another are mapped at addresses that differ in bits 21-27, so that the columns of a table
/// appended row by row never write lines whose addresses agree in their low 28 bits (which an AMD core's L1 keeps
/// evicting; see <c>MappingPlacement</c>), and each mapping still starts on a 2 MiB boundary. The placements are
/// the process's, so the class runs alone: lists other tests open between these would take placements too.
/// </summary>
[Collection(nameof(MappingPlacementTests))]
public sealed unsafe class MappingPlacementTests
{
    private const int Lists = 8;
    private const long LargePage = 2L << 20;

    [UnixFact]
    public void ListsOpenedOneAfterAnotherAreMappedAtAddressesThatDifferInBits21To27()
    {
        long[] starts = MappingStarts();

        long[] colors = starts.Select(start => (start >> 21) & 127).ToArray();
        Assert.True(colors.Distinct().Count() == Lists, $"mappings at {Describe(starts)} share bits 21-27 ({string.Join(", ", colors)})");
    }

    [UnixFact]
    public void EveryMappingStartsOnALargePageBoundary()
    {
        long[] starts = MappingStarts();

        Assert.All(starts, start => Assert.True(start % LargePage == 0, $"a mapping starts at 0x{start:x}, not on a 2 MiB boundary"));
    }

    /// <summary>Where each of <see cref="Lists"/> new lists' mappings starts: its header, just before its first item.</summary>
    private static long[] MappingStarts()
    {
        using var directory = new TempDirectory();
        var lists = new ListMmf<int>[Lists];
        try
        {
            for (int i = 0; i < Lists; i++)
            {
                lists[i] = new ListMmf<int>(directory.File($"column{i}.mmf"), FileAccess.ReadWrite, Backends.Options(MappingBackend.Posix));
                lists[i].Add(i);
            }

            return lists.Select(list => (long)Unsafe.AsPointer(ref MemoryMarshal.GetReference(list.AsSpan(0, 1))) - list.Storage.ItemsOffset).ToArray();
        }
        finally
        {
            foreach (ListMmf<int>? list in lists)
            {
                list?.Dispose();
            }
        }
    }

    private static string Describe(long[] starts) => string.Join(", ", starts.Select(start => $"0x{start:x}"));
}

/// <summary>The placement tests' collection: it does not run beside the other test classes.</summary>
[CollectionDefinition(nameof(MappingPlacementTests), DisableParallelization = true)]
public sealed class PlacementsRunAlone
{
}
