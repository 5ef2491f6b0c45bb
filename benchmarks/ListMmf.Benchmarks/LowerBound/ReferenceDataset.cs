using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using CommunityToolkit.HighPerformance.Buffers;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Data;
using ListMmf.Hashing;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>
/// The LowerBound benchmarks' data: a deterministic file of MES-futures-like tick timestamps (Int32 Unix seconds,
/// ascending or equal, code 13) in the library's format, of the seed study's shape: 776 million ticks, about nine
/// years of sessions from 2015-01-02. Generated on first use into the cache directory and reused after; its XXH3
/// over the header and the items (not the spare capacity) proves two machines measured the same bytes.
/// </summary>
internal static class ReferenceDataset
{
    /// <summary>The seed study's file: 776 million timestamps.</summary>
    public const long ReferenceElements = 776_000_000;

    private const ulong Seed = 776;
    private const int ChunkItems = 1 << 20;
    private static readonly DateOnly FirstTradeDate = new(2015, 1, 2);

    /// <summary>XXH3 of the header and items for the sizes whose hash is known; others print theirs to compare by hand.</summary>
    private static readonly Dictionary<long, ulong> KnownHashes = new()
    {
        [1_000_000] = 0x0a220c0c5c48b28dUL,
        [50_000_000] = 0xb2c786400a005817UL,
        [ReferenceElements] = 0x2ffe1811e3bfde54UL,
    };

    /// <summary>
    /// The cache directory: <c>LISTMMF_DATA_DIR</c> if set, else <c>$XDG_CACHE_HOME/listmmf</c> or
    /// <c>~/.cache/listmmf</c> on Linux and macOS, <c>%LOCALAPPDATA%\ListMmf</c> on Windows.
    /// </summary>
    public static string CacheDirectory
    {
        get
        {
            string? configured = Environment.GetEnvironmentVariable("LISTMMF_DATA_DIR");
            if (!string.IsNullOrEmpty(configured))
            {
                return configured;
            }

            if (OperatingSystem.IsWindows())
            {
                return Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData), "ListMmf");
            }

