using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;

namespace ListMmf.Search;

/// <summary>Asks the CPU to start reading a cache line that a search will read soon.</summary>
internal static unsafe class CacheLine
{
    /// <summary>The bytes of a cache line on the CPUs this library runs on (x64, and the ARM64 cores it is measured on).</summary>
    public const int Size = 64;

    /// <summary>
    /// Starts reading the line of <paramref name="address"/> into every cache level, where the CPU has the
    /// instruction (x86); a hint only, which never faults, so an address past a mapping is harmless.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Prefetch(void* address)
    {
        if (Sse.IsSupported)
        {
            Sse.Prefetch0(address);
        }
    }
}
