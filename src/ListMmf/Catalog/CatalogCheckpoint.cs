using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.IO;
using System.IO.Hashing;
using System.Linq;
using System.Runtime.InteropServices;
using ListMmf.Interop;
using ListMmf.Storage;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// A checkpoint of a catalog's index (<c>partitions.checkpoint</c>): each series' partitions as the index's first
/// <see cref="Lines"/> lines leave them, grouped by series behind a directory, so that a reader opens the catalog by
/// reading the directory and the lines after those, and reads one series' partitions when it is first asked for
/// rather than every line of the index. Derived data that its writer leaves at its close and as the index grows
/// (<see cref="CatalogIndex.Flush"/>), never trusted: a checkpoint whose checksums fail, or that describes another
/// index (the hash of its last line differs), is not used, and a series whose lines cannot be read from it is read
/// from the index (so, too, where the writer has since renamed a newer checkpoint over it: the reader holds no
/// handle between reads, which Windows would let no rename replace). docs/file-format.md describes the layout.
/// </summary>
internal sealed class CatalogCheckpoint
{
    /// <summary>The checkpoint's file name in the catalog's folder.</summary>
    public const string FileName = "partitions.checkpoint";

    private const int HeaderBytes = 64;

    private const int EntryBytes = 32;

    private const int FormatVersion = 1;

    /// <summary>Where the header's checksum is: of the header before it and the directory.</summary>
    private const int HashOffset = 56;

    private static readonly ulong Magic = BinaryPrimitives.ReadUInt64LittleEndian("LMCATCKP"u8);

    /// <summary>The series read one at a time before the next read takes every series' lines at once.</summary>
    private const int SeriesReadAlone = 8;

    private static readonly int LineBytes = Marshal.SizeOf<PartitionRecord>();

    private readonly string _path;
    private readonly ulong _checksum;
    private readonly long _recordsStart;
    private readonly long _records;
    private int _readAlone;

    /// <summary>Every series' lines, once <see cref="SeriesReadAlone"/> series were read one at a time; else null.</summary>
    private PartitionRecord[]? _all;

    private CatalogCheckpoint(string path, ulong checksum, long lines, long watermark, long recordsStart, long records,
        Dictionary<(int Kind, int Instrument), (long First, long Count, ulong Hash)> series)
    {
        _path = path;
        _checksum = checksum;
        Lines = lines;
        Watermark = watermark;
        _recordsStart = recordsStart;
        _records = records;
        Series = series;
    }

    /// <summary>The index's lines the checkpoint holds: its first ones.</summary>
    public long Lines { get; }

    /// <summary>The watermark those lines record, in ticks; 0 before any.</summary>
    public long Watermark { get; }

    /// <summary>Each series the lines hold: where its partitions are among the checkpoint's lines, and their hash.</summary>
    public IReadOnlyDictionary<(int Kind, int Instrument), (long First, long Count, ulong Hash)> Series { get; }

    /// <summary>The checkpoint file of the index at <paramref name="indexPath"/>.</summary>
    public static string PathFor(string indexPath) => System.IO.Path.Combine(System.IO.Path.GetDirectoryName(indexPath)!, FileName);

