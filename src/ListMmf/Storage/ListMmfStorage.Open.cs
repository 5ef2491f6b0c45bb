using System;
using System.Buffers.Binary;
using System.IO;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// A list file's opens: a writer's (its lock, what an interrupted create or replacement left, a missing file created,
/// the header's repairs before it is mapped) and a reader's, through the file door (<see cref="StoragePlatform"/>).
/// </summary>
internal sealed unsafe partial class ListMmfStorage
{
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
                // A reader's open (OpenExisting) refuses a directory itself.
                ThrowIfDirectory(path);
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
            try
            {
                if (file is not null)
                {
                    StoragePlatform.Current.Close(file, dataLocked);
                }
            }
            finally
            {
                legacyLock?.Dispose();
                writerLock?.Dispose();
            }

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
            PositionalRead.Fill(file, bytes, 0);
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
            StoragePlatform.Current.Close(handle);
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
