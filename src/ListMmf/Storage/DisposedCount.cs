using System.Runtime.InteropServices;

namespace ListMmf.Storage;

/// <summary>
/// A count of zero in native memory that a disposed list points at instead of its unmapped header, so that
/// <c>Count</c> and the indexer need no disposed check of their own on the hot path.
/// </summary>
internal static unsafe class DisposedCount
{
    public static readonly long* Pointer = (long*)NativeMemory.AllocZeroed(sizeof(long));
}
