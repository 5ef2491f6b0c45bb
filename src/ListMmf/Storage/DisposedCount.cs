using System.Runtime.InteropServices;

namespace ListMmf.Storage;

/// <summary>
/// A count of -1 in native memory that a disposed list points at instead of its unmapped header: every member's
/// first read of the count then fails the hot path's one unsigned comparison, and the slow path throws
/// <see cref="System.ObjectDisposedException"/>. No member needs a disposed check of its own on the hot path.
/// </summary>
internal static unsafe class DisposedCount
{
    public static readonly long* Pointer = Allocate();

    private static long* Allocate()
    {
        long* pointer = (long*)NativeMemory.Alloc(sizeof(long));
        *pointer = -1;
        return pointer;
    }
}
