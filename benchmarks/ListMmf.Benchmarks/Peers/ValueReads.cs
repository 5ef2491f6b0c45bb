using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using ListMmf.Benchmarks.Core;
using ListMmf.Benchmarks.Data;
using RocksDbSharp;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// Seed 003's random value reads: values of 8 B, 64 B, 256 B and 1 KiB read by key, a <see cref="ListMmf{T}"/> of
/// the value struct by index beside a RocksDB get of the same bytes by a big-endian key (a block cache holding them all, the
/// value copied into the reader's buffer: no allocation), and a copy of the value out of a managed array in RAM (the
/// floor). Each copies the value's bytes out. Interleaved rounds of fresh random keys; each reader's checksum of the values it
/// read must equal the others'.
/// </summary>
internal static class ValueReads
{
    /// <summary>The floor's column name.</summary>
    public const string Ram = "RAM (memcpy)";

    public static void Run(PeersRequest request, string root, PeersResults results, List<string> failures)
    {
        Measure<Value8>(request, root, results, failures);
        Measure<Value64>(request, root, results, failures);
        Measure<Value256>(request, root, results, failures);
        Measure<Value1024>(request, root, results, failures);
    }

    private static unsafe void Measure<T>(PeersRequest request, string root, PeersResults results, List<string> failures)
        where T : unmanaged, IValue<T>
    {
        int size = sizeof(T);
        int count = request.Values;
        Console.Error.WriteLine($"peers: {count:N0} values of {size} B");
        var ram = new T[count];
        for (int i = 0; i < count; i++)
        {
            ram[i] = T.Of((i * 31L) + 7);
        }

        Directory.CreateDirectory(root);
        using var list = new ListMmf<T>(Path.Combine(root, $"values-{size}.mmf"));
        list.AddRange(ram);
        var table = new BlockBasedTableOptions().SetBlockCache(Cache.CreateLru(RocksDbPeer.CacheBytes));
        using RocksDb db = RocksDb.Open(new DbOptions().SetCreateIfMissing(true).SetBlockBasedTableFactory(table), Path.Combine(root, $"rocksdb-{size}"));
        RocksDbPeer.PutAll(db, Enumerable.Range(0, count).Select(i => (Key(i), MemoryMarshal.AsBytes(ram.AsSpan(i, 1)).ToArray())));

        // Every reader copies the whole value out, as a get must: into a buffer of its own, whose first 8 bytes it returns.
        var key = new byte[sizeof(long)];
        var copy = new byte[size];
        (string Name, Func<int, long> Read)[] readers =
        [
            ("ListMmf", index =>
            {
                MemoryMarshal.AsBytes(list.AsSpan(index, 1)).CopyTo(copy);
                return BitConverter.ToInt64(copy);
            }),
            ("RocksDB", index =>
            {
                System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(key, index);
                db.Get(key, copy, 0, copy.Length);
                return BitConverter.ToInt64(copy);
            }),
            (Ram, index =>
            {
                MemoryMarshal.AsBytes(ram.AsSpan(index, 1)).CopyTo(copy);
                return BitConverter.ToInt64(copy);
            }),
        ];
        var nanoseconds = readers.Select(_ => new List<double>()).ToArray();
        var random = new SplitMix64((ulong)size);
        var order = new Random(size);
        int[] sequence = Enumerable.Range(0, readers.Length).ToArray();
        // Round 0 warms the JIT and the caches; it is not counted.
        for (int round = 0; round <= request.Rounds; round++)
        {
            int[] indices = Enumerable.Range(0, request.Targets).Select(_ => (int)(random.Next() % (ulong)count)).ToArray();
            long expected = indices.Sum(index => (index * 31L) + 7);
            order.Shuffle(sequence);
            foreach (int r in sequence)
            {
                Func<int, long> read = readers[r].Read;
                if (round == 0)
                {
                    Timing.Warm(indices.Length, i => read(indices[i]));
                }

                long checksum = 0;
                long start = Stopwatch.GetTimestamp();
                foreach (int index in indices)
                {
                    checksum += read(index);
                }

                if (round > 0)
                {
                    nanoseconds[r].Add(Stopwatch.GetElapsedTime(start).TotalNanoseconds / indices.Length);
                }

                if (checksum != expected)
                {
                    failures.Add($"{readers[r].Name}: the {size} B values read sum to {checksum}, not {expected}");
                }
            }
        }

        for (int r = 0; r < readers.Length; r++)
        {
            results.Add($"Random read of a {size} B value", readers[r].Name, Medians.Of(nanoseconds[r]), null, unit: "ns");
        }
    }

    private static byte[] Key(long index)
    {
        var key = new byte[sizeof(long)];
        System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(key, index);
        return key;
    }
}

/// <summary>A value of fixed size whose first 8 bytes identify it.</summary>
internal interface IValue<TSelf>
    where TSelf : unmanaged
{
    static abstract TSelf Of(long first);
}

[StructLayout(LayoutKind.Sequential, Size = 8)]
internal readonly record struct Value8(long First) : IValue<Value8>
{
    public static Value8 Of(long first) => new(first);
}

[StructLayout(LayoutKind.Sequential, Size = 64)]
internal readonly record struct Value64(long First) : IValue<Value64>
{
    public static Value64 Of(long first) => new(first);
}

[StructLayout(LayoutKind.Sequential, Size = 256)]
internal readonly record struct Value256(long First) : IValue<Value256>
{
    public static Value256 Of(long first) => new(first);
}

[StructLayout(LayoutKind.Sequential, Size = 1024)]
internal readonly record struct Value1024(long First) : IValue<Value1024>
{
    public static Value1024 Of(long first) => new(first);
}
