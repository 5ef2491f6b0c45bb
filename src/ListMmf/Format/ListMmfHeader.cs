using System;
using System.Buffers.Binary;
using System.IO;
using System.Runtime.CompilerServices;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// The 16-byte header at the start of every ListMmf file: Int32 version, Int32 data-type code, Int64 count,
/// little-endian. The items follow at offset 16.
/// </summary>
internal readonly struct ListMmfHeader
{
    /// <summary>Size of the header in bytes; the first item starts here.</summary>
    public const int Size = 16;

    /// <summary>The only version this library reads and writes; ListMmf 1.x writes 0 as well.</summary>
    public const int CurrentVersion = 0;

    /// <summary>
    /// The version a writer stores in a file it is about to replace by a new file under the same path (widened, or
    /// truncated at the beginning): readers that see it look at the path again. A file still at its path with this
    /// mark (its writer died before the rename) is read as current, and the next writer's open clears the mark.
    /// </summary>
    public const int ReplacedVersion = -1;

    /// <summary>Offset of the Int64 count, the published length of the list.</summary>
    public const int CountOffset = 8;

    public ListMmfHeader(int version, int dataTypeCode, long count)
    {
        Version = version;
        DataTypeCode = dataTypeCode;
        Count = count;
    }

    public int Version { get; }

    public int DataTypeCode { get; }

    public long Count { get; }

    public DataType DataType => (DataType)DataTypeCode;

    /// <summary>This header with another version: a file marked replaced that is still the one at its path is read as current.</summary>
    public ListMmfHeader WithVersion(int version) => new(version, DataTypeCode, Count);

    public static ListMmfHeader Parse(ReadOnlySpan<byte> bytes) => new(
        BinaryPrimitives.ReadInt32LittleEndian(bytes),
        BinaryPrimitives.ReadInt32LittleEndian(bytes[4..]),
        BinaryPrimitives.ReadInt64LittleEndian(bytes[CountOffset..]));

    public void Write(Span<byte> bytes)
    {
        BinaryPrimitives.WriteInt32LittleEndian(bytes, Version);
        BinaryPrimitives.WriteInt32LittleEndian(bytes[4..], DataTypeCode);
        BinaryPrimitives.WriteInt64LittleEndian(bytes[CountOffset..], Count);
    }

    /// <summary>How often a header read is repeated while a writer keeps changing the count under it.</summary>
    private const int ConsistentReadAttempts = 64;

    /// <summary>
    /// Reads the header of an open file and checks everything the list will trust before anything is mapped:
    /// the length, the version, the data-type code against <typeparamref name="T"/>, and that
    /// <c>16 + count * sizeof(T)</c> lies within the file. Reads only; the file is never changed here.
    /// </summary>
    /// <remarks>
    /// The file may have a live writer that grows it and then publishes a larger count. The length is read after
    /// the header, so it is at least what the count was published against: a healthy growing file never looks
    /// damaged. A file read is not atomic with the writer's store of the count, so the header is read again and
    /// used only when both reads agree (or, beside a writer that never pauses, the smaller count of the last try).
    /// </remarks>
    /// <exception cref="ListMmfFormatException">The header is damaged, from an unknown version, or claims more items than the file holds.</exception>
    /// <exception cref="ListMmfDataTypeException">The file holds items of another type than <typeparamref name="T"/>.</exception>
    public static ListMmfHeader ReadAndValidate<T>(SafeFileHandle file, string path) where T : unmanaged
    {
        // A file marked replaced is whole: its items are those of the moment it was marked.
        ListMmfHeader header = ReadConsistent(file, path, out long length);
        if (header.Version == ReplacedVersion)
        {
            header = header.WithVersion(CurrentVersion);
        }

        header.Validate<T>(path, length);
        return header;
    }

    /// <summary>
    /// Reads the header and then the file's length, again until two reads of the header agree; see
    /// <see cref="ReadAndValidate{T}"/>. Nothing is validated but the header's presence.
    /// </summary>
    public static ListMmfHeader ReadConsistent(SafeFileHandle file, string path, out long length)
    {
        for (int attempt = 1; ; attempt++)
        {
            ListMmfHeader header = Read(file, path);
            length = RandomAccess.GetLength(file);
            ListMmfHeader again = Read(file, path);
            if (again.Equals(header))
            {
                return header;
            }

            if (attempt == ConsistentReadAttempts && again.Version == header.Version && again.DataTypeCode == header.DataTypeCode)
            {
                // A writer that never pauses: the smaller of two reads is a count it published (a torn read would
                // have to be torn twice the same way to pass), and no larger than what the length was read against.
                return new ListMmfHeader(header.Version, header.DataTypeCode, Math.Min(header.Count, again.Count));
            }
        }
    }

    private static ListMmfHeader Read(SafeFileHandle file, string path)
    {
        Span<byte> bytes = stackalloc byte[Size];
        int read = RandomAccess.Read(file, bytes, 0);
        if (read < Size)
        {
            long length = RandomAccess.GetLength(file);
            throw new ListMmfFormatException(
                path,
                length < Size
                    ? $"the file is {length:N0} bytes long, shorter than the {Size}-byte ListMmf header."
                    : $"only {read} of the {Size} header bytes could be read.");
        }

        return Parse(bytes);
    }

    private bool Equals(ListMmfHeader other) =>
        Version == other.Version && DataTypeCode == other.DataTypeCode && Count == other.Count;

    /// <summary>Checks this header against the item type and the file length; see <see cref="ReadAndValidate{T}"/>.</summary>
    public void Validate<T>(string path, long fileLength) where T : unmanaged
    {
        ValidateCode(path);
        if (!DataTypeInfo.CanHold<T>(DataType))
        {
            throw new ListMmfDataTypeException(path, $"the file holds {DataTypeInfo.Of(DataType).Describe()} and cannot be " +
                $"opened as {DataTypeInfo.ListName<T>()}.");
        }

        ValidateCount(path, fileLength, Unsafe.SizeOf<T>());
    }

    /// <summary>The checks that need no item type: a known version and data-type code.</summary>
    public void ValidateCode(string path)
    {
        if (Version != CurrentVersion)
        {
            throw new ListMmfFormatException(path, $"not a ListMmf file, or one of a later format: its header starts with " +
                $"version {Version}, and this library reads version {CurrentVersion} only.");
        }

        if (!DataTypeInfo.IsDefined(DataTypeCode))
        {
            throw new ListMmfFormatException(path, $"the header has data-type code {DataTypeCode}, which is not a known ListMmf data type.");
        }
    }

    /// <summary>
    /// The count against the file: not negative, and its items of <paramref name="itemSize"/> bytes within
    /// <paramref name="fileLength"/>.
    /// </summary>
    public void ValidateCount(string path, long fileLength, int itemSize)
    {
        if (Count < 0)
        {
            throw new ListMmfFormatException(path, $"the header has a negative count ({Count:N0}).");
        }

        long itemsThatFit = (fileLength - Size) / itemSize;
        if (Count > itemsThatFit)
        {
            throw new ListMmfFormatException(
                path,
                $"the header claims {Count:N0} items of {itemSize} bytes but the file is only {fileLength:N0} bytes " +
                    $"long (room for {itemsThatFit:N0}); it was truncated or the count is damaged.");
        }
    }
}
