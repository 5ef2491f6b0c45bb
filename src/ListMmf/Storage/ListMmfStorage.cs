using System;
using System.Buffers.Binary;
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
internal sealed unsafe class ListMmfStorage : IDisposable, IReplaceableStorage
{
    private const long MinimumGrowthBytes = 64 * 1024;

    /// <summary>
    /// How far ahead of its items a writer with <see cref="ListMmfOptions.PrefaultCapacity"/> keeps the pages faulted
    /// in, and how much more it faults in on a thread-pool thread: for 192-byte items one prefault every 5,461
    /// appends (10,922 where it runs on to the end of a 2 MiB page), which the append that reaches it takes over.
    /// </summary>
    internal const long PrefaultWindow = 1L << 20;

    /// <summary>
    /// How far past an append a writer that has caught up with its prefaulted pages (at open, after a growth or a new
    /// view) faults in on its own thread, before the background takes the next window: the end of the large page
    /// this reaches into, where the mapping asked for them.
    /// </summary>
    internal const long CaughtUpReach = 256L << 10;

    /// <summary>
    /// How many bytes of appended items a writer with <see cref="ListMmfOptions.WriteBehind"/> lets accumulate before it
    /// starts their writeback.
    /// </summary>
    private const long WriteBehindWindow = 2L << 20;

    /// <summary>File lengths are multiples of this, which every page size and the Windows view alignment divide.</summary>
    private const long LengthGranularity = 64 * 1024;

    /// <summary>The largest file length this library creates or grows to: the largest multiple of the granularity.</summary>
    private const long MaximumLength = long.MaxValue / LengthGranularity * LengthGranularity;

    private const int VerifyChunkBytes = 1 << 20;

    /// <summary>How many flushed bytes a value column's flush walks again rather than take a second barrier (<see cref="FlushTogether"/>).</summary>
    private const long OneRangeFlushBytes = 32L << 20;

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
        _prefault = options.PrefaultCapacity;
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

    /// <summary>
    /// Opens the list file at <paramref name="path"/> (a full path): a writer takes the lock (as
    /// <paramref name="opening"/> says), removes what an interrupted create or replacement left behind, creates a
    /// missing file and clears the mark of a replacement that died before its rename; a reader follows a replacement
    /// made as it opens (<see cref="FileReplacement.OpenForReading"/>, up to <paramref name="replacedAttempts"/>
    /// opens). Then the header is validated for <typeparamref name="T"/> and the file mapped.
    /// </summary>
    public static ListMmfStorage Open<T>(
        string path,
        bool writable,
        ListMmfOptions options,
        DataType dataType,
        bool requireDataType,
        WriterOpening opening = WriterOpening.Locked,
        int replacedAttempts = FileReplacement.OpenAttempts,
        NewFileFormat? newFile = null)
        where T : unmanaged =>
        Open(path, writable, options, dataType, requireDataType, opening, replacedAttempts, newFile, sizeof(T),
            static (header, path, length) => header.Validate<T>(path, length, BootSession.Current));

    /// <summary>
    /// Opens a file as <see cref="Open{T}"/> does, for items known only by their size (<paramref name="itemSize"/>
    /// bytes) and data-type code: for what moves the bytes of any file (<see cref="FormatUpgrade"/>).
    /// </summary>
    public static ListMmfStorage OpenItems(
        string path, bool writable, int itemSize, DataType dataType, WriterOpening opening, NewFileFormat? newFile = null) =>
        Open(path, writable, ListMmfOptions.Default, dataType, requireDataType: true, opening, FileReplacement.OpenAttempts,
            newFile, itemSize, (header, path, length) =>
            {
                header.ValidateCode(path);
                header.ValidateCount(path, length, itemSize, BootSession.Current);
            });

