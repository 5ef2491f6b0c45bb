using System.Threading;

namespace ListMmf.Storage;

/// <summary>
/// Where a new mapping (a writer's, or a reader's larger than its smallest view, see <see cref="PosixFileMapping"/>)
/// goes in the address space: at an address whose bits 21-27 differ from those of the mappings this process made just
/// before it, in 2 MiB steps, so that lists used side by side (a table's columns) never touch lines whose
/// addresses agree in their low 28 bits.
/// </summary>
/// <remarks>
/// Left to itself, the system places reservations of 1 GiB (<see cref="PosixFileMapping"/>) next to each other, 1 GiB
/// apart, so every list's header count sat at the same address modulo 1 GiB, and two columns of one width wrote their
/// n-th items at the same address modulo 1 GiB too. AMD's cores pick an L1 way by a hash of the address bits 12-27 (a
/// "utag"), and lines in one set under the same hash evict each other on each access: a table's row-by-row append
/// paid that on each column's count and item, and so did counters in C over 1 GiB file mappings, which 2 MiB further
/// apart did not (benchmarks/README.md, "Batch append vs memcpy" and "Figures behind the code"). Steps of
/// 2 MiB keep each mapping aligned to a large page, which the system needs to map a file's 2 MiB folios whole.
/// </remarks>
internal static class MappingPlacement
{
    /// <summary>The step between placements: a large page, so that every placement stays aligned to one.</summary>
    public const long Step = 2L << 20;

    /// <summary>How many placements before they repeat: the values of the address bits 21-27.</summary>
    public const int Colors = 128;

    /// <summary>The span placements repeat over: a reservation aligned to it starts with bits 0-27 clear.</summary>
    public const long Span = Step * Colors;

    private static int s_next = -1;

    /// <summary>The next mapping's offset from an address aligned to <see cref="Span"/>: each call the next color.</summary>
    public static long NextOffset() => (Interlocked.Increment(ref s_next) & (Colors - 1)) * Step;
}
