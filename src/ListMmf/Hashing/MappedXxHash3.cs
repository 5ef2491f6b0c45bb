using System;
using System.IO.Hashing;

namespace ListMmf.Hashing;

/// <summary>
/// XXH3-64 (seed 0, as <c>xxhsum -H3</c> prints it) of mapped bytes of any 64-bit length, streamed through
/// <see cref="XxHash3"/> in spans straight over the mapping: nothing is copied.
/// </summary>
internal static unsafe class MappedXxHash3
{
    /// <summary>The longest span handed to <see cref="XxHash3.Append(ReadOnlySpan{byte})"/> at once: spans are int-sized.</summary>
    internal const int DefaultChunk = 1 << 30;

    public static ulong Hash(byte* start, long length, int chunk = DefaultChunk)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(chunk);
        if (length <= chunk)
        {
            return XxHash3.HashToUInt64(new ReadOnlySpan<byte>(start, (int)length));
        }

        var hash = new XxHash3();
        for (long done = 0; done < length; done += chunk)
        {
            hash.Append(new ReadOnlySpan<byte>(start + done, (int)Math.Min(chunk, length - done)));
        }

        return hash.GetCurrentHashAsUInt64();
    }
}
