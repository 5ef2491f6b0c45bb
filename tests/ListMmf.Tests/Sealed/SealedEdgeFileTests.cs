using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text.Json;
using ListMmf.Sealed;
using ListMmf.Tests.Python;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// Hand-built sealed files, every checksum right, at each point docs/file-format.md settles ("What a reader checks"):
/// the .NET reader, its <c>Verify</c> and the Python reader (both of its decoders) refuse exactly the files the spec
/// says are damaged, and read the others to the same bytes.
/// </summary>
public sealed class SealedEdgeFileTests : IDisposable
{
    private const string PythonReader = """
        import hashlib, json, os, sys
        sys.path.insert(0, os.path.join("src", "python"))
        import listmmf
        decoders = [("stdlib", None)] + ([("numpy", listmmf.np)] if listmmf.np is not None else [])
        for name in sorted(os.listdir(sys.argv[1])):
            for decoder, np in decoders:
                listmmf.np = np
                try:
                    items = listmmf.open_items(os.path.join(sys.argv[1], name))
                    print(json.dumps({"file": name, "decoder": decoder, "items": hashlib.sha256(items.tobytes()).hexdigest()}))
                except listmmf.ListMmfError as error:
                    print(json.dumps({"file": name, "decoder": decoder, "refused": str(error)}))
        """;

    private readonly TempDirectory _directory = new();
    private readonly string _cases;
    private readonly Dictionary<string, EdgeCase> _built = [];

    public SealedEdgeFileTests() => _cases = Directory.CreateDirectory(_directory.File("cases")).FullName;

    public void Dispose() => _directory.Dispose();

    [PythonFact]
    public void BothReadersRefuseExactlyTheFilesTheSpecCallsDamagedAndReadTheOthersAlike()
    {
        BuildEveryCase();
        string interpreter = PythonProcess.FirstThatImports("numpy") ?? "python3";

        (int exitCode, string output) = PythonProcess.Run(interpreter, ["-c", PythonReader, _cases]);

        Assert.True(exitCode == 0, output);
        // The reader's lines are JSON; anything else Python printed (a warning) is only shown where the test fails.
        Dictionary<string, List<JsonElement>> python = output.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Where(line => line.StartsWith('{'))
            .Select(line => JsonDocument.Parse(line).RootElement)
            .GroupBy(line => line.GetProperty("file").GetString()!)
            .ToDictionary(group => group.Key, group => group.ToList());
        var disagreements = new List<string>();
        foreach ((string name, EdgeCase edge) in _built)
        {
            string path = Path.Combine(_cases, name);
            string? dotNet = ReadWithDotNet(path, out byte[]? items);
            string? verify = VerifyWithDotNet(path);
            string expectedHash = edge.Items is null ? "" : Convert.ToHexString(SHA256.HashData(edge.Items)).ToLowerInvariant();
            if ((dotNet is null) != edge.Readable || (verify is null) != edge.Readable)
            {
                disagreements.Add($"{name}: .NET read {dotNet ?? "it"}, verify {verify ?? "passed"}; the spec says " +
                    (edge.Readable ? "it is readable" : "it is damaged"));
            }

            if (items is not null && edge.Items is not null && !items.AsSpan().SequenceEqual(edge.Items))
            {
                disagreements.Add($"{name}: .NET read other items than were sealed");
            }

            foreach (JsonElement line in python.GetValueOrDefault(name) ?? throw new InvalidOperationException($"Python printed nothing for {name}."))
            {
                string decoder = line.GetProperty("decoder").GetString()!;
                bool refused = line.TryGetProperty("refused", out JsonElement message);
                if (refused == edge.Readable || (!refused && edge.Items is not null && line.GetProperty("items").GetString() != expectedHash))
                {
                    disagreements.Add($"{name}: Python ({decoder}) {(refused ? message.GetString() : "read it")}; the spec says " +
                        (edge.Readable ? "it is readable as sealed" : "it is damaged"));
                }
            }
        }

        Assert.True(disagreements.Count == 0, string.Join(Environment.NewLine, disagreements) + Environment.NewLine +
            string.Join(Environment.NewLine, output.Split('\n').Where(line => !line.StartsWith('{'))));
    }

