using System;
using System.Globalization;
using System.IO;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// The bytes this process has had read from storage so far (<c>read_bytes</c> of <c>/proc/self/io</c>: what the
/// block layer fetched for it, its threads' and the kernel's read-ahead on its behalf included, and none of what the
/// page cache served). Linux only; null elsewhere.
/// </summary>
internal static class ProcessIo
{
    public static long? ReadBytes()
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        foreach (string line in File.ReadLines("/proc/self/io"))
        {
            if (line.StartsWith("read_bytes:", StringComparison.Ordinal))
            {
                return long.Parse(line.AsSpan("read_bytes:".Length).Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture);
            }
        }

        return null;
    }

    /// <summary>A byte count as people read it: "12 KiB", "1.5 MiB".</summary>
    public static string Describe(double bytes) => bytes switch
    {
        < 1 << 20 => string.Create(CultureInfo.InvariantCulture, $"{bytes / 1024:N0} KiB"),
        < 1L << 30 => string.Create(CultureInfo.InvariantCulture, $"{bytes / (1 << 20):N1} MiB"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{bytes / (1L << 30):N2} GiB"),
    };
}
