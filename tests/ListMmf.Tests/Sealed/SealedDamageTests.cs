using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Numerics;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using ListMmf.Sealed;
using ListMmf.Tests.Python;
using ListMmf.Tests.Tool;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// No damaged byte of a sealed file is ever read back as a value: every byte of a small file of each codec is flipped
/// in turn (all its bits, then its lowest), and each read path (the indexer, <c>CopyTo</c>, the searches) either
/// refuses the file with <see cref="ListMmfException"/> or returns the values as sealed.
/// </summary>
public sealed class SealedDamageTests : IDisposable
{
    private const int Values = 2_500;

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string> Samples => new(SampleNames);

    private static string[] SampleNames => ["plain", "frame", "stepped", "elias-fano", "deltas", "patched", "dictionary", "ticks", "tick-deltas", "tick-dictionary", "decimals",
        "decimal-deltas", "decimal-dictionary"];

    [Fact]
    public void TheSamplesCoverEveryCodec()
    {
        SealedCodec[] codecs = SampleNames.SelectMany(name => SealedCodecs.Of(SealSample(name))).Distinct().Order().ToArray();

        Assert.Equal(Enum.GetValues<SealedCodec>().Order(), codecs);
    }

    [Theory]
    [MemberData(nameof(Samples))]
    public void EveryFlippedByteIsRefusedOrReadAsSealed(string sample)
    {
        string path = SealSample(sample);
        List<string> silent = sample switch
        {
            "plain" => Mutate(path, PairValues(), sorted: false),
            _ when HoldsLongs(sample) => Mutate(path, LongValues(sample), IsSorted(sample)),
            _ => Mutate(path, DoubleValues(sample), IsSorted(sample)),
        };

        Assert.True(silent.Count == 0, $"{silent.Count} damaged copies read wrong values silently, e.g. {string.Join("; ", silent.Take(3))}");
    }

    /// <summary>
    /// The Python reader over every flipped byte (^0xFF) of each sample of numbers, the header page's zero padding after
    /// the description (which no reader reads) left out: each copy refused with <c>ListMmfError</c> or read as sealed, by
    /// its numpy decoder where numpy imports, and by its standard-library decoder on every 16th copy.
    /// </summary>
    [PythonFact]
    public void ThePythonReaderRefusesEveryFlippedByteOrReadsTheSampleAsSealed() =>
        AssertPythonRefusesEveryFlippedByte(PythonProcess.FirstThatImports("numpy") ?? "python3", SampleNames.Where(sample => sample != "plain"));

    /// <summary>The same over the sample of structs, which the Python reader reads through numpy only.</summary>
    [PythonWithFact("numpy")]
    public void ThePythonReaderRefusesEveryFlippedByteOfAStructSampleOrReadsItAsSealed() =>
        AssertPythonRefusesEveryFlippedByte(PythonProcess.FirstThatImports("numpy")!, ["plain"]);

    private void AssertPythonRefusesEveryFlippedByte(string interpreter, IEnumerable<string> samples)
    {
        const string Mutator = """
            import hashlib, os, sys
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            path, expected, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
            original = open(path, "rb").read()
            padding = range(128 + int.from_bytes(original[48:52], "little"), int.from_bytes(original[20:24], "little"))
            decoders = ([("numpy", listmmf.np)] if listmmf.np is not None else []) + [("stdlib", None)]
            if hashlib.sha256(listmmf.open_items(path).tobytes()).hexdigest() != expected:
                sys.exit("the healthy sample reads other items than were sealed")
            checked = silent = 0
            for offset in range(len(original)):
                if offset in padding:
                    continue
                damaged = bytearray(original)
                damaged[offset] ^= 0xFF
                with open(scratch, "wb") as f:
                    f.write(damaged)
                for name, numpy in decoders:
                    if name == "stdlib" and offset % 16:
                        continue
                    listmmf.np = numpy
                    checked += 1
                    try:
                        items = listmmf.open_items(scratch)
                    except listmmf.ListMmfError:
                        continue
                    if hashlib.sha256(items.tobytes()).hexdigest() != expected:
                        silent += 1
                        print(f"silent: byte {offset} read wrong by the {name} decoder")
            print(f"checked {checked} silent {silent}")
            """;
        foreach (string sample in samples)
        {
            string path = SealSample(sample);
            byte[] sealedBytes = sample switch
            {
                "plain" => MemoryMarshal.AsBytes(PairValues().AsSpan()).ToArray(),
                _ when HoldsLongs(sample) => MemoryMarshal.AsBytes(LongValues(sample).AsSpan()).ToArray(),
                _ => MemoryMarshal.AsBytes(DoubleValues(sample).AsSpan()).ToArray(),
            };
            string expected = Convert.ToHexString(SHA256.HashData(sealedBytes)).ToLowerInvariant();

            (int exitCode, string output) = PythonProcess.Run(interpreter, ["-c", Mutator, path, expected, _directory.File(sample + ".damaged")]);

            Assert.True(exitCode == 0, output);
            Assert.Matches(@"checked [1-9]\d* silent 0", output);
        }
    }