    [Fact]
    public void TheEdgeFilesCoverEveryCodec()
    {
        BuildEveryCase();

        Assert.Equal(Enum.GetValues<SealedCodec>().Order(), _built.Values.Select(edge => (SealedCodec)edge.Codec).Distinct().Order());
    }

    [Theory]
    [InlineData(1, 5_000, 4_000)]
    [InlineData(0, 100, 50)]
    public void ASearchWhoseAnswerRestsOnABlocksDirectoryItemChecksThatBlock(int block, int directoryItem, int key)
    {
        // 5, 8, 11, ...: block 1 starts at 3,077. With block 1's item said to be 5,000, a search for 4,000 ends past
        // block 0; with block 0's said to be 100, a search for 50 ends before it. Either answer rests on the edited item.
        string path = _directory.File("searched.sealed");
        using (var list = new ListMmf<int>(path))
        {
            list.AddRange(Enumerable.Range(0, 2_048).Select(i => (i * 3) + 5).ToArray());
        }

        SealedListMmf.Seal(path);
        var file = new SealedFileBytes(path);
        BitConverter.TryWriteBytes(file.DirectoryItem(block), directoryItem);
        file.Save(path);
        using var sealedList = new SealedListMmf<int>(path);

        var refused = Assert.Throws<ListMmfFormatException>(() => sealedList.LowerBound(key));

        Assert.Contains($"block {block:N0} of 2", refused.Message, StringComparison.Ordinal);
        Assert.Contains("the directory's first item for it is not the block's first item", refused.Message, StringComparison.Ordinal);
    }

