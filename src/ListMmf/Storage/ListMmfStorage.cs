using System;
using System.IO;
using System.Threading;
using CommunityToolkit.HighPerformance.Buffers;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// The file under one list, through its whole life: the writer lock, creation under a temporary name and rename
/// (durably, directory included), header validation, mapping, the growth policy, the ordered durable flush and
/// release. The list above it keeps only pointers into <see cref="Pointer"/>.
/// </summary>
internal sealed unsafe partial class ListMmfStorage : IDisposable, IReplaceableStorage
{
    /// <summary>File lengths are multiples of this, which every page size and the Windows view alignment divide.</summary>
    private const long LengthGranularity = 64 * 1024;

    /// <summary>The largest file length this library creates or grows to: the largest multiple of the granularity.</summary>
    private const long MaximumLength = long.MaxValue / LengthGranularity * LengthGranularity;

    private const int VerifyChunkBytes = 1 << 20;

    private readonly FileStream _file;

    private readonly FileMapping _mapping;

    private readonly BackgroundPrefault? _ahead;

    private WriterLock? _writerLock;

    /// <summary>ListMmf 1.x's lock file, which this writer of a version 1 file holds beside its own lock (<see cref="ListMmf1xLock"/>).</summary>
    private ListMmf1xLock? _legacyLock;

    /// <summary>Whether this writer holds the lock on the data file's own descriptor (<see cref="StoragePlatform.LockData"/>).</summary>
    private bool _dataLocked;

    /// <summary>Whether the file grew since its length was last made durable (<see cref="MakeGrowthDurable"/>).</summary>
    private bool _growthPending;

    private readonly bool _prefault;

    private readonly bool _populate;

    private long _writebackStarted;

    private ListMmfStorage(
        string path,
        bool writable,
        FileStream file,
        FileMapping mapping,
        WriterLock? writerLock,
        ListMmfHeader header,
        int itemSize,
        MappingBackend backend,
        ListMmfOptions options)
    {
        Format = header.KnownFormat;
        ItemsOffset = header.ItemsOffset;
        MarkOffset = header.MarkOffset;
        ItemSize = itemSize;
        DescriptionJson = header.Description.ToArray();
        TrustsLiveCount = writable || header.TrustsLiveCount(BootSession.Current);
        Path = path;
        RealPath = writable ? StoragePlatform.Current.CanonicalPath(System.IO.Path.GetFullPath(path)) : path;
        IsWritable = writable;
        _file = file;
        _mapping = mapping;
        _writerLock = writerLock;
        DataType = header.DataType;
        Backend = backend;
        _prefault = options.PrefaultAhead;
        _ahead = _prefault && writable ? new BackgroundPrefault(mapping) : null;
        _populate = options.PopulateOnOpen;
        WritesBehind = options.WriteBehind && writable && StoragePlatform.Current.StartsWriteback;
        CountMask = ~Format.LiveCountGuard;
        CountGuard = writable ? Format.LiveCountGuard : 0;
        if (CountGuard != 0 && mapping.Length >= ItemsOffset)
        {
            // A version 2 file a writer of an earlier build left without the guard gets it at once, at rest as well.
            long* field = (long*)(Pointer + ListMmfHeader.CountOffset);
            Volatile.Write(ref *field, Volatile.Read(ref *field) | CountGuard);
        }
    }

    public string Path { get; }

    /// <summary>
    /// Where a writer's file was when it was opened, symbolic links resolved: a replacement acts on this file, whatever
    /// a link at <see cref="Path"/> names by then. A reader's is its path.
    /// </summary>
    public string RealPath { get; }

    public bool IsWritable { get; }

    public DataType DataType { get; }

    public MappingBackend Backend { get; }

    /// <summary>The rules of the file's format: version 1 (ListMmf 1.x) or 2.</summary>
    public HeaderFormat Format { get; }

    /// <summary>Where the first item starts in the file.</summary>
    public int ItemsOffset { get; }

    /// <summary>Where the header keeps the replaced mark: the version field (version 1) or the state field (version 2).</summary>
    public int MarkOffset { get; }

    /// <summary>The size of the items this storage was opened for.</summary>
    public int ItemSize { get; }

    /// <summary>Version 2: the description the header holds (UTF-8 JSON), empty where it holds none.</summary>
    public byte[] DescriptionJson { get; }

