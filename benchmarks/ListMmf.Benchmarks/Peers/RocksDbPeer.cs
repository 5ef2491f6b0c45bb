using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using RocksDbSharp;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// RocksDB set up as its documentation recommends for time-ordered data:
/// <list type="bullet">
/// <item>keys that sort as the rows do: a big-endian time (sign bit flipped, so negative times sort first) then a
/// big-endian sequence number; the value is the price and the size;</item>
/// <item>sorted input is written straight to table files with <c>SstFileWriter</c> and ingested (moved in), not put
/// through the memtable and the write-ahead log;</item>
/// <item>a block cache (<see cref="CacheBytes"/>) that holds the whole working set, so that warm reads never decode a
/// block twice;</item>
/// <item>one iterator, made once and sought again for every query, read through spans (no byte[] per row);</item>
/// <item>an append goes to the memtable without the write-ahead log, and one flush to a table file makes it durable.</item>
/// </list>
/// </summary>
internal sealed class RocksDbPeer(string folder) : IPeerStore
{
    public const int KeyLength = 12;

    /// <summary>The block cache: more than the table files of 100M ticks take.</summary>
    public const ulong CacheBytes = 8UL << 30;

    private const int ValueLength = 12;
    private readonly byte[] _seekKey = new byte[KeyLength];
    private RocksDb? _db;
    private Iterator? _iterator;
    private long _rows;

    public string Name => "RocksDB";

    public string Folder => folder;

    public bool HasBatch => false;

    public bool HasQueryLanguage => false;

    private string DataFolder => Path.Combine(folder, "db");

    public long Load(string csv)
    {
        Directory.CreateDirectory(folder);
        string sst = Path.Combine(folder, "load.sst");
        using (var writer = new SstFileWriter(new EnvOptions(), new ColumnFamilyOptions()))
        {
            writer.Open(sst);
            var key = new byte[KeyLength];
            var value = new byte[ValueLength];
            foreach (TickRow row in TickCsvReader.Read(csv))
            {
                WriteKey(key, row.Time, _rows++);
                WriteValue(value, row);
                writer.Add(key, value);
            }

            writer.Finish();
        }

        Open();
        _db!.IngestExternalFiles([sst], new IngestExternalFileOptions().SetMoveFiles(true));
        File.Delete(sst);
        NewIterator();
        return _rows;
    }

    public void Close()
    {
        _iterator?.Dispose();
        _db?.Dispose();
        _iterator = null;
        _db = null;
    }

    public void Open()
    {
        var table = new BlockBasedTableOptions().SetBlockCache(Cache.CreateLru(CacheBytes));
        _db = RocksDb.Open(new DbOptions().SetCreateIfMissing(true).SetBlockBasedTableFactory(table), DataFolder);
        if (_iterator is null && _rows > 0)
        {
            NewIterator();
        }
    }

    public IDisposable ReadScope() => NoScope.Instance;

    public long Echo(int value) => throw new NotSupportedException("RocksDB has no query language.");

    public long FirstAtOrAfter(int time)
    {
        WriteKey(_seekKey, time, 0);
        _iterator!.Seek(_seekKey);
        return _iterator.Valid() ? BinaryPrimitives.ReadInt64BigEndian(_iterator.GetKeySpan()[4..]) : _rows;
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
        double sum = 0;
        for (_iterator!.Seek(_seekKey); _iterator.Valid(); _iterator.Next())
        {
            if (TimeOf(_iterator.GetKeySpan()) >= to)
            {
                break;
            }

            ReadOnlySpan<byte> value = _iterator.GetValueSpan();
            sum += Price(value) * Size(value);
        }

        return sum;
    }

    /// <summary>One pass over every key in order, closing an hour when the next begins.</summary>
    public HourVwap[] HourlyVwap()
    {
        var hours = new List<HourVwap>();
        int hour = int.MinValue;
        double turnover = 0;
        double size = 0;
        for (_iterator!.SeekToFirst(); _iterator.Valid(); _iterator.Next())
        {
            int next = TimeOf(_iterator.GetKeySpan()) / 3600;
            if (next != hour && size > 0)
            {
                hours.Add(new HourVwap(hour, turnover / size));
                turnover = size = 0;
            }

            hour = next;
            ReadOnlySpan<byte> value = _iterator.GetValueSpan();
            int rowSize = Size(value);
            turnover += Price(value) * rowSize;
            size += rowSize;
        }

        if (size > 0)
        {
            hours.Add(new HourVwap(hour, turnover / size));
        }

        return hours.ToArray();
    }

    public long CountWhere(double price, int size)
    {
        long count = 0;
        for (_iterator!.SeekToFirst(); _iterator.Valid(); _iterator.Next())
        {
            ReadOnlySpan<byte> value = _iterator.GetValueSpan();
            if (Price(value) >= price && Size(value) >= size)
            {
                count++;
            }
        }

        return count;
    }

    /// <summary>
    /// One put a row into one <see cref="WriteBatch"/>, committed with the write-ahead log synced: the rows are durable
    /// when it returns, RocksDB's fastest durable append (a put a row without the log, then a flush of the memtable to
    /// a table file, measured about three times slower).
    /// </summary>
    public void Append(TickRow[] rows)
    {
        var key = new byte[KeyLength];
        var value = new byte[ValueLength];
        using (var batch = new WriteBatch())
        {
            foreach (TickRow row in rows)
            {
                WriteKey(key, row.Time, _rows++);
                WriteValue(value, row);
                batch.Put(key, value);
            }

            _db!.Write(batch, new WriteOptions().SetSync(true));
        }

        NewIterator();
    }

    public long DiskBytes() => Disk.AllocatedBytes(folder);

    public void Dispose() => Close();

    /// <summary>Writes the pairs in batches, then flushes the memtable to files; returns how many.</summary>
    public static long PutAll(RocksDb db, IEnumerable<(byte[] Key, byte[] Value)> pairs)
    {
        long count = 0;
        var batch = new WriteBatch();
        foreach ((byte[] key, byte[] value) in pairs)
        {
            batch.Put(key, value);
            if (++count % 100_000 == 0)
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

    /// <summary>An iterator over what the database holds now (an iterator sees the database as it was when made).</summary>
    private void NewIterator()
    {
        _iterator?.Dispose();
        _iterator = _db!.NewIterator();
    }

    private static void WriteKey(Span<byte> key, int time, long sequence)
    {
        BinaryPrimitives.WriteUInt32BigEndian(key, (uint)time ^ 0x8000_0000u);
        BinaryPrimitives.WriteInt64BigEndian(key[4..], sequence);
    }

    private static void WriteValue(Span<byte> value, TickRow row)
    {
        BitConverter.TryWriteBytes(value, row.Price);
        BitConverter.TryWriteBytes(value[8..], row.Size);
    }

    private static int TimeOf(ReadOnlySpan<byte> key) => (int)(BinaryPrimitives.ReadUInt32BigEndian(key) ^ 0x8000_0000u);

    private static double Price(ReadOnlySpan<byte> value) => MemoryMarshal.Read<double>(value);

    private static int Size(ReadOnlySpan<byte> value) => MemoryMarshal.Read<int>(value[8..]);
}