    private void BuildEveryCase()
    {
        // Ascending blocks take Elias-Fano wherever it is shorter: a frame's and a stepped frame's values come in an
        // order of their own (a permutation, whose deltas are wide).
        int[] frame = Enumerable.Range(0, 2_048).Select(i => (Scattered(i) * 3) + 5 + (i % 3 == 1 ? 1 : 0)).ToArray();
        long[] milliseconds = Enumerable.Range(0, 2_048).Select(i => 638_000_000_000_000_000L + (Scattered(i) * 10_000L)).ToArray();
        long[] times = Enumerable.Range(0, 2_048).Select(i => 638_000_000_000_000_000L + (i * 10_000L) + (i / 7 * 13_000L)).ToArray();
        int[] walk = Walk(2_048);
        int[] sizes = Enumerable.Range(0, 1_024).Select(i => i % 50 == 7 ? 1_000_000 + i : (i % 9) + 1).ToArray();
        double[] quarters = Enumerable.Range(0, 1_024).Select(i => i * 0.25).ToArray();
        double[] cents = Enumerable.Range(0, 1_024).Select(i => (10_000 + (i * 7)) / 100.0).ToArray();
        double[] centWalk = walk.Take(1_024).Select(v => (v + 100_000) / 100.0).ToArray();
        double[] quarterWalk = walk.Take(1_024).Select(v => v * 0.25).ToArray();
        int[] codes = Enumerable.Range(0, 1_024).Select(i => Codes[(i * 7 % 11) % Codes.Length]).ToArray();

        // Files as the library writes them, at the edges of what the rules allow.
        Accept("int32-at-its-top", Enumerable.Range(0, 1_024).Select(i => int.MaxValue - 1_023 + Scattered(i)).ToArray(), SealedCodec.FrameOfReference);
        Accept("uint64-at-its-top", Enumerable.Range(0, 1_024).Select(i => ulong.MaxValue - 1_023 + (ulong)Scattered(i)).ToArray(),
            SealedCodec.FrameOfReference);
        Accept("int64-elias-fano-times", times, SealedCodec.EliasFano);
        Accept("int32-elias-fano-at-its-top", Enumerable.Range(0, 1_024).Select(i => int.MaxValue - 1_023 + i).ToArray(), SealedCodec.EliasFano);
        Accept("uint64-elias-fano-to-the-top", Enumerable.Range(0, 1_024).Select(i => i == 1_023 ? ulong.MaxValue : (ulong)i << 53).ToArray(),
            SealedCodec.EliasFano);
        Accept("int32-deltas", walk, SealedCodec.DeltaFrameOfReference);
        Accept("int64-milliseconds-stepped", milliseconds, SealedCodec.SteppedFrameOfReference);
        Accept("int32-stepped-at-its-top", Enumerable.Range(0, 1_024).Select(i => int.MaxValue - (1_023 * 1_000) + (Scattered(i) * 1_000)).ToArray(),
            SealedCodec.SteppedFrameOfReference);
        Accept("patched-sizes", sizes, SealedCodec.PatchedFrameOfReference);
        Accept("double-ticks", quarters, SealedCodec.Ticks);
        Accept("double-tick-deltas", quarterWalk, SealedCodec.TickDeltas);
        Accept("double-decimals", cents, SealedCodec.Decimals);
        Accept("double-decimal-deltas", centWalk, SealedCodec.DecimalDeltas);
        Accept("int32-dictionary", codes, SealedCodec.IntegerDictionary);
        Accept("uint64-dictionary-at-its-top", codes.Select(code => ulong.MaxValue - (ulong)code).ToArray(), SealedCodec.IntegerDictionary);
        Accept("double-tick-dictionary", codes.Select(code => code * 0.25).ToArray(), SealedCodec.TickDictionary);
        Accept("double-decimal-dictionary", codes.Select(code => code % 2 == 0 ? 0 : (10_000 + code) / 100.0).ToArray(),
            SealedCodec.DecimalDictionary);
        Accept("double-subnormal-ticks", Enumerable.Range(0, 1_024).Select(i => i * double.Epsilon).ToArray(), SealedCodec.Ticks);
        Accept("single-decimals-of-ten-places", Enumerable.Range(1, 1_024).Select(i => i / 1e10f).ToArray(), SealedCodec.Decimals);
        Accept("double-zeros-and-nans", Enumerable.Range(0, 1_024).Select(i => (i % 3) switch { 0 => -0.0, 1 => double.NaN, _ => 0.0 }).ToArray(),
            SealedCodec.Plain);

        // Integer deltas are taken modulo 2^64 and kept to the item's low bytes: a step 2^32 larger gives the same Int32s.
        Edit("int32-deltas-that-wrap-to-the-same-items", walk, SealedCodec.DeltaFrameOfReference, readable: true, (file, b) =>
            file.SetInt64(file.BlockField(b, 8), file.Int64At(file.BlockField(b, 8)) + (1L << 32)));

        // One rule broken a file.
        Edit("header-state-2", frame, SealedCodec.FrameOfReference, readable: false, (file, _) => file.SetInt32(16, 2));
        Edit("header-durable-count-not-the-count", frame, SealedCodec.FrameOfReference, readable: false, (file, _) => file.SetInt64(24, 2_047));
        Edit("header-raw-bytes-not-count-times-size", frame, SealedCodec.FrameOfReference, readable: false, (file, _) => file.SetInt64(104, 4));
        Edit("header-zero-field-not-zero", frame, SealedCodec.FrameOfReference, readable: false, (file, _) => file.SetByte(120, 1));
        Edit("header-blocks-offset-field-wrong", frame, SealedCodec.FrameOfReference, readable: false, (file, _) => file.SetInt32(20, 8_192));
        Edit("block-reserved-bytes-not-zero", frame, SealedCodec.FrameOfReference, readable: false, (file, b) => file.SetByte(file.BlockField(b, 36), 1));
        Edit("block-payload-longer-than-its-values", frame, SealedCodec.FrameOfReference, readable: false, (file, b) =>
            file.SetInt32(file.BlockField(b, 4), file.Int32At(file.BlockField(b, 4)) + 8));
        Edit("directory-first-item-not-the-blocks", frame, SealedCodec.FrameOfReference, readable: false, (file, _) => file.DirectoryItem(1)[0]++);
        Edit("frame-first-field-not-its-first-value", frame, SealedCodec.FrameOfReference, readable: false, (file, b) =>
            file.SetInt64(file.BlockField(b, 16), file.Int64At(file.BlockField(b, 16)) + 1));
        Edit("int32-frame-base-beyond-int32", frame, SealedCodec.FrameOfReference, readable: false, (file, b) =>
        {
            file.SetInt64(file.BlockField(b, 8), file.Int64At(file.BlockField(b, 8)) + (1L << 32));
            file.SetInt64(file.BlockField(b, 16), file.Int64At(file.BlockField(b, 16)) + (1L << 32));
        });
        Edit("uint64-frame-that-wraps-past-2^64", Enumerable.Range(0, 1_024).Select(i => ((ulong)Scattered(i) * 1_000) + (i % 3 == 1 ? 1UL : 0)).ToArray(),
            SealedCodec.FrameOfReference,
            readable: false, (file, b) =>
            {
                file.SetInt64(file.BlockField(b, 8), -100);
                file.SetInt64(file.BlockField(b, 16), -100);
                BitConverter.TryWriteBytes(file.DirectoryItem(b), -100L);
            });
        Edit("delta-first-offset-not-zero", walk, SealedCodec.DeltaFrameOfReference, readable: false, (file, b) => file.Payload(b)[0] |= 1);
        Edit("integer-block-with-a-step", frame, SealedCodec.FrameOfReference, readable: false, (file, b) => file.SetDouble(file.BlockField(b, 24), 1.0));
        Edit("patched-block-without-patches", sizes, SealedCodec.PatchedFrameOfReference, readable: false, (file, b) =>
            file.SetInt64(file.BlockField(b, 16), file.Int64At(file.BlockField(b, 16)) & ~0xFFFFL));
        Edit("patched-patch-width-beyond-56-bits", sizes, SealedCodec.PatchedFrameOfReference, readable: false, (file, b) =>
            file.SetByte(file.BlockField(b, 18), 60));
        Edit("patched-positions-repeated", sizes, SealedCodec.PatchedFrameOfReference, readable: false, (file, b) =>
        {
            // The positions are packed at 10 bits: the second is given the first's.
            Span<byte> positions = file.Payload(b)[SecondPartOffset(file, b)..];
            ulong packed = BinaryPrimitives.ReadUInt64LittleEndian(positions);
            packed = (packed & ~(0x3FFUL << 10)) | ((packed & 0x3FF) << 10);
            BinaryPrimitives.WriteUInt64LittleEndian(positions, packed);
        });
        Edit("dictionary-index-past-its-entries", codes, SealedCodec.IntegerDictionary, readable: false, (file, b) =>
            SetPacked(file.Payload(b), file.ByteAt(file.BlockField(b, 1)), 1, (1UL << file.ByteAt(file.BlockField(b, 1))) - 1));
        Edit("dictionary-first-entry-not-its-base", codes, SealedCodec.IntegerDictionary, readable: false, (file, b) =>
            SetPacked(file.Payload(b)[SecondPartOffset(file, b)..], file.ByteAt(file.BlockField(b, 18)), 0, 1));
        Edit("dictionary-entry-repeated", codes, SealedCodec.IntegerDictionary, readable: false, (file, b) =>
            SetPacked(file.Payload(b)[SecondPartOffset(file, b)..], file.ByteAt(file.BlockField(b, 18)), 2,
                GetPacked(file.Payload(b)[SecondPartOffset(file, b)..], file.ByteAt(file.BlockField(b, 18)), 1)));
        Edit("dictionary-header-bytes-19-23-not-zero", codes, SealedCodec.IntegerDictionary, readable: false, (file, b) =>
            file.SetByte(file.BlockField(b, 19), 1));
        Edit("int32-dictionary-entries-beyond-int32", codes, SealedCodec.IntegerDictionary, readable: false, (file, b) =>
            file.SetInt64(file.BlockField(b, 8), int.MaxValue - 10));
        Edit("stepped-step-one", milliseconds, SealedCodec.SteppedFrameOfReference, readable: false, (file, b) =>
            file.SetInt64(file.BlockField(b, 24), 1));
        Edit("stepped-first-field-not-its-first-value", milliseconds, SealedCodec.SteppedFrameOfReference, readable: false, (file, b) =>
            file.SetInt64(file.BlockField(b, 16), file.Int64At(file.BlockField(b, 16)) + 1));
        Edit("int64-stepped-that-wraps-past-2^64", milliseconds, SealedCodec.SteppedFrameOfReference, readable: false, (file, b) =>
        {
            file.SetInt64(file.BlockField(b, 8), long.MinValue);
            file.SetInt64(file.BlockField(b, 16), long.MinValue);
            file.SetInt64(file.BlockField(b, 24), 1L << 62);
            BitConverter.TryWriteBytes(file.DirectoryItem(b), long.MinValue);
        });
        Edit("int32-stepped-beyond-int32", Enumerable.Range(0, 1_024).Select(i => int.MaxValue - (1_023 * 1_000) + (Scattered(i) * 1_000)).ToArray(),
            SealedCodec.SteppedFrameOfReference, readable: false, (file, b) => file.SetInt64(file.BlockField(b, 24), 1_001));
        Edit("elias-fano-step-zero", times, SealedCodec.EliasFano, readable: false, (file, b) => file.SetInt64(file.BlockField(b, 24), 0));
        Edit("elias-fano-header-bytes-20-23-not-zero", times, SealedCodec.EliasFano, readable: false, (file, b) =>
            file.SetByte(file.BlockField(b, 20), 1));
        Edit("elias-fano-sample-not-its-values-bit", times, SealedCodec.EliasFano, readable: false, (file, b) =>
            file.Payload(b)[EliasFanoSamplesOffset(file, b)]++);
        Edit("elias-fano-first-value-above-its-base", times, SealedCodec.EliasFano, readable: false, (file, b) =>
            SetPacked(file.Payload(b), file.ByteAt(file.BlockField(b, 1)), 0, 1));
        Edit("elias-fano-a-set-bit-cleared", times, SealedCodec.EliasFano, readable: false, (file, b) =>
            file.Payload(b)[SecondPartOffset(file, b) + 40] = 0);
        Edit("int32-elias-fano-beyond-int32", Enumerable.Range(0, 1_024).Select(i => int.MaxValue - 1_023 + i).ToArray(), SealedCodec.EliasFano,
            readable: false, (file, b) => file.SetInt64(file.BlockField(b, 24), 2));
        Edit("frame-codec-on-doubles", quarters, SealedCodec.Ticks, readable: false, (file, b) =>
        {
            file.SetByte(file.BlockField(b, 0), (byte)SealedCodec.FrameOfReference);
            file.SetDouble(file.BlockField(b, 24), 0);
        });
        Edit("tick-step-not-a-power-of-two", quarters, SealedCodec.Ticks, readable: false, (file, b) => file.SetDouble(file.BlockField(b, 24), 0.3));
        Edit("tick-products-beyond-a-double", quarters, SealedCodec.Ticks, readable: false, (file, b) =>
            file.SetDouble(file.BlockField(b, 24), Math.ScaleB(1.0, 1_020)));
        Edit("tick-integers-beyond-2^53", quarters, SealedCodec.Ticks, readable: false, (file, b) =>
        {
            file.SetInt64(file.BlockField(b, 8), 1L << 60);
            file.SetInt64(file.BlockField(b, 16), 1L << 60);
        });
        Edit("single-tick-step-below-binary32", quarters.Select(v => (float)v).ToArray(), SealedCodec.Ticks, readable: false, (file, b) =>
            file.SetDouble(file.BlockField(b, 24), Math.ScaleB(1.0, -150)));
        Edit("single-decimal-step-10^11", cents.Select(v => (float)v).ToArray(), SealedCodec.Decimals, readable: false, (file, b) =>
            file.SetDouble(file.BlockField(b, 24), 1e11));
        Edit("decimal-step-zero", cents, SealedCodec.Decimals, readable: false, (file, b) => file.SetDouble(file.BlockField(b, 24), 0));
        Edit("plain-block-with-a-base", Enumerable.Range(0, 1_024).Select(i => (i % 3) switch { 0 => -0.0, 1 => double.NaN, _ => 0.0 }).ToArray(),
            SealedCodec.Plain, readable: false, (file, b) => file.SetInt64(file.BlockField(b, 8), 5));
    }