    /// <summary>
    /// Whether the live count is this open's count: always for a writer (which made it so at open) and for version 1;
    /// for a version 2 reader only where its writer wrote it in this boot. A reader of a file last written in an
    /// earlier boot reads the durable count: the live one may have reached the disk before its items.
    /// </summary>
    public bool TrustsLiveCount { get; }

    /// <summary>Where the count this open reads lies: the live count, or the durable count (<see cref="TrustsLiveCount"/>).</summary>
    public int PublishedCountOffset => TrustsLiveCount ? ListMmfHeader.CountOffset : ListMmfHeader.DurableCountOffset;

    /// <summary>The count this open reads now, at <see cref="PublishedCountOffset"/>.</summary>
    public long PublishedCount => Volatile.Read(ref *(long*)(Pointer + PublishedCountOffset)) & CountMask;

    /// <summary>
    /// The count a power loss now keeps: version 2's durable count, raised by each flush after its items; version 1,
    /// which has none, the count itself.
    /// </summary>
    public long DurableCount => Format.HasDurableCount
        ? Volatile.Read(ref *(long*)(Pointer + ListMmfHeader.DurableCountOffset))
        : LiveCount;

    /// <summary>
    /// What a count read from the header is masked with: a version 2 file's live count field carries
    /// <see cref="ListMmfHeader.LiveCountGuard"/>, taken off; a version 1 count is read as it is.
    /// </summary>
    public long CountMask { get; }

    /// <summary>What this writer stores its live counts with: <see cref="ListMmfHeader.LiveCountGuard"/> in a version 2 file.</summary>
    public long CountGuard { get; }

    /// <summary>The live count, as this writer reads and publishes it (<see cref="CountMask"/>, <see cref="CountGuard"/>).</summary>
    private long LiveCount
    {
        get => Volatile.Read(ref *(long*)(Pointer + ListMmfHeader.CountOffset)) & CountMask;
        set => Volatile.Write(ref *(long*)(Pointer + ListMmfHeader.CountOffset), value | CountGuard);
    }

    /// <summary>The format of a new file made from this one (a replacement's copy, a widening): the same format and description.</summary>
    public NewFileFormat SameFormat => new(Format.Version, DescriptionJson);

    /// <summary>The mapped first byte of the file (the header). Changes when the mapping grows or follows the writer.</summary>
    public byte* Pointer => _mapping.Pointer;

    /// <summary>How many bytes from <see cref="Pointer"/> are mapped and backed by the file.</summary>
    public long Length => _mapping.Length;

    /// <summary>Marks the file replaced, just before the new file is renamed over it, for the readers that map it.</summary>
    public void MarkReplaced() => Volatile.Write(ref *(int*)(Pointer + MarkOffset), ListMmfHeader.ReplacedMark);

    /// <summary>Takes the mark back: the rename failed, so this is still the list's file.</summary>
    public void ClearReplacedMark() => Volatile.Write(ref *(int*)(Pointer + MarkOffset), 0);

    /// <summary>Whether this storage and <paramref name="other"/> map the same file; false where the system cannot tell.</summary>
    public bool IsSameFileAs(ListMmfStorage other)
    {
        (ulong, ulong)? mine = Identity;
        return mine is null || mine == other.Identity;
    }

    public (ulong Device, ulong File)? Identity => StoragePlatform.Current.IdentityOf(_file.SafeFileHandle);

    /// <summary>
    /// Whether the file at <see cref="RealPath"/> is still this one (checked by device and inode, without opening
    /// it); true where the system cannot tell.
    /// </summary>
    public bool IsStillAtRealPath() => FileIdentity.IsStillAt(_file.SafeFileHandle, RealPath);

    /// <summary>Whether the header in the mapping is marked replaced.</summary>
    public bool IsMarkedReplaced => Volatile.Read(ref *(int*)(Pointer + MarkOffset)) == ListMmfHeader.ReplacedMark;

    /// <summary>
    /// Gives this writer's lock to <paramref name="next"/>, the storage of the file that replaced this one, so that
    /// this one can be closed first.
    /// </summary>
    public void HandLockTo(ListMmfStorage next)
    {
        next._writerLock = _writerLock;
        _writerLock = null;
        next._legacyLock ??= _legacyLock;
        _legacyLock = null;
    }

    /// <summary>Maps what a writer has added to the file since; returns the mapped length.</summary>
    public long Refresh() => _mapping.Refresh();

