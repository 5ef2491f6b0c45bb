using System;
using System.Globalization;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// The files in data-samples are exactly the bytes their manifest lists (the manifest is in <c>xxhsum -H3</c>'s
/// format, so <c>xxhsum -c</c> checks it too), and the timestamp sample is a valid, sorted UnixSeconds list.
/// </summary>
public sealed class DataSampleTests
{
    private static readonly string Directory = RepositoryFiles.Path("data-samples");

    public static TheoryData<string, ulong> ManifestEntries()
    {
        var data = new TheoryData<string, ulong>();
        foreach (string line in File.ReadLines(Path.Combine(Directory, "checksums.xxh3")).Where(l => l.Length > 0))
        {
            // "XXH3 (name) = 0123456789abcdef"
            int open = line.IndexOf('(', StringComparison.Ordinal);
            int close = line.LastIndexOf(')');
            string name = line[(open + 1)..close];
            ulong hash = ulong.Parse(line[(line.LastIndexOf(' ') + 1)..], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            data.Add(name, hash);
        }

        return data;
    }

    [Theory, MemberData(nameof(ManifestEntries))]
    public void SampleFileMatchesItsManifestChecksum(string name, ulong expected) =>
        Assert.Equal(expected.ToString("x16", CultureInfo.InvariantCulture), System.IO.Hashing.XxHash3.HashToUInt64(File.ReadAllBytes(Path.Combine(Directory, name))).ToString("x16", CultureInfo.InvariantCulture));

    [Fact]
    public void ManifestListsEverySampleFile()
    {
        string[] listed = ManifestEntries().Select(row => (string)row[0]).Order(StringComparer.Ordinal).ToArray();
        string[] present = System.IO.Directory.GetFiles(Directory, "*.bt").Select(Path.GetFileName).Order(StringComparer.Ordinal).ToArray()!;
        Assert.NotEmpty(present);
        Assert.Equal(present, listed);
    }

    [Fact]
    public void TimestampSampleIsAnAscendingOrEqualUnixSecondsList()
    {
        using var list = new ListMmf<int>(Path.Combine(Directory, "MES-2024-03-12-timestamps.bt"), FileAccess.Read);
        Assert.Equal(DataType.UnixSeconds, list.DataType);
        Assert.True(list.Count > 100_000, $"only {list.Count} ticks");
        int previous = int.MinValue;
        foreach (int seconds in list)
        {
            Assert.True(seconds >= previous, $"{seconds} follows {previous}");
            previous = seconds;
        }

        DateTime first = DateTime.UnixEpoch.AddSeconds(list[0]);
        DateTime last = DateTime.UnixEpoch.AddSeconds(list[list.Count - 1]);
        Assert.True(first >= new DateTime(2024, 3, 11, 23, 0, 0, DateTimeKind.Utc), $"first tick {first:O}");
        Assert.True(last < new DateTime(2024, 3, 12, 22, 0, 0, DateTimeKind.Utc), $"last tick {last:O}");
    }
}