    /// <summary>
    /// Where a patched block's positions, a dictionary's entries or an Elias-Fano block's bitmap start in its payload:
    /// after its 1,024 packed values, with their padding.
    /// </summary>
    private static int SecondPartOffset(SealedFileBytes file, int block)
    {
        int width = file.ByteAt(file.BlockField(block, 1));
        return (int)((((1_024L * width) + 63) / 64 * 8) + 8);
    }

    /// <summary>Where an Elias-Fano block's samples start in its payload: after its low bits and its bitmap's words.</summary>
    private static int EliasFanoSamplesOffset(SealedFileBytes file, int block) =>
        SecondPartOffset(file, block) + ((file.Int32At(file.BlockField(block, 16)) + 63) / 64 * 8);

    private static ulong GetPacked(Span<byte> packed, int width, int index)
    {
        int bit = index * width;
        return (BinaryPrimitives.ReadUInt64LittleEndian(packed[(bit / 8)..]) >> (bit % 8)) & ((1UL << width) - 1);
    }

    private static void SetPacked(Span<byte> packed, int width, int index, ulong value)
    {
        int bit = index * width;
        ulong word = BinaryPrimitives.ReadUInt64LittleEndian(packed[(bit / 8)..]) & ~(((1UL << width) - 1) << (bit % 8));
        BinaryPrimitives.WriteUInt64LittleEndian(packed[(bit / 8)..], word | (value << (bit % 8)));
    }

