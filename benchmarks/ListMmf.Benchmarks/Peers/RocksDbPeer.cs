using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using RocksDbSharp;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// RocksDB, as its documentation recommends for time-ordered data: keys that sort as the rows do, a big-endian time
/// (sign bit flipped, so negative times sort first) then a big-endian sequence number, written in batches; the value
/// is the price and the size. Lookups seek an iterator to (T, 0); a range sum iterates from (from, 0) to (to, 0).
/// </summary>
internal sealed class RocksDbPeer(string folder) : IPeerStore
{
    private const int BatchRows = 100_000;
    private readonly byte[] _seekKey = new byte[KeyLength];
    private RocksDb? _db;
    private long _rows;

    public const int KeyLength = 12;

    public string Name => "RocksDB";

    public bool HasBatch => false;

    public long Load(string csv)
    {
        Directory.CreateDirectory(folder);
        _db = RocksDb.Open(new DbOptions().SetCreateIfMissing(true), folder);
        _rows = PutAll(_db, TickCsvReader.Read(csv).Select((row, index) => (Key(row.Time, index), Value(row))));
        return _rows;
    }

    /// <summary>Writes the pairs in batches of <see cref="BatchRows"/>, then flushes the memtable to files; returns how many.</summary>
    public static long PutAll(RocksDb db, IEnumerable<(byte[] Key, byte[] Value)> pairs)
    {
        long count = 0;
        var batch = new WriteBatch();
        foreach ((byte[] key, byte[] value) in pairs)
        {
            batch.Put(key, value);
            if (++count % BatchRows == 0)
            {
                db.Write(batch);
                batch.Dispose();
                batch = new WriteBatch();
            }
        }

        db.Write(batch);
        batch.Dispose();
        db.Flush(new FlushOptions().SetWaitForFlush(true));
        return count;
    }

    public long FirstAtOrAfter(int time)
    {
        WriteKey(_seekKey, time, 0);
        using Iterator iterator = _db!.NewIterator();
        iterator.Seek(_seekKey);
        return iterator.Valid() ? BinaryPrimitives.ReadInt64BigEndian(iterator.Key().AsSpan(4)) : _rows;
    }

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results)
    {
        for (int i = 0; i < times.Length; i++)
        {
            results[i] = FirstAtOrAfter(times[i]);
        }
    }

    public double Turnover(int from, int to)
    {
        WriteKey(_seekKey, from, 0);
        using Iterator iterator = _db!.NewIterator();
        double sum = 0;
        for (iterator.Seek(_seekKey); iterator.Valid(); iterator.Next())
        {
            if (TimeOf(iterator.Key()) >= to)
            {
                break;
            }

            byte[] value = iterator.Value();
            sum += BitConverter.ToDouble(value, 0) * BitConverter.ToInt32(value, 8);
        }

        return sum;
    }

    /// <summary>One put a row, without syncing; the last put syncs the write-ahead log, which makes them all durable.</summary>
    public void Append(TickRow[] rows)
    {
        var unsynced = new WriteOptions();
        var synced = new WriteOptions().SetSync(true);
        for (int i = 0; i < rows.Length; i++)
        {
            _db!.Put(Key(rows[i].Time, _rows), Value(rows[i]), writeOptions: i == rows.Length - 1 ? synced : unsynced);
            _rows++;
        }
    }

    public long DiskBytes() => Disk.AllocatedBytes(folder);

    public void Dispose()
    {
        _db?.Dispose();
        _db = null;
    }

    private static byte[] Key(int time, long sequence)
    {
        var key = new byte[KeyLength];
        WriteKey(key, time, sequence);
        return key;
    }

    private static void WriteKey(Span<byte> key, int time, long sequence)
    {
        BinaryPrimitives.WriteUInt32BigEndian(key, (uint)time ^ 0x8000_0000u);
        BinaryPrimitives.WriteInt64BigEndian(key[4..], sequence);
    }

    private static int TimeOf(byte[] key) => (int)(BinaryPrimitives.ReadUInt32BigEndian(key) ^ 0x8000_0000u);

    private static byte[] Value(TickRow row)
    {
        var value = new byte[12];
        BitConverter.TryWriteBytes(value, row.Price);
        BitConverter.TryWriteBytes(value.AsSpan(8), row.Size);
        return value;
    }
}
