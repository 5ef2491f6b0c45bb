using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Hashing;
using System.Linq;
using ListMmf.Storage;

namespace ListMmf.Benchmarks.Data;

/// <summary>
/// <c>sample DIRECTORY</c>: writes the files of <c>data-samples/</c> and their checksum manifest, in
/// <c>xxhsum -H3</c>'s format so that <c>xxhsum -c checksums.xxh3</c> verifies them as well as the tests do.
/// </summary>
internal static class SampleCommand
{
    public const string TimestampsFile = "MES-2024-03-12-timestamps.bt";
    private const ulong Seed = 20240312;

    public static int Run(string directory)
    {
        Directory.CreateDirectory(directory);
        string path = Path.Combine(directory, TimestampsFile);
        File.Delete(path);
        using (var list = new ListMmf<int>(path, FileAccess.ReadWrite, null, DataType.UnixSeconds, requireDataType: true, description: null))
        {
            new TickTimestampGenerator(Seed).GenerateSession(new DateOnly(2024, 3, 12), (second, ticks) =>
            {
                for (int i = 0; i < ticks; i++)
                {
                    list.Add(second);
                }
            });
            Console.WriteLine($"{TimestampsFile}: {list.Count:N0} ticks");
        }

        // The writer's lock sidecar does not belong in the samples.
        File.Delete(WriterLock.PathFor(path));
        IEnumerable<string> lines = Directory.GetFiles(directory, "*.bt").Order(StringComparer.Ordinal)
            .Select(file => $"XXH3 ({Path.GetFileName(file)}) = {XxHash3.HashToUInt64(File.ReadAllBytes(file)):x16}");
        File.WriteAllLines(Path.Combine(directory, "checksums.xxh3"), lines);
        return 0;
    }
}