    /// <summary>Exchange or condition codes: a few distinct values far apart.</summary>
    private static readonly int[] Codes = [3, 40, 41, 900, 70_000];

    private void Accept<T>(string name, T[] values, SealedCodec codec)
        where T : unmanaged => Edit(name, values, codec, readable: true, edit: null);

    /// <summary>
    /// Seals <paramref name="values"/>, whose block 0 must take <paramref name="codec"/>, and writes the case
    /// <paramref name="name"/> with <paramref name="edit"/> applied to that block (or the file) and every checksum right.
    /// </summary>
    private void Edit<T>(string name, T[] values, SealedCodec codec, bool readable, Action<SealedFileBytes, int>? edit)
        where T : unmanaged
    {
        if (_built.ContainsKey(name))
        {
            return;
        }

        string sealedPath = _directory.File(name + ".source");
        using (var list = new ListMmf<T>(sealedPath))
        {
            list.AddRange(values);
        }

        SealedListMmf.Seal(sealedPath);
        var file = new SealedFileBytes(sealedPath);
        Assert.True(file.Codec(0) == (byte)codec, $"{name}: block 0 took codec {(SealedCodec)file.Codec(0)}, not {codec}");
        edit?.Invoke(file, 0);
        file.Save(Path.Combine(_cases, name));
        _built[name] = new EdgeCase(readable, readable ? MemoryMarshal.AsBytes(values.AsSpan()).ToArray() : null, (byte)codec);
    }