            string? xdg = Environment.GetEnvironmentVariable("XDG_CACHE_HOME");
            return Path.Combine(string.IsNullOrEmpty(xdg) ? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache") : xdg, "listmmf");
        }
    }

    public static string PathFor(long elements) =>
        Path.Combine(CacheDirectory, $"mes-timestamps-{elements.ToString(CultureInfo.InvariantCulture)}.bt");

    /// <summary>The sealed copy of the dataset of <paramref name="elements"/> ticks (<see cref="EnsureSealed"/>).</summary>
    public static string SealedPathFor(long elements) => Path.ChangeExtension(PathFor(elements), ".sealed");

    /// <summary>
    /// Makes sure the sealed copy of the dataset at <paramref name="path"/> exists: copied under a temporary name,
    /// sealed there (<see cref="SealedListMmf.Seal"/>), then renamed, so that a copy cut short is never taken for it.
    /// Reports the sealed bytes against the raw ones to <paramref name="log"/>; returns the copy's path.
    /// </summary>
    public static string EnsureSealed(string path, long elements, TextWriter log)
    {
        string sealedPath = SealedPathFor(elements);
        if (File.Exists(sealedPath) && CountOfSealed(sealedPath) != elements)
        {
            log.WriteLine($"{sealedPath} does not hold {elements:N0} timestamps: sealing a new copy");
            File.Delete(sealedPath);
        }

        if (!File.Exists(sealedPath))
        {
            string partial = sealedPath + ".partial";
            BenchmarkFiles.Delete(partial);
            try
            {
                log.WriteLine($"sealing a copy of {path} into {sealedPath}");
                File.Copy(path, partial);
                SealedListMmf.Seal(partial);
                File.Move(partial, sealedPath, overwrite: false);
            }
            finally
            {
                BenchmarkFiles.Delete(partial);
            }
        }

        long sealedBytes = new FileInfo(sealedPath).Length;
        log.WriteLine($"sealed copy: {sealedBytes:N0} bytes for {elements:N0} timestamps ({(double)sealedBytes / elements:N3} bytes a value; " +
            $"the items take {elements * sizeof(int):N0} raw, {(double)elements * sizeof(int) / sealedBytes:N2}x)");
        return sealedPath;
    }

    /// <summary>The count of a sealed file, read through its mapping as its searches read it (see <see cref="SealedListMmf.IsSealed"/>).</summary>
    private static long CountOfSealed(string path)
    {
        using var list = new SealedListMmf<int>(path);
        return list.Count;
    }

    /// <summary>The bytes the hash covers: the header and the items.</summary>
    public static long DataBytes(long elements) => ListMmfHeader.Version1Size + (elements * sizeof(int));

    /// <summary>
    /// Makes sure the dataset of <paramref name="elements"/> ticks exists and is intact: generates it if missing,
    /// otherwise checks its header and hash; and that its sealed copy exists. Reports to <paramref name="log"/>;
    /// returns the dataset's path.
    /// </summary>
    /// <exception cref="DatasetException">The file is damaged, its hash is wrong, or the disk is too small.</exception>
    public static string Ensure(long elements, TextWriter log)
    {
        string path = PathFor(elements);
        if (!File.Exists(path))
        {
            Generate(path, elements, log);
        }

        CheckHeader(path, elements);
        ulong hash = Hash(path, elements);
        log.WriteLine($"dataset: {path}, {elements:N0} ticks, {DataBytes(elements):N0} bytes, XXH3 {hash:x16}{HashVerdict(elements, hash)}");
        if (KnownHashes.TryGetValue(elements, out ulong expected) && expected != hash)
        {
            throw new DatasetException($"dataset {path} has XXH3 {hash:x16}, expected {expected:x16}: it is damaged or from another generator version; delete it to regenerate.");
        }

        EnsureSealed(path, elements, log);
        return path;
    }

    /// <summary>The first <paramref name="elements"/> ticks of the reference sessions, in order.</summary>
    public static void Fill(long elements, Action<ReadOnlySpan<int>> write)
    {
        using MemoryOwner<int> chunk = MemoryOwner<int>.Allocate(ChunkItems);
        Memory<int> buffer = chunk.Memory;
        int used = 0;
        long remaining = elements;
        var generator = new TickTimestampGenerator(Seed);
        for (DateOnly date = FirstTradeDate; remaining > 0; date = date.AddDays(1))
        {
            if (!TickTimestampGenerator.IsTradeDate(date))
            {
                continue;
            }

            generator.GenerateSession(date, (second, ticks) =>
            {
                Span<int> items = buffer.Span;
                for (int i = 0; i < ticks && remaining > 0; i++, remaining--)
                {
                    items[used++] = second;
                    if (used == items.Length)
                    {
                        write(items);
                        used = 0;
                    }
                }
            });
        }

        write(buffer.Span[..used]);
    }

    private static void Generate(string path, long elements, TextWriter log)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        long needed = DataBytes(elements) + (64 << 20);
        long available = FreeSpaceAt(Path.GetFullPath(path));
        if (available < needed)
        {
            throw new DatasetException($"not enough disk space for the dataset at {path}: it needs {needed:N0} bytes, {available:N0} are free (set LISTMMF_DATA_DIR to put it elsewhere).");
        }

        string partial = path + ".partial";
        BenchmarkFiles.Delete(partial);
        var progress = new ProgressBar(log, $"generating {elements:N0} ticks", elements);
        try
        {
            // Version 1's layout, as the seed's file has it: the known hashes cover its 16-byte header.
            var options = new ListMmfOptions { FormatVersion = ListMmfFormatVersion.Version1 };
            using (var list = new ListMmf<int>(partial, FileAccess.ReadWrite, options, DataType.UnixSeconds, requireDataType: true, description: null))
            {
                list.EnsureCapacity(elements);
                Fill(elements, items =>
                {
                    list.AddRange(items);
                    progress.Report(list.Count);
                });
            }

            File.Move(partial, path, overwrite: false);
            progress.Done();
        }
        finally
        {
            BenchmarkFiles.Delete(partial);
        }
    }

    /// <summary>Free bytes on the volume holding <paramref name="path"/>: the drive whose root is its longest prefix.</summary>
    private static long FreeSpaceAt(string path) => DriveInfo.GetDrives()
        .Where(drive => drive.IsReady && path.StartsWith(drive.RootDirectory.FullName, OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal))
        .MaxBy(drive => drive.RootDirectory.FullName.Length)?.AvailableFreeSpace ?? long.MaxValue;

    private static void CheckHeader(string path, long elements)
    {
        try
        {
            using var list = new ListMmf<int>(path, FileAccess.Read);
            if (list.DataType != DataType.UnixSeconds || list.Count != elements)
            {
                throw new DatasetException($"dataset {path} holds {list.Count:N0} {list.DataType} items, expected {elements:N0} UnixSeconds; delete it to regenerate.");
            }
        }
        catch (ListMmfException exception)
        {
            throw new DatasetException($"dataset {path} is damaged ({exception.Message}); delete it to regenerate.");
        }
    }

    private static unsafe ulong Hash(string path, long elements)
    {
        using var list = new ListMmf<int>(path, FileAccess.Read);
        return MappedXxHash3.Hash(list.FileStart, DataBytes(elements));
    }

    private static string HashVerdict(long elements, ulong hash) =>
        KnownHashes.TryGetValue(elements, out ulong expected)
            ? expected == hash ? " (matches the expected hash)" : " (WRONG)"
            : " (no expected hash recorded for this size: compare it across machines)";
}