    [Fact]
    public void TheToolRefusesToExportADamagedBlock()
    {
        string path = SealSample("deltas");
        FlipByteInFirstBlock(path);

        ToolResult result = ToolRunner.Run("export", "csv", path, "--out", _directory.File("out.csv"));

        Assert.NotEqual(0, result.ExitCode);
        Assert.Contains("checksum", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public void UnsealRefusesADamagedBlockAndLeavesTheFileSealed()
    {
        string path = SealSample("deltas");
        FlipByteInFirstBlock(path);
        byte[] before = File.ReadAllBytes(path);

        var exception = Assert.ThrowsAny<ListMmfException>(() => SealedListMmf.Unseal(path));

        Assert.Contains("checksum", exception.Message, StringComparison.Ordinal);

        Assert.Contains("block 0 ", exception.Message, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(path));
    }

    /// <summary>Flips a byte in block 0's payload, which starts on the first page after the header.</summary>
    internal static void FlipByteInFirstBlock(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        stream.Position = 4096 + 60;
        int value = stream.ReadByte();
        stream.Position--;
        stream.WriteByte((byte)(value ^ 0x10));
    }

    /// <summary>Flips every byte of the file in place, in turn, and returns what each damaged copy read wrong.</summary>
    private static List<string> Mutate<T>(string path, T[] expected, bool sorted)
        where T : unmanaged, IEquatable<T>
    {
        byte[] original = File.ReadAllBytes(path);
        var silent = new List<string>();
        var buffer = new T[expected.Length];
        using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite);
        foreach (byte mask in new byte[] { 0xFF, 0x01 })
        {
            for (int offset = 0; offset < original.Length; offset++)
            {
                RandomAccess.Write(file.SafeFileHandle, new[] { (byte)(original[offset] ^ mask) }, offset);
                if (ReadWrong(path, expected, buffer, sorted) is { } wrong)
                {
                    silent.Add($"byte {offset:N0} ^ 0x{mask:X2}: {wrong}");
                }

                RandomAccess.Write(file.SafeFileHandle, new[] { original[offset] }, offset);
            }
        }

        return silent;
    }

    /// <summary>What a reader of the file read wrong without an exception, or null.</summary>
    private static string? ReadWrong<T>(string path, T[] expected, T[] buffer, bool sorted)
        where T : unmanaged, IEquatable<T>
    {
        try
        {
            using var list = new SealedListMmf<T>(path);
            if (list.Count != expected.Length)
            {
                return $"count {list.Count:N0}";
            }

            list.CopyTo(0, buffer);
            if (!buffer.AsSpan().SequenceEqual(expected))
            {
                return $"CopyTo's value {buffer.AsSpan().CommonPrefixLength(expected):N0}";
            }

            // Each block's first and last values through the indexer, from a fresh open so that no block is checked yet.
            using var fresh = new SealedListMmf<T>(path);
            for (int index = Values - 1; index >= 0; index -= index % 1024 == 0 ? 1 : 1023)
            {
                if (!fresh[index].Equals(expected[index]))
                {
                    return $"indexer's value {index:N0}";
                }
            }

            return sorted ? SearchWrong(path, expected) : null;
        }
        catch (ListMmfException)
        {
            return null;
        }
    }

    private static string? SearchWrong<T>(string path, T[] expected)
        where T : unmanaged
    {
        using var list = new SealedListMmf<T>(path);
        foreach (int index in new[] { 0, 1_023, 1_024, 1_500, 2_048, Values - 1 })
        {
            long found = list switch
            {
                SealedListMmf<long> longs => longs.LowerBound((long)(object)expected[index]),
                SealedListMmf<double> doubles => doubles.LowerBound((double)(object)expected[index]),
                _ => throw new ArgumentException($"no search for {typeof(T).Name}"),
            };
            long first = Array.IndexOf(expected, expected[index]);
            if (found != first)
            {
                return $"LowerBound of value {index:N0}: {found:N0}, not {first:N0}";
            }
        }

        return null;
    }

    private string SealSample(string sample)
    {
        string path = _directory.File(sample + ".bin");
        switch (sample)
        {
            case "plain":
                Write(path, PairValues());
                break;
            case var _ when HoldsLongs(sample):
                Write(path, LongValues(sample));
                break;
            default:
                Write(path, DoubleValues(sample));
                break;
        }

        Assert.True(SealedListMmf.Seal(path));
        return path;
    }

    private static void Write<T>(string path, T[] values)
        where T : unmanaged
    {
        using var list = new ListMmf<T>(path);
        list.AddRange(values);
    }

    /// <summary>Ascending samples are searched; random walks take the delta codecs.</summary>
    private static bool HoldsLongs(string sample) => sample is "frame" or "stepped" or "elias-fano" or "deltas" or "patched" or "dictionary";

    private static bool IsSorted(string sample) => sample is "elias-fano" or "ticks" or "decimals";

    private static readonly int[] Codes = [1, 4, 17, 80, 1_000, 70_000];

    private static long[] LongValues(string sample)
    {
        var random = new Random(sample.Length);
        long walk = 1_000_000;
        return sample switch
        {
            // Ascending times a few ticks apart, in equal pairs, with no common step.
            "elias-fano" => Enumerable.Range(0, Values).Select(i => 638_000_000_000_000_000L + (i / 2 * 7L) + (i / 2 % 3 == 0 ? 1 : 0)).ToArray(),

            // Times a few ticks apart in an order of their own (a frame, as ascending ones would take Elias-Fano).
            "frame" => Enumerable.Range(0, Values).Select(i => 638_000_000_000_000_000L + (i * 389 % 1_024 * 7L) + (i % 3 == 0 ? 1 : 0)).ToArray(),

            // Times of whole milliseconds, as 100 ns ticks, in an order of their own.
            "stepped" => Enumerable.Range(0, Values).Select(i => 638_000_000_000_000_000L + (i * 389 % 1_024 * 10_000L)).ToArray(),
            "deltas" => Enumerable.Range(0, Values).Select(_ => walk += random.Next(-3, 4)).ToArray(),
            // Exchange or condition codes: a few distinct values far apart.
            "dictionary" => Enumerable.Range(0, Values).Select(_ => (long)Codes[random.Next(Codes.Length)]).ToArray(),

            // Small sizes with one in ten a hundred times larger.
            _ => Enumerable.Range(0, Values).Select(_ => random.Next(10) == 0 ? (long)random.Next(100, 1_000) : random.Next(1, 10)).ToArray(),
        };
    }

    private static double[] DoubleValues(string sample)
    {
        var random = new Random(sample.Length);
        int walk = 40_000;
        return sample switch
        {
            // Quarter points, then cents; ascending or a random walk.
            "ticks" => Enumerable.Range(0, Values).Select(i => 4_000 + (i / 3 * 0.25)).ToArray(),
            "tick-deltas" => Enumerable.Range(0, Values).Select(_ => (walk += random.Next(-3, 4)) * 0.25).ToArray(),
            "tick-dictionary" => Enumerable.Range(0, Values).Select(_ => 4_000 + (random.Next(6) * 12.75)).ToArray(),
            "decimals" => Enumerable.Range(0, Values).Select(i => Math.Round(150 + (i / 3 / 100.0), 2)).ToArray(),

            // A quote's side: a few prices, and 0 where the update was of the other side.
            "decimal-dictionary" => Enumerable.Range(0, Values).Select(_ => random.Next(4) == 0 ? 0 : Math.Round(150 + (random.Next(5) / 100.0), 2))
                .ToArray(),
            _ => Enumerable.Range(0, Values).Select(_ => Math.Round((walk += random.Next(-3, 4)) / 100.0, 2)).ToArray(),
        };
    }

    private static Pair[] PairValues() => Enumerable.Range(0, Values).Select(i => new Pair(i, ~(long)i * 31)).ToArray();

    /// <summary>A struct, which the seal stores plain.</summary>
    private readonly record struct Pair(long First, long Second);
}
