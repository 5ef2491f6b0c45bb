using System;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// Empties the CPU's caches of everything a question's answers put there, by reading a buffer several times the
/// size of a last-level cache: the answers to a range question are ListMmf's sums, and without this its timed
/// round after them would find their lines cached.
/// </summary>
internal static class CpuCaches
{
    /// <summary>
    /// Four times the 32 MiB level-3 cache an EPYC core complex shares (this VM reports the whole socket's, 508 MiB,
    /// of which one core uses its complex's share).
    /// </summary>
    private const int BufferBytes = 128 << 20;

    private static byte[]? s_buffer;

    /// <summary>The sum of the bytes read, which is kept so that the reads are not optimised away.</summary>
    public static long Checksum { get; private set; }

    public static void Evict()
    {
        if (s_buffer is null)
        {
            s_buffer = GC.AllocateUninitializedArray<byte>(BufferBytes);
            Array.Fill(s_buffer, (byte)1);
        }

        long sum = 0;
        byte[] buffer = s_buffer;
        for (int i = 0; i < buffer.Length; i += 64)
        {
            sum += buffer[i];
        }

        Checksum += sum;
    }
}