    /// <summary>0 to 1,023 in an order of their own (each block of 1,024 a permutation of them), for blocks that do not ascend.</summary>
    private static int Scattered(int i) => i * 389 % 1_024;

    private static int[] Walk(int count)
    {
        int[] values = new int[count];
        uint state = 12_345;
        for (int i = 1; i < count; i++)
        {
            state = (state * 1_103_515_245) + 12_345;
            values[i] = values[i - 1] + (int)((state >> 16) % 7) - 3;
        }

        return values;
    }

    /// <summary>Null where the .NET reader reads every block, else its exception's message.</summary>
    private static string? ReadWithDotNet(string path, out byte[]? items)
    {
        items = null;
        try
        {
            using SealedFile file = SealedFile.Open(path);
            byte[] read = new byte[file.Count * file.ItemSize];
            for (long block = 0; block < file.BlockCount; block++)
            {
                file.Decode(block, read.AsSpan((int)(block * SealedLayout.BlockValues * file.ItemSize)));
            }

            items = read;
            return null;
        }
        catch (ListMmfFormatException exception)
        {
            return exception.Message;
        }
    }

    private static string? VerifyWithDotNet(string path)
    {
        try
        {
            using SealedFile file = SealedFile.Open(path);
            file.Verify(progress: null);
            return null;
        }
        catch (ListMmfFormatException exception)
        {
            return exception.Message;
        }
    }

    /// <summary>What the spec says of a case, and the items it holds where it is readable.</summary>
    private sealed record EdgeCase(bool Readable, byte[]? Items, byte Codec);
}
