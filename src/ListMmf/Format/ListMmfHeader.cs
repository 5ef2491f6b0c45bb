using System;
using System.Buffers.Binary;
using System.IO;
using System.IO.Hashing;
using System.Runtime.CompilerServices;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// The header at the start of a ListMmf file, of either format (docs/file-format.md):
/// <list type="bullet">
/// <item>version 1, ListMmf 1.x's 16 bytes: Int32 version 0 (-1 when marked replaced), Int32 data-type code, Int64
/// count; the items at offset 16.</item>
/// <item>version 2: Int32 version 2, the code and the live count at the same offsets, then a replaced mark, the
/// items' offset (a multiple of 4,096: no item shares a sector or a 4 KiB page with the header), the durable count,
/// the boot session of the writer, the generation (one more at each writer's open in another boot), the item size,
/// the description (JSON) and a CRC-32 over
/// everything that never changes after creation.</item>
/// </list>
/// </summary>
internal readonly struct ListMmfHeader
{
    /// <summary>Size of a version 1 header in bytes; its first item starts here.</summary>
    public const int Version1Size = 16;

    /// <summary>The version field of a version 1 file, as ListMmf 1.x writes it.</summary>
    public const int Version1 = 0;

    /// <summary>The version field of a version 2 file.</summary>
    public const int Version2 = 2;

    /// <summary>
    /// The mark a writer stores in a file it is about to replace by a new file under the same path (widened, or
    /// truncated at the beginning), in the version field of a version 1 file and in the state field of a version 2
    /// file: readers that see it look at the path again. A file still at its path with this mark (its writer died
    /// before the rename) is read as current, and the next writer's open clears the mark.
    /// </summary>
    public const int ReplacedMark = -1;

    /// <summary>Offset of the Int64 live count, the published length of the list, in both versions.</summary>
    public const int CountOffset = 8;

    /// <summary>
    /// Bit 62 of a version 2 (and sealed) file's live count field, always set: ListMmf 1.x reads that field as its
    /// count and refuses a count past its file's capacity, so every 1.x release refuses these files instead of reading
    /// their header as items or writing over it (issue 64). Readers take it off (<see cref="LiveCountOf"/>); a writer
    /// stores every count with it. A version 1 count never has it.
    /// </summary>
    public const long LiveCountGuard = 1L << 62;

    /// <summary>The live count a version 2 or sealed file's field holds: the field without <see cref="LiveCountGuard"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long LiveCountOf(long field) => field & ~LiveCountGuard;

    /// <summary>Version 2: the Int32 state, 0 or <see cref="ReplacedMark"/>.</summary>
    public const int StateOffset2 = 16;

    private const int ItemsOffsetOffset = 20;

    /// <summary>Version 2: the Int64 durable count, raised only once the items it covers are on stable storage.</summary>
    public const int DurableCountOffset = 24;

    private const int SessionOffset = 32;
    private const int GenerationOffset = 40;
    private const int ItemSizeOffset = 44;
    private const int DescriptionLengthOffset = 48;
    private const int ChecksumOffset = 56;

    /// <summary>Version 2: where the description's UTF-8 JSON starts.</summary>
    public const int DescriptionOffset = 64;

    /// <summary>
    /// The bytes of a file's start one read of its header asks for: the header and a description of up to 960 bytes
    /// (a time series' or a struct's of a dozen fields).
    /// </summary>
    private const int FirstReadBytes = 1024;

    /// <summary>
    /// Version 2: the bytes every field that changes after creation lies in, one 512-byte sector, so that a torn write
    /// of the header page never mixes fields of two moments.
    /// </summary>
    public const int MutableBytes = DescriptionOffset;

    /// <summary>Version 2: the items' offset is a multiple of this, the largest sector size in use.</summary>
    public const int Version2Alignment = 4096;

    /// <summary>The largest version 2 header this library reads: a description of up to about 1 MiB.</summary>
    private const int MaximumVersion2Size = 1 << 20;

    /// <summary>How often a header read is repeated while a writer keeps changing it.</summary>
    private const int ConsistentReadAttempts = 64;

    private readonly byte[]? _description;

    private ListMmfHeader(HeaderFormat? format, bool replaced, int dataTypeCode, long count, long durableCount, ulong session,
        int generation, int itemsOffset, int itemSize, byte[]? description, int rawVersion = 0)
    {
        Format = format;
        RawVersion = rawVersion;
        IsReplaced = replaced;
        DataTypeCode = dataTypeCode;
        Count = count;
        DurableCount = durableCount;
        Session = session;
        Generation = generation;
        ItemsOffset = itemsOffset;
        ItemSize = itemSize;
        _description = description;
    }

    /// <summary>
    /// The format's rules: version 1 (ListMmf 1.x) or 2; null for a header of an unknown version (<see cref="RawVersion"/>),
    /// which <see cref="ValidateCode"/> refuses.
    /// </summary>
    public HeaderFormat? Format { get; }

    /// <summary>The format of a validated header (<see cref="ValidateCode"/>).</summary>
    public HeaderFormat KnownFormat => Format ?? throw new InvalidOperationException($"A header of version {RawVersion} was not validated.");

    /// <summary>The version field of a header of an unknown version, for the message that refuses it.</summary>
    private int RawVersion { get; }

    /// <summary>Whether the header is a sealed file's (version 3, <see cref="SealedHeader"/>), which this header does not read further.</summary>
    public bool IsSealed => Format is null && RawVersion == SealedLayout.Version;

    /// <summary>Whether the file is marked replaced (<see cref="ReplacedMark"/>).</summary>
    public bool IsReplaced { get; }

    public int DataTypeCode { get; }

    public DataType DataType => (DataType)DataTypeCode;

    /// <summary>The live count: what the writer has published, in the page cache of the boot it runs in.</summary>
    public long Count { get; }

    /// <summary>Version 2: the count whose items were on stable storage when it was written; version 1: the count.</summary>
    public long DurableCount { get; }

    /// <summary>Version 2: the boot session (<see cref="Storage.BootSession"/>) in which the live count was written.</summary>
    public ulong Session { get; }

    /// <summary>Version 2: how many times a writer has opened the file in a boot other than the one it recorded.</summary>
    public int Generation { get; }

    /// <summary>Where the first item starts: 16 (version 1) or a multiple of 4,096 (version 2).</summary>
    public int ItemsOffset { get; }

    /// <summary>Version 2: the item size the file was created with; version 1: 0 (not recorded).</summary>
    public int ItemSize { get; }

    /// <summary>Version 2: the description's UTF-8 JSON, empty where the file records none; version 1: always empty.</summary>
    public ReadOnlySpan<byte> Description => _description;

    /// <summary>Where the replaced mark lives: the version field (version 1) or the state field (version 2).</summary>
    public int MarkOffset => KnownFormat.MarkOffset;

    /// <summary>
    /// The count a reader may trust in the boot session <paramref name="current"/>: the live count of a version 1
    /// file, or of a version 2 file written in this boot (or where the system tells no boots apart: session 0); the
    /// durable count of a version 2 file whose writer ran in an earlier boot, since its live count may have reached
    /// the disk before its items.
    /// </summary>
    public long PublishedCount(ulong current) => TrustsLiveCount(current) ? Count : DurableCount;

    /// <summary>Whether <see cref="Count"/> is what a reader in boot <paramref name="current"/> may trust (<see cref="PublishedCount"/>).</summary>
    public bool TrustsLiveCount(ulong current) => KnownFormat.TrustsLiveCount(Session, current);

    /// <summary>This header without its replaced mark: a file marked replaced that is still the one at its path is current.</summary>
    public ListMmfHeader Unmarked() =>
        new(Format, false, DataTypeCode, Count, DurableCount, Session, Generation, ItemsOffset, ItemSize, _description, RawVersion);

    /// <summary>A new version 1 header: version 0, the code and the count.</summary>
    public static void WriteVersion1(Span<byte> bytes, DataType dataType, long count)
    {
        BinaryPrimitives.WriteInt32LittleEndian(bytes, Version1);
        BinaryPrimitives.WriteInt32LittleEndian(bytes[4..], (int)dataType);
        BinaryPrimitives.WriteInt64LittleEndian(bytes[CountOffset..], count);
    }

    /// <summary>The size of a version 2 header holding <paramref name="descriptionLength"/> bytes of description.</summary>
    public static int Version2SizeFor(int descriptionLength) =>
        (DescriptionOffset + descriptionLength + Version2Alignment - 1) / Version2Alignment * Version2Alignment;

    /// <summary>
    /// A new, empty version 2 header in <paramref name="bytes"/> (<see cref="Version2SizeFor"/> long), sealed with its
    /// checksum: no items, written in <paramref name="session"/>.
    /// </summary>
    public static void WriteVersion2(Span<byte> bytes, DataType dataType, int itemSize, ReadOnlySpan<byte> description, ulong session)
    {
        bytes.Clear();
        BinaryPrimitives.WriteInt32LittleEndian(bytes, Version2);
        BinaryPrimitives.WriteInt32LittleEndian(bytes[4..], (int)dataType);
        BinaryPrimitives.WriteInt64LittleEndian(bytes[CountOffset..], LiveCountGuard);
        BinaryPrimitives.WriteInt32LittleEndian(bytes[ItemsOffsetOffset..], bytes.Length);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes[SessionOffset..], session);
        BinaryPrimitives.WriteInt32LittleEndian(bytes[ItemSizeOffset..], itemSize);
        BinaryPrimitives.WriteInt32LittleEndian(bytes[DescriptionLengthOffset..], description.Length);
        description.CopyTo(bytes[DescriptionOffset..]);
        Seal(bytes);
    }

    /// <summary>
    /// A writer's session begins in the version 2 header in <paramref name="bytes"/> (its first 64 bytes): the live
    /// count becomes <paramref name="count"/>, the session <paramref name="session"/>, the generation one more.
    /// </summary>
    public static void BeginSession(Span<byte> bytes, long count, ulong session)
    {
        BinaryPrimitives.WriteInt64LittleEndian(bytes[CountOffset..], count | LiveCountGuard);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes[SessionOffset..], session);
        BinaryPrimitives.WriteInt32LittleEndian(bytes[GenerationOffset..], BinaryPrimitives.ReadInt32LittleEndian(bytes[GenerationOffset..]) + 1);
    }

    /// <summary>Stores the checksum of the new version 2 header in <paramref name="bytes"/> (at least its description's end).</summary>
    private static void Seal(Span<byte> bytes) =>
        BinaryPrimitives.WriteUInt32LittleEndian(bytes[ChecksumOffset..], Checksum(bytes));

    /// <summary>
    /// CRC-32 (the IEEE polynomial, as zlib's crc32 computes it) over what never changes after creation: the first 64
    /// bytes with the fields that do as zeros (the live count, the state, the durable count, the session, the
    /// generation and the checksum itself), then the description. A changing field is left out because a store in the
    /// mapping is not atomic with a checksum stored beside it: the kernel may write the page back between the two
    /// (the power-loss harness drew a durable count written back without its new checksum). The counts are checked
    /// against the file's length instead.
    /// </summary>
    private static uint Checksum(ReadOnlySpan<byte> bytes)
    {
        Span<byte> fixedPart = stackalloc byte[DescriptionOffset];
        bytes[..DescriptionOffset].CopyTo(fixedPart);
        fixedPart[CountOffset..(StateOffset2 + sizeof(int))].Clear();
        fixedPart[DurableCountOffset..ItemSizeOffset].Clear();
        fixedPart[ChecksumOffset..].Clear();
        var crc = new Crc32();
        crc.Append(fixedPart);
        int descriptionLength = BinaryPrimitives.ReadInt32LittleEndian(bytes[DescriptionLengthOffset..]);
        crc.Append(bytes.Slice(DescriptionOffset, descriptionLength));
        return crc.GetCurrentHashAsUInt32();
    }

    /// <summary>
    /// Reads the header of an open file and checks everything the list will trust before anything is mapped:
    /// the length, the version, the data-type code against <typeparamref name="T"/>, the checksum and item size of a
    /// version 2 header, and that the counts' items lie within the file. Reads only; the file is never changed here.
    /// </summary>
    /// <exception cref="ListMmfFormatException">The header is damaged, from an unknown version, or claims more items than the file holds.</exception>
    /// <exception cref="ListMmfDataTypeException">The file holds items of another type than <typeparamref name="T"/>.</exception>
    public static ListMmfHeader ReadAndValidate<T>(SafeFileHandle file, string path, ulong session) where T : unmanaged
    {
        ListMmfHeader header = ReadConsistent(file, path, out long length).Unmarked();
        header.Validate<T>(path, length, session);
        return header;
    }

    /// <summary>
    /// Reads the header and then the file's length, again until two reads of the header agree; see
    /// <see cref="ReadAndValidate{T}"/>. Nothing is validated but the header's presence, its version and, for version
    /// 2, its checksum.
    /// </summary>
    /// <remarks>
    /// The file may have a live writer that grows it and then publishes a larger count. The length is read after
    /// the header, so it is at least what the count was published against: a healthy growing file never looks
    /// damaged. A file read is not atomic with the writer's stores, so the header is read again and used only when
    /// both reads agree (or, beside a writer that never pauses, the smaller count of the last try).
    /// </remarks>
    public static ListMmfHeader ReadConsistent(SafeFileHandle file, string path, out long length)
    {
        for (int attempt = 1; ; attempt++)
        {
            bool final = attempt == ConsistentReadAttempts;
            bool sealedFirst = TryRead(file, path, final, out ListMmfHeader header);
            length = RandomAccess.GetLength(file);
            if (!TryRead(file, path, final, out ListMmfHeader again) || !sealedFirst)
            {
                continue;
            }

            if (again.SameAs(header))
            {
                return header;
            }

            if (attempt == ConsistentReadAttempts && again.Format == header.Format && again.DataTypeCode == header.DataTypeCode)
            {
                // A writer that never pauses: the smaller of two reads is a count it published (a torn read would
                // have to be torn twice the same way to pass), and no larger than what the length was read against.
                return header.Count <= again.Count ? header : again;
            }
        }
    }

    /// <summary>
    /// One read of the header; false for a version 2 header whose checksum fails, which the caller reads again (a
    /// writer may be between a sealed field and its seal), refused on the last attempt, <paramref name="final"/>.
    /// </summary>
    private static bool TryRead(SafeFileHandle file, string path, bool final, out ListMmfHeader header)
    {
        // One read for the header and, most often, its description: an open reads the header twice.
        Span<byte> first = stackalloc byte[FirstReadBytes];
        int read = PositionalRead.Fill(file, first, 0);
        if (read < Version1Size)
        {
            long length = RandomAccess.GetLength(file);
            throw new ListMmfFormatException(
                path,
                length < Version1Size
                    ? $"the file is {length:N0} bytes long, shorter than the {Version1Size}-byte ListMmf header."
                    : $"only {read} of the {Version1Size} header bytes could be read.");
        }

        int version = BinaryPrimitives.ReadInt32LittleEndian(first);
        if (version != Version2)
        {
            long count = BinaryPrimitives.ReadInt64LittleEndian(first[CountOffset..]);
            int code = BinaryPrimitives.ReadInt32LittleEndian(first[4..]);
            HeaderFormat? format = version is Version1 or ReplacedMark ? HeaderFormat.Version1 : null;
            header = new ListMmfHeader(format, version == ReplacedMark, code, count, count, 0, 0, Version1Size, 0, null, version);
            return true;
        }

        if (read < DescriptionOffset)
        {
            throw new ListMmfFormatException(path, $"the file is too short for its version 2 header: {read} of its first " +
                $"{DescriptionOffset} bytes could be read.");
        }

        int itemsOffset = BinaryPrimitives.ReadInt32LittleEndian(first[ItemsOffsetOffset..]);
        int descriptionLength = BinaryPrimitives.ReadInt32LittleEndian(first[DescriptionLengthOffset..]);
        if (itemsOffset < Version2Alignment || itemsOffset > MaximumVersion2Size || itemsOffset % Version2Alignment != 0
            || descriptionLength < 0 || descriptionLength > itemsOffset - DescriptionOffset)
        {
            throw new ListMmfFormatException(path, $"the version 2 header is damaged: it places the items at byte " +
                $"{itemsOffset:N0} and holds a description of {descriptionLength:N0} bytes.");
        }

        byte[] whole = new byte[DescriptionOffset + descriptionLength];
        int held = Math.Min(read, whole.Length);
        first[..held].CopyTo(whole);
        if (held < whole.Length && PositionalRead.Fill(file, whole.AsSpan(held), held) < whole.Length - held)
        {
            throw new ListMmfFormatException(path, $"the file ends inside its version 2 header's description " +
                $"({descriptionLength:N0} bytes from byte {DescriptionOffset}).");
        }

        uint stored = BinaryPrimitives.ReadUInt32LittleEndian(first[ChecksumOffset..]);
        if (stored != Checksum(whole))
        {
            if (!final)
            {
                header = default;
                return false;
            }

            throw new ListMmfFormatException(path, $"the version 2 header's checksum does not match its contents " +
                $"(stored 0x{stored:x8}, computed 0x{Checksum(whole):x8}): the header is damaged.");
        }

        ReadOnlySpan<byte> span = whole;
        int state = BinaryPrimitives.ReadInt32LittleEndian(span[StateOffset2..]);
        if (state is not (0 or ReplacedMark))
        {
            throw new ListMmfFormatException(path, $"the version 2 header's state is {state}, neither 0 nor {ReplacedMark} (replaced).");
        }

        header = new ListMmfHeader(
            HeaderFormat.Version2,
            state == ReplacedMark,
            BinaryPrimitives.ReadInt32LittleEndian(span[4..]),
            LiveCountOf(BinaryPrimitives.ReadInt64LittleEndian(span[CountOffset..])),
            BinaryPrimitives.ReadInt64LittleEndian(span[DurableCountOffset..]),
            BinaryPrimitives.ReadUInt64LittleEndian(span[SessionOffset..]),
            BinaryPrimitives.ReadInt32LittleEndian(span[GenerationOffset..]),
            itemsOffset,
            BinaryPrimitives.ReadInt32LittleEndian(span[ItemSizeOffset..]),
            descriptionLength == 0 ? null : whole[DescriptionOffset..]);
        return true;
    }

    private bool SameAs(ListMmfHeader other) =>
        Format == other.Format && RawVersion == other.RawVersion && IsReplaced == other.IsReplaced
        && DataTypeCode == other.DataTypeCode && Count == other.Count
        && DurableCount == other.DurableCount && Session == other.Session && Generation == other.Generation
        && ItemsOffset == other.ItemsOffset && ItemSize == other.ItemSize && Description.SequenceEqual(other.Description);

    /// <summary>
    /// Checks this header against the item type and the file length, as a process of boot <paramref name="session"/>
    /// reads it; see <see cref="ReadAndValidate{T}"/>.
    /// </summary>
    public void Validate<T>(string path, long fileLength, ulong session) where T : unmanaged
    {
        ValidateCode(path);
        if (!DataTypeInfo.CanHold<T>(DataType))
        {
            throw new ListMmfDataTypeException(path, $"the file holds {DataTypeInfo.Of(DataType).Describe()} and cannot be " +
                $"opened as {DataTypeInfo.ListName<T>()}.");
        }

        if (KnownFormat.DescribesItems && ItemSize != Unsafe.SizeOf<T>())
        {
            throw new ListMmfDataTypeException(path, $"the file holds items of {ItemSize} bytes, as its header records; " +
                $"{typeof(T).Name} is {Unsafe.SizeOf<T>()} bytes. Open it with the type it was written with.");
        }

        ValidateCount(path, fileLength, Unsafe.SizeOf<T>(), session);
    }

    /// <summary>The checks that need no item type: a known version and data-type code, and a version 2 item size that agrees with the code.</summary>
    public void ValidateCode(string path)
    {
        if (IsSealed)
        {
            throw new ListMmfFormatException(path, "it is sealed (version 3: compressed and read-only). Read it with " +
                "SealedListMmf<T>, or unseal it (SealedListMmf.Unseal, or 'listmmf unseal') to append to it.");
        }

        if (Format is null)
        {
            throw new ListMmfFormatException(path, $"not a ListMmf file, or one of a later format: its header starts with " +
                $"version {RawVersion}, and this library reads versions {Version1} (ListMmf 1.x) and {Version2}.");
        }

        if (!DataTypeInfo.IsDefined(DataTypeCode))
        {
            throw new ListMmfFormatException(path, $"the header has data-type code {DataTypeCode}, which is not a known ListMmf data type.");
        }

        if (Format.DescribesItems)
        {
            int size = DataTypeInfo.Of(DataType).Size;
            if (DataType == DataType.Bit || ItemSize <= 0 || (size > 0 && size != ItemSize))
            {
                throw new ListMmfFormatException(path, $"the version 2 header records items of {ItemSize} bytes for " +
                    $"{DataTypeInfo.Of(DataType).Describe()}, which no version 2 file holds.");
            }
        }
    }

    /// <summary>
    /// The counts a process of boot <paramref name="session"/> may read against the file: not negative, and their items
    /// of <paramref name="itemSize"/> bytes within <paramref name="fileLength"/>. A version 2 live count written in
    /// another boot is not one: after a power loss it may have reached the disk before its items, and before the
    /// growth of the file that holds them, and nothing reads it (a writer sets it back to the durable count).
    /// </summary>
    public void ValidateCount(string path, long fileLength, int itemSize, ulong session)
    {
        if (TrustsLiveCount(session))
        {
            ValidateOne(path, fileLength, itemSize, Count, "count");
        }

        if (KnownFormat.HasDurableCount)
        {
            ValidateOne(path, fileLength, itemSize, DurableCount, "durable count");
        }
    }

    /// <summary>
    /// Where a count a writer's open reads (the live count of version 1, the durable count of version 2; a writer
    /// sets the live count back to the durable count in another boot) passes the end of a file of
    /// <paramref name="fileLength"/> bytes: the words for a table's Repairs; null where none does.
    /// </summary>
    public string? CountsPastFile(long fileLength, int itemSize)
    {
        long room = Math.Max(0, fileLength - ItemsOffset) / itemSize;
        long count = KnownFormat.HasDurableCount ? DurableCount : Count;
        return count > room
            ? $"held a count of {count:N0} but its file room for only {room:N0} (its growth lost to a power loss); the " +
                $"count was lowered to {room:N0}."
            : null;
    }

    private void ValidateOne(string path, long fileLength, int itemSize, long count, string name)
    {
        if (count < 0)
        {
            throw new ListMmfFormatException(path, $"the header has a negative {name} ({count:N0}).");
        }

        long itemsThatFit = Math.Max(0, fileLength - ItemsOffset) / itemSize;
        if (count > itemsThatFit)
        {
            throw new ListMmfFormatException(
                path,
                $"the header claims {count:N0} items of {itemSize} bytes{(name == "count" ? "" : $" as its {name}")} but the " +
                    $"file is only {fileLength:N0} bytes long (room for {itemsThatFit:N0}); it was truncated or the count is damaged.");
        }
    }
}
