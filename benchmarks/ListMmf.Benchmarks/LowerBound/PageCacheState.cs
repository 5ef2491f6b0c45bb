using System;
using System.Globalization;
using System.IO;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// How much of Linux's page cache is held in huge folios (<c>FileHugePages</c> in <c>/proc/meminfo</c>). A mapping
/// of a file cached in 2 MiB folios gets 2 MiB TLB entries; after reclaim has split them, every random probe of a
/// search may also walk the page tables. On this project's machine that made the plain search over the 776M dataset
/// 3-4x slower, and every ratio to it look better than it was (benchmarks/README.md): runs are only comparable in
/// the same state, so quick prints it.
/// </summary>
internal static class PageCacheState
{
    /// <summary>The state as one line, or null where there is no <c>/proc/meminfo</c>.</summary>
    public static string? Describe()
    {
        const string MemInfo = "/proc/meminfo";
        if (!OperatingSystem.IsLinux() || !File.Exists(MemInfo))
        {
            return null;
        }

        long? cached = null;
        long? huge = null;
        foreach (string line in File.ReadLines(MemInfo))
        {
            cached ??= KibOf(line, "Cached:");
            huge ??= KibOf(line, "FileHugePages:");
        }

        return cached is null || huge is null
            ? null
            : string.Create(CultureInfo.InvariantCulture, $"Page cache: {cached / 1024:N0} MiB, {huge / 1024:N0} MiB of it in huge folios (FileHugePages); compare runs in the same state.");
    }

    private static long? KibOf(string line, string field) =>
        line.StartsWith(field, StringComparison.Ordinal)
            ? long.Parse(line.AsSpan(field.Length).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture)
            : null;
}
