using System;
using System.IO.Hashing;
using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>
/// XXH3-64 (seed 0) of the bytes of a list's items in either form, read a range at a time: over the mapping where the
/// form has a span, decoded into one buffer where it is sealed. Equal items give equal hashes in every form.
/// </summary>
internal static class ItemsXxHash3
{
    /// <summary>The items read at once: a few hundred KiB of the widest items, a whole number of sealed blocks.</summary>
    private const int Chunk = 1 << 16;

    public static ulong Of<T>(IReadOnlyListMmf<T> items)
        where T : unmanaged
    {
        long count = items.Count;
        var hash = new XxHash3();
        T[]? buffer = null;
        for (long start = 0; start < count; start += Chunk)
        {
            var range = new IndexRange(start, Math.Min(count, start + Chunk));
            if (buffer is null && items.IsSealed)
            {
                buffer = GC.AllocateUninitializedArray<T>(Chunk);
            }

            hash.Append(MemoryMarshal.AsBytes(items.Read(range, buffer)));
        }

        return hash.GetCurrentHashAsUInt64();
    }
}