    /// <summary>
    /// Validates the header as read from the file now, and reads every item below its count through the file, so
    /// that a damaged header or an unreadable block is reported as an exception rather than met by a later read of
    /// the mapping (where an I/O error is a signal the runtime cannot catch).
    /// </summary>
    public void Verify<T>(IProgress<double>? progress)
        where T : unmanaged
    {
        long offset = 0;
        try
        {
            ListMmfHeader header = ListMmfHeader.ReadAndValidate<T>(_file.SafeFileHandle, Path, BootSession.Current);
            long count = header.PublishedCount(BootSession.Current);
            long end = header.ItemsOffset + (count * sizeof(T));
            using SpanOwner<byte> buffer = SpanOwner<byte>.Allocate(VerifyChunkBytes);
            for (offset = header.ItemsOffset; offset < end;)
            {
                int read = RandomAccess.Read(_file.SafeFileHandle, buffer.Span[..(int)Math.Min(buffer.Length, end - offset)], offset);
                if (read == 0)
                {
                    throw new ListMmfFormatException(Path, $"the file ends at byte {offset:N0}, before the " +
                        $"{count:N0} items its header claims.");
                }

                offset += read;
                progress?.Report((double)offset / end);
            }
        }
        catch (IOException exception) when (exception is not ListMmfException)
        {
            throw new ListMmfException(Path, $"the file could not be read at byte offset {offset:N0}: {exception.Message}", exception);
        }
    }

    /// <summary>
    /// Starts reading <paramref name="length"/> bytes of the file at <paramref name="offset"/> into the page cache without
    /// waiting (<see cref="StoragePlatform.StartReading"/>), so that the mapping's faults there read no more than that.
    /// </summary>
    public void StartReading(long offset, long length) => StoragePlatform.Current.StartReading(_file.SafeFileHandle, offset, length);

    /// <summary>Page reads of this file beside its mapping, for searches while the file is cold (<see cref="ColdReader"/>).</summary>
    public ColdReader OpenColdReader() => StoragePlatform.Current.OpenColdReader(_file.SafeFileHandle, Path);

    /// <summary>Whether most of the pages of the first <paramref name="count"/> items are in memory.</summary>
    public bool ItemsMostlyResident(long count) =>
        StoragePlatform.Current.IsMostlyResident(Pointer + ItemsOffset, Math.Min(count * ItemSize, Length - ItemsOffset));

    /// <summary>Keeps the mapping's memory mapped until <see cref="ReleaseMapping"/>, even past <see cref="Dispose"/>.</summary>
    /// <exception cref="ObjectDisposedException">The storage was disposed.</exception>
    public void RetainMapping() => _mapping.Retain();

    /// <summary>Gives back one <see cref="RetainMapping"/>.</summary>
    public void ReleaseMapping() => _mapping.Release();

    /// <summary>
    /// Unmaps the file (or leaves that to the last <see cref="ReleaseMapping"/>) and closes it; a writer also gives up
    /// the lock.
    /// </summary>
    public void Dispose()
    {
        try
        {
            try
            {
                _ahead?.Dispose();
                MakeLiveCountDurable();
            }
            finally
            {
                _mapping.Dispose();
            }
        }
        finally
        {
            try
            {
                StoragePlatform.Current.Close(_file, _dataLocked);
            }
            finally
            {
                _legacyLock?.Dispose();
                _writerLock?.Dispose();
            }
        }
    }

    /// <summary>
    /// The file length for <paramref name="capacity"/> items of <paramref name="itemSize"/> bytes after a header of
    /// <paramref name="itemsOffset"/> bytes, rounded up to the granularity.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">No file can be that long.</exception>
    public static long LengthFor(long capacity, int itemSize, string paramName, int itemsOffset)
    {
        if (capacity < 0 || capacity > (MaximumLength - itemsOffset) / itemSize)
        {
            ThrowHelper.ArgumentOutOfRange(paramName, capacity, $"A capacity must be at least 0 and at most " +
                $"{(MaximumLength - itemsOffset) / itemSize:N0} items of {itemSize} bytes.");
        }

        return RoundUpLength(itemsOffset + (capacity * itemSize));
    }

    /// <summary>The file length for <paramref name="capacity"/> items in this file; see <see cref="LengthFor(long, int, string, int)"/>.</summary>
    public long LengthFor(long capacity, string paramName) => LengthFor(capacity, ItemSize, paramName, ItemsOffset);

    private static long RoundUpLength(long length) => length > MaximumLength
        ? MaximumLength
        : (length + LengthGranularity - 1) / LengthGranularity * LengthGranularity;
}