    /// <summary>
    /// The checkpoint of <paramref name="index"/>, with its header and directory read and checked; null where there is
    /// none, it cannot be read, it fails a check, or it holds lines the index does not (another index's).
    /// </summary>
    public static CatalogCheckpoint? Open(ListMmf<PartitionRecord> index, int kinds)
    {
        string path = PathFor(index.Path);
        try
        {
            using SafeFileHandle? file = SideFile.OpenRead(path);
            if (file is null)
            {
                return null;
            }

            StoragePlatform.Current.AdviseRandomReads(file);

            long length = RandomAccess.GetLength(file);
            Span<byte> header = stackalloc byte[HeaderBytes];
            if (length < HeaderBytes || PositionalRead.Fill(file, header, 0) != HeaderBytes)
            {
                return null;
            }

            long lines = BinaryPrimitives.ReadInt64LittleEndian(header[16..]);
            long watermark = BinaryPrimitives.ReadInt64LittleEndian(header[24..]);
            long count = BinaryPrimitives.ReadInt64LittleEndian(header[40..]);
            if (BinaryPrimitives.ReadUInt64LittleEndian(header) != Magic
                || BinaryPrimitives.ReadInt32LittleEndian(header[8..]) != FormatVersion
                || BinaryPrimitives.ReadInt32LittleEndian(header[12..]) != kinds
                || lines <= 0 || lines > index.Count || watermark < 0 || watermark > DateTime.MaxValue.Ticks
                || count <= 0 || count > lines)
            {
                return null;
            }

            // Every series holds a line and every line is one of the index's first lines: a file of any other length
            // is not read (a name another user put there can make the open read nothing large).
            long body = length - HeaderBytes - (count * EntryBytes);
            if (body < count * LineBytes || body > lines * LineBytes || body % LineBytes != 0)
            {
                return null;
            }

            byte[] directory = new byte[count * EntryBytes];
            if (PositionalRead.Fill(file, directory, HeaderBytes) != directory.Length)
            {
                return null;
            }

            ulong checksum = BinaryPrimitives.ReadUInt64LittleEndian(header[HashOffset..]);
            if (HeaderHash(header, directory) != checksum
                || BinaryPrimitives.ReadUInt64LittleEndian(header[32..]) != LineHash(ReadIndexFrom(index, lines - 1)))
            {
                return null;
            }

            long recordsStart = HeaderBytes + directory.Length;
            long records = (length - recordsStart) / LineBytes;
            var series = new Dictionary<(int Kind, int Instrument), (long First, long Count, ulong Hash)>((int)count);
            (int Kind, int Instrument) previous = (-1, -1);
            for (int at = 0; at < count; at++)
            {
                ReadOnlySpan<byte> entry = directory.AsSpan(at * EntryBytes, EntryBytes);
                (int Kind, int Instrument) key = (BinaryPrimitives.ReadInt32LittleEndian(entry), BinaryPrimitives.ReadInt32LittleEndian(entry[4..]));
                long first = BinaryPrimitives.ReadInt64LittleEndian(entry[8..]);
                long partitions = BinaryPrimitives.ReadInt64LittleEndian(entry[16..]);
                if (key.Kind < 0 || key.Kind >= kinds || key.Instrument < 0 || key.CompareTo(previous) <= 0
                    || first < 0 || partitions <= 0 || partitions > records - first)
                {
                    return null;
                }

                series.Add(key, (first, partitions, BinaryPrimitives.ReadUInt64LittleEndian(entry[24..])));
                previous = key;
            }

            return new CatalogCheckpoint(path, checksum, lines, watermark, recordsStart, records, series);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ListMmfException)
        {
            // Derived data: what another user put at the name, or a file that cannot be read, is not used.
            return null;
        }
    }

    /// <summary>
    /// The partitions of <paramref name="series"/> in period order, as the checkpoint holds them (none for a series it
    /// does not hold); null where they cannot be read, fail their hash, or the file at the name is no longer this
    /// checkpoint. The first few series are read alone, then every series' lines at once, for a reader that goes on
    /// to ask for many.
    /// </summary>
    public PartitionRecord[]? ReadSeries((int Kind, int Instrument) series)
    {
        if (!Series.TryGetValue(series, out (long First, long Count, ulong Hash) entry))
        {
            return [];
        }

        try
        {
            PartitionRecord[] partitions;
            if (_all is not null)
            {
                partitions = _all.AsSpan((int)entry.First, (int)entry.Count).ToArray();
            }
            else
            {
                using SafeFileHandle? file = SideFile.OpenRead(_path);
                Span<byte> header = stackalloc byte[HeaderBytes];
                if (file is null || PositionalRead.Fill(file, header, 0) != HeaderBytes
                    || BinaryPrimitives.ReadUInt64LittleEndian(header[HashOffset..]) != _checksum)
                {
                    return null;
                }

                StoragePlatform.Current.AdviseRandomReads(file);
                if (++_readAlone > SeriesReadAlone)
                {
                    PartitionRecord[] all = new PartitionRecord[_records];
                    if (!ReadLines(file, all, 0))
                    {
                        return null;
                    }

                    _all = all;
                    partitions = all.AsSpan((int)entry.First, (int)entry.Count).ToArray();
                }
                else
                {
                    partitions = new PartitionRecord[entry.Count];
                    if (!ReadLines(file, partitions, entry.First))
                    {
                        return null;
                    }
                }
            }

            return XxHash3.HashToUInt64(MemoryMarshal.AsBytes(partitions.AsSpan())) == entry.Hash ? partitions : null;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ListMmfException)
        {
            return null;
        }
    }