    private static ListMmfStorage Open(
        string path,
        bool writable,
        ListMmfOptions options,
        DataType dataType,
        bool requireDataType,
        WriterOpening opening,
        int replacedAttempts,
        NewFileFormat? newFile,
        int itemSize,
        Action<ListMmfHeader, string, long> validate)
    {
        MappingBackend backend = FileMappings.Resolve(options.Backend);
        NewFileFormat format = newFile ?? new NewFileFormat(options.FormatVersion, null);
        long initialLength = LengthFor(options.InitialCapacity, itemSize, nameof(options), format.ItemsOffset);
        ThrowIfDirectory(path);
        WriterLock? writerLock = null;
        FileStream? file = null;
        bool dataLocked = false;
        ListMmf1xLock? legacyLock = null;
        string? repair = null;
        try
        {
            ListMmfHeader header;
            long length;
            if (writable)
            {
                ThrowIfDirectoryMissing(path);
                writerLock = opening == WriterOpening.Locked ? WriterLock.Acquire(path) : null;
                if (opening != WriterOpening.Copy)
                {
                    FinishInterrupted(path);
                }

                if (opening == WriterOpening.Copy || !ExistsThroughLinks(path))
                {
                    if (!options.CreateIfMissing)
                    {
                        throw new FileNotFoundException($"'{path}' does not exist, and ListMmfOptions.CreateIfMissing is false.", path);
                    }

                    // A replacement's copy is created at its own name, never where a link planted there leads; a list's
                    // new file is created where a link at the path leads (as an open that creates a file does), if the
                    // link is one the user may follow (LinkRule).
                    LinkRule.ThrowIfForeign(path);
                    string created = opening == WriterOpening.Copy || new FileInfo(path).LinkTarget is null
                        ? path
                        : StoragePlatform.Current.CanonicalPath(path);
                    Create(created, dataType, itemSize, initialLength, format, inPlace: opening == WriterOpening.Copy);
                }

                file = OpenStream(path, options.InTableFolder);
                writerLock?.ThrowUnlessGuards(file.SafeFileHandle, path);
                if (opening != WriterOpening.Copy && !StoragePlatform.Current.LockData(file.SafeFileHandle))
                {
                    ThrowHelper.WriterUnderAnotherName(path, "a file has one writer at a time.");
                }

                dataLocked = opening != WriterOpening.Copy;
                header = ListMmfHeader.ReadConsistent(file.SafeFileHandle, path, out length);
                if (header.Format?.OpenedBy1x == true && opening == WriterOpening.Locked)
                {
                    legacyLock = ListMmf1xLock.Acquire(path);
                }

                if (options.FitCountsToFile && header.Format is not null && header.CountsPastFile(length, itemSize) is { } fitted)
                {
                    header = FitCountsToFile(file.SafeFileHandle, path, header, length, itemSize);
                    repair = fitted;
                }

                // Checked before anything is changed: a bad file is never written to.
                validate(header.Unmarked(), path, length);
                if (header.IsReplaced)
                {
                    header = ClearReplacedMark(file, path, header);
                }

                if (header.KnownFormat.HasDurableCount)
                {
                    header = BeginWriterSession(file.SafeFileHandle, path, header);
                }
            }
            else
            {
                SafeFileHandle handle = FileReplacement.OpenForReading(path, replacedAttempts, out header, out length, options.InTableFolder);
                file = Wrap(handle, FileAccess.Read);
            }

            validate(header, path, length);
            if (requireDataType && header.DataType != dataType)
            {
                throw new ListMmfDataTypeException(path, $"the file holds {DataTypeInfo.Of(header.DataType).Describe()}, not " +
                    $"{DataTypeInfo.Of(dataType).Describe()}.");
            }

            FileMapping mapping = FileMappings.Open(file, path, writable, backend);
            return new ListMmfStorage(path, writable, file, mapping, writerLock, header, itemSize, backend, options)
            {
                _dataLocked = dataLocked,
                _legacyLock = legacyLock,
                Repair = repair,
            };
        }
        catch
        {
            if (dataLocked)
            {
                StoragePlatform.Current.UnlockData(file!.SafeFileHandle);
            }

            file?.Dispose();
            legacyLock?.Dispose();
            writerLock?.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Under the writer lock: finishes a replacement a killed writer left half done, and removes what a killed create
    /// (beside the path) or replacement (beside the real file, symbolic links resolved) left behind.
    /// </summary>
    public static void FinishInterrupted(string path)
    {
        string target = StoragePlatform.Current.CanonicalPath(path);
        StoragePlatform.Current.RecoverReplacement(target);
        DurableFile.RemoveLeftover(path);
        if (target != path)
        {
            DurableFile.RemoveLeftover(target);
        }
    }

    /// <summary>
    /// The writer, under the lock, found the file at the path marked replaced: its last writer died between the
    /// mark and the rename, so this is the list's file, whole. The mark goes, so that its readers stop looking for
    /// a replacement.
    /// </summary>
    private static ListMmfHeader ClearReplacedMark(FileStream file, string path, ListMmfHeader header)
    {
        Span<byte> bytes = stackalloc byte[sizeof(int)];
        bytes.Clear();
        try
        {
            RandomAccess.Write(file.SafeFileHandle, bytes, header.MarkOffset);
        }
        catch (IOException exception) when (exception is not ListMmfException)
        {
            throw new ListMmfException(path, $"the file is marked replaced by a replacement that was interrupted, and " +
                $"the mark could not be cleared: {exception.Message}", exception);
        }

        return header.Unmarked();
    }

    /// <summary>
    /// Lowers counts that pass the file's end to the items it holds, durably, for a writer of a file whose counts
    /// publish nothing by themselves (a table's value column, <see cref="ListMmfOptions.FitCountsToFile"/>): its
    /// growth was lost to a power loss after a count past it reached the disk (a file written before issue 64's
    /// fix). What the table published is whatever its time column says; a row among the values lost is then lowered
    /// by the table, in its Repairs.
    /// </summary>
    private static ListMmfHeader FitCountsToFile(SafeFileHandle file, string path, ListMmfHeader header, long length, int itemSize)
    {
        long room = Math.Max(0, length - header.ItemsOffset) / itemSize;
        Span<byte> count = stackalloc byte[sizeof(long)];
        try
        {
            if (header.Count > room)
            {
                BinaryPrimitives.WriteInt64LittleEndian(count, room | header.KnownFormat.LiveCountGuard);
                RandomAccess.Write(file, count, ListMmfHeader.CountOffset);
            }

            if (header.KnownFormat.HasDurableCount && header.DurableCount > room)
            {
                BinaryPrimitives.WriteInt64LittleEndian(count, room);
                RandomAccess.Write(file, count, ListMmfHeader.DurableCountOffset);
            }

            StoragePlatform.Current.FlushFile(file, path);
        }
        catch (IOException exception) when (exception is not ListMmfException)
        {
            throw new ListMmfException(path, $"the header's counts pass the file's end and could not be lowered to the " +
                $"{room:N0} items it holds: {exception.Message}", exception);
        }

        return ListMmfHeader.ReadConsistent(file, path, out _);
    }

    /// <summary>
    /// What a writer's open repaired in the file, for the table's Repairs: counts past its end lowered
    /// (<see cref="FitCountsToFile"/>); null for nothing.
    /// </summary>
    public string? Repair { get; private init; }

    /// <summary>
    /// A version 2 writer's open, under its lock: where the live count was written in another boot (a power loss may
    /// have come between: it may be newer than its items), it goes back to the durable count, over which the appends
    /// then go on, and the header records this boot and one more generation. One write of the header's first sector,
    /// not synchronized: until the system writes it back, the disk holds the earlier boot's session, whose readers
    /// trust the durable count as well. A file last written in this boot is not written at all.
    /// </summary>
    private static ListMmfHeader BeginWriterSession(SafeFileHandle file, string path, ListMmfHeader header)
    {
        ulong session = BootSession.Current;
        if (header.TrustsLiveCount(session))
        {
            return header;
        }

        byte[] bytes = new byte[ListMmfHeader.DescriptionOffset + header.Description.Length];
        try
        {
            RandomAccess.Read(file, bytes, 0);
            ListMmfHeader.BeginSession(bytes, header.DurableCount, session);
            RandomAccess.Write(file, bytes.AsSpan(0, ListMmfHeader.MutableBytes), 0);
        }
        catch (IOException exception) when (exception is not ListMmfException)
        {
            throw new ListMmfException(path, $"the header could not be written at the writer's open: {exception.Message}", exception);
        }

        return ListMmfHeader.ReadConsistent(file, path, out _);
    }

    /// <summary>Whether a file is at the path, symbolic links followed: File.Exists calls a dangling link a file.</summary>
    private static bool ExistsThroughLinks(string path) =>
        File.Exists(path)
        && (new FileInfo(path).LinkTarget is null || File.ResolveLinkTarget(path, returnFinalTarget: true) is { Exists: true });

    private static FileStream OpenStream(string path, bool nameMustBeFile) => Wrap(OpenForWriting(path, nameMustBeFile), FileAccess.ReadWrite);

    private static FileStream Wrap(SafeFileHandle handle, FileAccess access)
    {
        try
        {
            return new FileStream(handle, access, bufferSize: 0);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Opens an existing file as <see cref="OpenExisting"/> does, as a stream without a buffer: for the readers that map
    /// a file through <see cref="FileMappings"/> (a sealed file, the start of any file).
    /// </summary>
    public static FileStream OpenExistingStream(string path, FileAccess access, bool nameMustBeFile = false) =>
        Wrap(OpenExisting(path, access, FileOptions.None, nameMustBeFile), access);

    /// <summary>
    /// Opens an existing file for the list or a file reader, with the errors the library documents: a missing file or
    /// directory is <see cref="FileNotFoundException"/>, a directory is a <see cref="ListMmfException"/>; a sidecar this
    /// process holds as a writer's lock is refused, since closing the open would release the lock. Only a regular
    /// file is opened, through no link another user planted (<see cref="LinkRule"/>), and with
    /// <paramref name="nameMustBeFile"/> (a table's column) through no link at the name at all.
    /// </summary>
    public static SafeFileHandle OpenExisting(string path, FileAccess access, FileOptions options, bool nameMustBeFile = false)
    {
        ThrowIfDirectory(path);
        WriterLock.ThrowIfHeld(path);
        try
        {
            return StoragePlatform.Current.OpenExistingFile(path, access, options, nameMustBeFile);
        }
        catch (DirectoryNotFoundException exception)
        {
            throw new FileNotFoundException($"Could not find file '{path}': its directory does not exist.", path, exception);
        }
    }

    /// <summary>
    /// The writer's open: a file that cannot be written (a read-only file system, or no permission) is a
    /// <see cref="ListMmfException"/>.
    /// </summary>
    private static SafeFileHandle OpenForWriting(string path, bool nameMustBeFile)
    {
        try
        {
            return OpenExisting(path, FileAccess.ReadWrite, FileOptions.None, nameMustBeFile);
        }
        catch (Exception exception)
            when (exception is UnauthorizedAccessException or (IOException and not FileNotFoundException and not ListMmfException))
        {
            throw new ListMmfException(path, $"the file cannot be opened for writing: {exception.Message}", exception);
        }
    }

    /// <summary>
    /// Grows the file to hold at least <paramref name="requiredBytes"/> bytes, by doubling it up to the mapping's
    /// <see cref="FileMapping.LargestGrowthStep"/> (64 MiB where growth extends the file in place, 1 GiB where it maps a
    /// new view), so that appends cost amortized O(1) and a large file does not double at once.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">No file can be that long.</exception>
    /// <exception cref="ListMmfException">The file system refused the space; the file keeps its old length.</exception>
    public void Grow(long requiredBytes)
    {
        long length = _mapping.Length;
        long step = Math.Clamp(length, MinimumGrowthBytes, _mapping.LargestGrowthStep);
        long newLength = RoundUpLength(Math.Max(requiredBytes, length > MaximumLength - step ? MaximumLength : length + step));
        CancelBackgroundPrefault();
        byte* before = _mapping.Pointer;
        _mapping.Grow(newLength);
        _growthPending = true;
        if (_mapping.Pointer != before)
        {
            // A new view has its own page tables: nothing of it is faulted in yet.
            PrefaultedEnd = 0;
        }
    }

    /// <summary>
    /// Whether the writer keeps the pages just ahead of its items faulted in (<see cref="ListMmfOptions.PrefaultCapacity"/>):
    /// then it calls <see cref="PrefaultAhead"/> whenever its appends would pass <see cref="PrefaultedEnd"/>.
    /// </summary>
    public bool PrefaultsAhead => _prefault && IsWritable;

    /// <summary>The end of the bytes <see cref="PrefaultAhead"/> has faulted in through the current mapping.</summary>
    public long PrefaultedEnd { get; private set; }

    /// <summary>
    /// Makes the pages from <paramref name="from"/> (where the writer's items end) to <paramref name="to"/> (where the
    /// append about to be made ends) faulted in, as far as one window reaches, and starts faulting in the
    /// <see cref="PrefaultWindow"/> after them on a thread-pool thread (<see cref="BackgroundPrefault"/>), which the
    /// next call takes over. Each window runs on to the end of a large page where the mapping asked for them, and is
    /// faulted in writable and touched from user mode: the appends into it then take no page fault, not even the one
    /// a virtual machine takes on the first access from user mode to a page the kernel faulted in (benchmarks/README.md,
    /// "Figures behind the code"). No more than two windows ahead of the writer, because pages
    /// faulted in long before they are written may be paged out again meanwhile (these machines page out what is
    /// untouched for a minute).
    /// </summary>
    /// <returns>The new <see cref="PrefaultedEnd"/>: at most the file's length.</returns>
    public long PrefaultAhead(long from, long to)
    {
        TakeBackgroundPrefault();
        if (PrefaultedEnd < to)
        {
            // Caught up: only what the appends need first is faulted in here, so that the zeroing of the fresh pages
            // after it runs beside them from the start. A growth of a full file otherwise faulted in a window of 2-3
            // MiB of fresh memory per file on the writer's thread (benchmarks/README.md, "Append then durable").
            long start = Math.Max(from, PrefaultedEnd);
            long length = _ahead is null ? PrefaultWindow : Math.Max(to - start, 0) + CaughtUpReach;
            PrefaultedEnd = _mapping.Prefault(start, length);
        }

        // Past this append, so that the background never faults in a page the writer is writing.
        long next = Math.Max(PrefaultedEnd, to);
        if (_ahead is not null && next < _mapping.Length)
        {
            _ahead.Start(next, PrefaultWindow);
        }

        return PrefaultedEnd;
    }

    /// <summary>
    /// Ends the background prefault (<see cref="BackgroundPrefault.Finish"/>): its pages join the prefaulted ones,
    /// which they follow, or the pages this append wrote that lie between.
    /// </summary>
    private void TakeBackgroundPrefault()
    {
        if (_ahead is not null)
        {
            PrefaultedEnd = Math.Max(PrefaultedEnd, _ahead.Finish());
        }
    }

    /// <summary>
    /// Before anything that moves, cuts or unmaps the mapping: ends the background prefault, waiting for it where it
    /// runs, dropping it where it has not started (<see cref="BackgroundPrefault.Cancel"/>).
    /// </summary>
    private void CancelBackgroundPrefault()
    {
        if (_ahead is not null)
        {
            PrefaultedEnd = Math.Max(PrefaultedEnd, _ahead.Cancel());
        }
    }

    /// <summary>
    /// Whether the writer starts the writeback of its items as it goes (<see cref="ListMmfOptions.WriteBehind"/>):
    /// then it calls <see cref="WriteBehind"/> whenever its appends reach <see cref="WriteBehindEnd"/>.
    /// </summary>
    public bool WritesBehind { get; }

    /// <summary>Where in the file the appends next start a writeback.</summary>
    public long WriteBehindEnd { get; private set; }

    /// <summary>
    /// Starts writing back the items below <paramref name="end"/> (the end of the items written so far) that no
    /// earlier call started, in whole <see cref="WriteBehindWindow"/> blocks, never the first page (see
    /// <see cref="StartFlush"/>). The block that <paramref name="end"/> falls in is left for the writes still to come:
    /// the page cache keeps a file in folios of up to 2 MiB, written back whole, and one started under the writer
    /// would be dirtied and written again.
    /// </summary>
    public void WriteBehind(long end)
    {
        long from = Math.Max(_writebackStarted, Environment.SystemPageSize);
        long to = end / WriteBehindWindow * WriteBehindWindow;
        if (to > from)
        {
            StoragePlatform.Current.StartWriteback(_file.SafeFileHandle, from, to - from);
            _writebackStarted = to;
        }

        WriteBehindEnd = end + WriteBehindWindow;
    }

    /// <summary>
    /// A new file's writer: copies the first <paramref name="count"/> items of <paramref name="source"/> (items of the
    /// same size) after its own, growing the file as needed, and publishes them.
    /// </summary>
    public void AppendItemsOf(ListMmfStorage source, long count) => AppendItems(source.Pointer + source.ItemsOffset, count);

    /// <summary>
    /// A new file's writer: copies the <paramref name="count"/> items at <paramref name="source"/> after its own,
    /// growing the file as needed, and publishes them.
    /// </summary>
    public void AppendItems(byte* source, long count)
    {
        long live = LiveCount;
        long bytes = count * ItemSize;
        long end = ItemsOffset + (live * ItemSize) + bytes;
        if (end > _mapping.Length)
        {
            Grow(LengthFor(live + count, nameof(count)));
        }

        Buffer.MemoryCopy(source, Pointer + ItemsOffset + (live * ItemSize), bytes, bytes);
        LiveCount = live + count;
    }

    /// <summary>Whether <see cref="Shrink"/> can cut this file where it is, while mapped (see <see cref="FileMapping.CanShrinkInPlace"/>).</summary>
    public bool CanShrinkInPlace => _mapping.CanShrinkInPlace;

    /// <summary>Cuts the file to <paramref name="length"/> bytes, which hold every published item.</summary>
    /// <exception cref="ListMmfException">The file system refused; the file keeps its length.</exception>
    public void Shrink(long length)
    {
        CancelBackgroundPrefault();
        _mapping.Shrink(length);
        PrefaultedEnd = Math.Min(PrefaultedEnd, length);
    }

    /// <summary>
    /// What the options ask for once the list is open and its published items end at byte <paramref name="end"/>:
    /// the pages just after it faulted in writable (<see cref="ListMmfOptions.PrefaultCapacity"/>), the items
    /// before it read in (<see cref="ListMmfOptions.PopulateOnOpen"/>).
    /// </summary>
    public void Opened(long end)
    {
        // What was there before this open is not this writer's to start.
        _writebackStarted = end / Environment.SystemPageSize * Environment.SystemPageSize;
        WriteBehindEnd = end + WriteBehindWindow;
        if (PrefaultsAhead)
        {
            PrefaultAhead(end, end);
        }

        if (_populate)
        {
            _mapping.Populate(ItemsOffset, end - ItemsOffset);
        }
    }

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
    /// Makes the first <paramref name="count"/> items and the count durable, items before the count that covers them,
    /// every step checked. Version 2: the items are synchronized, then the header's durable count is raised to
    /// <paramref name="count"/> and the header synchronized: two barriers, and since readers of a later boot trust only
    /// the durable count, a live count the system writes back on its own before its items is never believed after a
    /// power loss. Version 1: the pages after the first, then the first page (the header with the count and the first
    /// items); the system may still write a later count back before its items between two flushes.
    /// </summary>
    /// <param name="from">The first item written since the last flush (the items below it are durable already).</param>
    /// <param name="count">The items to make durable.</param>
    public void Flush(long from, long count)
    {
        long start = ItemsOffset + (Math.Clamp(from, 0, count) * ItemSize);
        long end = ItemsOffset + (count * ItemSize);
        if (Format.HasDurableCount)
        {
            SyncRange(start, end - start);
            if (SetDurableCount(count))
            {
                SyncRange(0, ItemsOffset);
            }

            return;
        }

        long firstPageEnd = Math.Min(Environment.SystemPageSize, end);
        long after = Math.Max(start, firstPageEnd);
        if (end > after)
        {
            SyncRange(after, end - after);
        }

        SyncRange(0, firstPageEnd);
    }

    /// <summary>
    /// Version 2: lowers the durable count to <paramref name="count"/> durably, before the writer lowers its live
    /// count and writes new items where the dropped ones were: a durable count above them would cover those items
    /// half rewritten after a power loss.
    /// </summary>
    public void LowerDurableCount(long count)
    {
        if (Format.HasDurableCount && Volatile.Read(ref *(long*)(Pointer + ListMmfHeader.DurableCountOffset)) > count && SetDurableCount(count))
        {
            SyncRange(0, ItemsOffset);
        }
    }

    /// <summary>
    /// Version 2: stores <paramref name="count"/> as the durable count, one aligned 8-byte store, which a writeback of
    /// the page sees whole, old or new; false where it was that already.
    /// </summary>
    private bool SetDurableCount(long count)
    {
        long* durable = (long*)(Pointer + ListMmfHeader.DurableCountOffset);
        long before = Volatile.Read(ref *durable);
        if (before == count)
        {
            return false;
        }

        if (count > before)
        {
            MakeGrowthDurable();
        }

        Volatile.Write(ref *durable, count);
        return true;
    }

    /// <summary>
    /// Makes the file's growth since the last call durable, before a durable count that relies on it is stored. On
    /// ext4 and XFS a new length is metadata, committed with the journal, while the header is a data page the system
    /// may write back at any time: a durable count written back before that commit lay past the file's end after a
    /// power loss, and the table was refused (issue 64). One file barrier per growth, and growth doubles.
    /// </summary>
    private void MakeGrowthDurable()
    {
        if (_growthPending)
        {
            StoragePlatform.Current.FlushFile(_file.SafeFileHandle, Path);
            _growthPending = false;
        }
    }

    /// <summary>Writes the mapped range to the file and makes it durable: one barrier where the view's flush is one.</summary>
    private void SyncRange(long offset, long length)
    {
        if (length <= 0)
        {
            return;
        }

        _mapping.Flush(offset, length);
        if (!StoragePlatform.Current.ViewFlushIsDurable)
        {
            StoragePlatform.Current.FlushFile(_file.SafeFileHandle, Path);
        }
    }

    /// <summary>
    /// Starts writing back the items from <paramref name="from"/> (the first written since the last flush) to
    /// <paramref name="count"/>, without waiting (<see cref="StoragePlatform.StartWriteback"/>).
    /// </summary>
    /// <remarks>
    /// Never a version 1 file's first page, which holds the count: written back early, a count could reach the disk
    /// before the flushes that must precede it (a table's time column before its value columns; found by the
    /// power-loss harness, 14 of 800 crash images lost rows when the time column's first page was started with the
    /// rest). A version 2 header is never among the items.
    /// </remarks>
    public void StartFlush(long from, long count)
    {
        long start = Math.Max(
            ItemsOffset + (Math.Clamp(from, 0, count) * ItemSize), Format.FirstEarlyWritebackByte(ItemsOffset));
        long end = ItemsOffset + (count * ItemSize);
        if (end > start)
        {
            StoragePlatform.Current.StartWriteback(_file.SafeFileHandle, start, end - start);
        }
    }

    /// <summary>
    /// Makes the first <paramref name="count"/> items and the count durable together, with one barrier: for a file
    /// whose count publishes nothing by itself (a table's value column, whose rows the time column publishes). A
    /// version 2 durable count may then reach the disk before its items; the time column's, which a table trusts
    /// beside it, cannot.
    /// </summary>
    public void FlushTogether(long from, long count)
    {
        if (Format.HasDurableCount)
        {
            SetDurableCount(count);
        }

        // One range from the header to the end is one barrier, but a range sync walks all of it; past this much
        // flushed data, the header and the items written since are two ranges.
        long start = ItemsOffset + (Math.Clamp(from, 0, count) * ItemSize);
        long end = ItemsOffset + (count * ItemSize);
        if (start - ItemsOffset <= OneRangeFlushBytes)
        {
            SyncRange(0, end);
            return;
        }

        SyncRange(0, ItemsOffset);
        SyncRange(start, end - start);
    }

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
            if (_dataLocked)
            {
                StoragePlatform.Current.UnlockData(_file.SafeFileHandle);
            }

            _file.Dispose();
            _legacyLock?.Dispose();
            _writerLock?.Dispose();
        }
    }

    /// <summary>
    /// Version 2: sets the live count back to the durable count and makes the header durable; returns that count
    /// (<see cref="ListMmfFileInfo.RevertToLastFlush"/>).
    /// </summary>
    public long RevertLiveCount()
    {
        long durable = Volatile.Read(ref *(long*)(Pointer + ListMmfHeader.DurableCountOffset));
        LiveCount = durable;
        SyncRange(0, ItemsOffset);
        return durable;
    }

    /// <summary>
    /// Version 2, a writer closing: where items were published since the last flush, they are synchronized and the
    /// durable count raised to them, so that a file closed by its writer keeps them across a later power loss (once
    /// the system writes the header back) and in a copy read on another machine. Without a barrier for the header,
    /// and nothing raised when the items could not be synchronized: the durable count never runs ahead of its items.
    /// </summary>
    private void MakeLiveCountDurable()
    {
        if (!IsWritable || !Format.HasDurableCount || _mapping.Length < ItemsOffset || IsMarkedReplaced)
        {
            return;
        }

        long count = LiveCount;
        if (count <= Volatile.Read(ref *(long*)(Pointer + ListMmfHeader.DurableCountOffset)) || count > (_mapping.Length - ItemsOffset) / ItemSize)
        {
            return;
        }

        try
        {
            SyncRange(ItemsOffset, count * ItemSize);
            SetDurableCount(count);
        }
        catch (ListMmfException)
        {
            // A writer closing throws nothing: the durable count stays where its items were last made durable.
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

    /// <summary>
    /// Creates the file with an empty header and <paramref name="length"/> bytes allocated. Under a temporary name
    /// renamed into place, durably, directory included, so that a crash never leaves a file at
    /// <paramref name="path"/> without a valid header and a new file does not vanish after a power loss; or,
    /// <paramref name="inPlace"/>, at the path itself, which is then a replacement's temporary name.
    /// </summary>
    private static void Create(string path, DataType dataType, int itemSize, long length, NewFileFormat format, bool inPlace)
    {
        if (!inPlace)
        {
            DurableFile.Create(path, (dataType, itemSize, length, format, path),
                static (file, state) => WriteEmpty(file, state.dataType, state.itemSize, state.length, state.format, state.path));
            return;
        }

        try
        {
            // The copy's header made durable now: a copy whose flush raises no count (an empty one) never synchronizes
            // its header later, and came back as zeros after a power loss (issue 64).
            using FileStream file = ExclusiveFile.CreateNew(path);
            WriteEmpty(file, dataType, itemSize, length, format, path);
            StoragePlatform.Current.FlushFile(file.SafeFileHandle, path);
        }
        catch (Exception exception) when (exception is (IOException and not ListMmfException) or UnauthorizedAccessException)
        {
            throw new ListMmfException(path, $"could not create the file: {exception.Message}", exception);
        }
    }

    private static void WriteEmpty(FileStream file, DataType dataType, int itemSize, long length, NewFileFormat format, string path)
    {
        byte[] header = new byte[format.ItemsOffset];
        format.Format.WriteEmpty(header, dataType, itemSize, format.Description, BootSession.Current);

        file.Write(header);
        StoragePlatform.Current.Extend(file, header.Length, length, path);
    }

    private static void ThrowIfDirectory(string path)
    {
        if (Directory.Exists(path))
        {
            throw new ListMmfException(path, "the path is a directory, not a ListMmf file.");
        }
    }

    internal static void ThrowIfDirectoryMissing(string path)
    {
        string? directory = System.IO.Path.GetDirectoryName(path);
        if (directory is not null && !Directory.Exists(directory))
        {
            throw new DirectoryNotFoundException($"'{path}': the directory '{directory}' does not exist.");
        }
    }
}