    /// <summary>
    /// Reads the checkpoint's lines from its line <paramref name="first"/> into <paramref name="lines"/>; false where the
    /// file ends first.
    /// </summary>
    private bool ReadLines(SafeFileHandle file, PartitionRecord[] lines, long first)
    {
        Span<byte> bytes = MemoryMarshal.AsBytes(lines.AsSpan());
        return PositionalRead.Fill(file, bytes, _recordsStart + (first * LineBytes)) == bytes.Length;
    }

    /// <summary>
    /// Writes the checkpoint of an index whose first <paramref name="lines"/> lines leave <paramref name="series"/>
    /// and <paramref name="watermark"/>, the last of them <paramref name="lastLine"/>, renamed over the one before.
    /// </summary>
    public static void Write(string indexPath, int kinds, IReadOnlyDictionary<(int Kind, int Instrument), List<PartitionRecord>> series,
        long lines, long watermark, in PartitionRecord lastLine)
    {
        (int Kind, int Instrument)[] keys = series.Where(pair => pair.Value.Count > 0).Select(pair => pair.Key).Order().ToArray();
        long records = keys.Sum(key => (long)series[key].Count);
        byte[] bytes = new byte[HeaderBytes + (keys.Length * EntryBytes) + (records * LineBytes)];
        Span<byte> directory = bytes.AsSpan(HeaderBytes, keys.Length * EntryBytes);
        Span<byte> area = bytes.AsSpan(HeaderBytes + directory.Length);
        long first = 0;
        for (int at = 0; at < keys.Length; at++)
        {
            Span<byte> partitions = MemoryMarshal.AsBytes(CollectionsMarshal.AsSpan(series[keys[at]]));
            partitions.CopyTo(area[(int)(first * LineBytes)..]);
            Span<byte> entry = directory.Slice(at * EntryBytes, EntryBytes);
            BinaryPrimitives.WriteInt32LittleEndian(entry, keys[at].Kind);
            BinaryPrimitives.WriteInt32LittleEndian(entry[4..], keys[at].Instrument);
            BinaryPrimitives.WriteInt64LittleEndian(entry[8..], first);
            BinaryPrimitives.WriteInt64LittleEndian(entry[16..], series[keys[at]].Count);
            BinaryPrimitives.WriteUInt64LittleEndian(entry[24..], XxHash3.HashToUInt64(partitions));
            first += series[keys[at]].Count;
        }

        Span<byte> header = bytes.AsSpan(0, HeaderBytes);
        BinaryPrimitives.WriteUInt64LittleEndian(header, Magic);
        BinaryPrimitives.WriteInt32LittleEndian(header[8..], FormatVersion);
        BinaryPrimitives.WriteInt32LittleEndian(header[12..], kinds);
        BinaryPrimitives.WriteInt64LittleEndian(header[16..], lines);
        BinaryPrimitives.WriteInt64LittleEndian(header[24..], watermark);
        BinaryPrimitives.WriteUInt64LittleEndian(header[32..], LineHash(lastLine));
        BinaryPrimitives.WriteInt64LittleEndian(header[40..], keys.Length);
        BinaryPrimitives.WriteUInt64LittleEndian(header[HashOffset..], HeaderHash(header, directory));
        SideFile.Publish(PathFor(indexPath), bytes, durable: false);
    }

    /// <summary>
    /// The index's line <paramref name="line"/>, its pages and those of the lines after it (which a reader that starts
    /// from the checkpoint reads next) asked for first: a fault through the mapping in a cold file reads the index
    /// around it, which for a large index is most of it.
    /// </summary>
    private static PartitionRecord ReadIndexFrom(ListMmf<PartitionRecord> index, long line)
    {
        long lines = Math.Min(index.Count - line, 1 << 16);
        index.Storage.StartReading(index.Storage.ItemsOffset + (line * LineBytes), lines * LineBytes);
        return index[line];
    }

    /// <summary>The checksum of the header (its checksum field left out) and the directory.</summary>
    private static ulong HeaderHash(ReadOnlySpan<byte> header, ReadOnlySpan<byte> directory)
    {
        var hash = new XxHash3();
        hash.Append(header[..HashOffset]);
        hash.Append(directory);
        return hash.GetCurrentHashAsUInt64();
    }

    private static ulong LineHash(in PartitionRecord line) =>
        XxHash3.HashToUInt64(MemoryMarshal.AsBytes(new ReadOnlySpan<PartitionRecord>(in line)));
}
