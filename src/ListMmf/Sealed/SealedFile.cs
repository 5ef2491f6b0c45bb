using System;
using System.Buffers.Binary;
using System.IO;
using System.Runtime.CompilerServices;
using System.Threading;
using ListMmf.Search;
using ListMmf.Storage;

namespace ListMmf.Sealed;

/// <summary>
/// A sealed file mapped for reading: its header and directory checked at the open, its blocks handed out with their
/// headers checked against the space the directory gives them, so that a damaged file fails with a message and never
/// leads a read outside the mapping, and each block's checksum checked the first time this mapping hands it out, so
/// that no read, search or copy ever uses a value of a damaged block.
/// </summary>
internal sealed unsafe class SealedFile : IDisposable, IReplaceableStorage
{
    private readonly FileStream _file;
    private readonly FileMapping _mapping;
    private readonly AlignedBuffer<byte> _directory;
    private readonly ulong* _offsets;

    /// <summary>
    /// One bit a block, set once its checksum matched: the file is mapped read-only and replaced, never rewritten, so a
    /// block checked once stays checked for this mapping, and every later use of it costs one bit test.
    /// </summary>
    private readonly ulong[] _checked;
    private bool _disposed;

    /// <summary>Whether this open holds the lock on the file's own descriptor (an unseal: <see cref="StoragePlatform.LockData"/>).</summary>
    private bool _dataLocked;

    private SealedFile(string path, FileStream file, FileMapping mapping)
    {
        Path = path;
        RealPath = StoragePlatform.Current.CanonicalPath(path);
        _file = file;
        _mapping = mapping;
        long length = mapping.Length;
        Header = SealedHeader.Read(new ReadOnlySpan<byte>(mapping.Pointer, (int)Math.Min(length, SealedHeader.MaximumLength)), path, length);
        Kind = KindOf(Header.DataType, Header.ItemSize);

        // The directory is copied to memory of its own, as a list's page index is built in it: a lookup's probes then
        // take no page-cache page (its folio's TLB entry) and no miss on the file's offsets.
        long directoryLength = length - Header.DirectoryOffset;
        _directory = new AlignedBuffer<byte>(directoryLength);
        Buffer.MemoryCopy(mapping.Pointer + Header.DirectoryOffset, _directory.Pointer, directoryLength, directoryLength);
        _offsets = (ulong*)(_directory.Pointer + (Header.OffsetsOffset - Header.DirectoryOffset));
        CheckDirectory();
        _checked = new ulong[(Header.BlockCount + 63) >> 6];
    }

    public string Path { get; }

    /// <inheritdoc/>
    public string RealPath { get; }

    public (ulong Device, ulong File)? Identity => StoragePlatform.Current.IdentityOf(_file.SafeFileHandle);

    public SealedHeader Header { get; }

    public SealedValueKind Kind { get; }

    public long Count => Header.Count;

    public int ItemSize => Header.ItemSize;

    public long BlockCount => Header.BlockCount;

    /// <summary>Whether the file was disposed: its mapping is gone.</summary>
    public bool IsDisposed => _disposed;

    /// <summary>The file's bytes on disk.</summary>
    public long Length => _mapping.Length;

    /// <summary>
    /// Whether an unseal has marked the file (its state -1): the appendable form is going back to the path, or a
    /// killed unseal left the mark and the path still holds this file. A read of the mapping, no system call.
    /// </summary>
    public bool IsMarkedUnsealing
    {
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return Volatile.Read(ref *(int*)(_mapping.Pointer + SealedLayout.StateOffset)) == ListMmfHeader.ReplacedMark;
        }
    }

    /// <summary>The first item of each block, from the directory (in memory): a sorted file's fences.</summary>
    public byte* FirstItems
    {
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _directory.Pointer;
        }
    }

    /// <summary>
    /// Opens the sealed file at <paramref name="path"/> for reading, mapped by the backend <paramref name="options"/>
    /// names, and read in whole at the open where they ask for it (<see cref="ListMmfOptions.PopulateOnOpen"/>).
    /// </summary>
    /// <param name="path">The file.</param>
    /// <param name="options">The backend, and whether to read the file in at the open.</param>
    /// <param name="replacing">Whether the caller replaces the file (an unseal): the handle is then opened for writing
    /// too, so that the replaced mark goes into this file and never through a name that may lead elsewhere by then.</param>
    /// <exception cref="ListMmfFormatException">It is not a sealed file, or its header or directory is damaged.</exception>
    public static SealedFile Open(string path, ListMmfOptions? options = null, bool replacing = false)
    {
        options ??= ListMmfOptions.Default;
        FileAccess access = replacing ? FileAccess.ReadWrite : FileAccess.Read;
        FileStream file = ListMmfStorage.OpenExistingStream(path, access, options.InTableFolder);
        FileMapping? mapping = null;
        bool dataLocked = false;
        try
        {
            // The caller holds the writer lock of the name; this one keeps out a writer that reached the same file by
            // another name (it was renamed, or another file was put at the name between the lock and this open).
            if (replacing)
            {
                dataLocked = StoragePlatform.Current.LockData(file.SafeFileHandle);
                if (!dataLocked)
                {
                    ThrowHelper.WriterUnderAnotherName(path, "it is not unsealed.");
                }
            }

            if (file.Length < SealedLayout.DescriptionOffset)
            {
                throw new ListMmfFormatException(path, $"the file is {file.Length:N0} bytes long, shorter than a sealed header.");
            }

            mapping = FileMappings.Open(file, path, writable: false, FileMappings.Resolve(options.Backend), readsLargePages: true);
            var sealedFile = new SealedFile(path, file, mapping) { _dataLocked = replacing };
            if (options.PopulateOnOpen)
            {
                mapping.Populate(0, mapping.Length);
            }

            return sealedFile;
        }
        catch
        {
            mapping?.Dispose();
            StoragePlatform.Current.Close(file, dataLocked);
            throw;
        }
    }

    /// <summary>
    /// Whether the file at <paramref name="path"/> starts as a sealed file does (its version and mark), read as
    /// <see cref="FileStart"/> reads, so that a cold file's readers keep their large pages and the probe reads one page.
    /// </summary>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    public static bool IsSealedAt(string path) =>
        SealedHeader.IsSealed(FileStart.Read(path, SealedLayout.MagicOffset + 8, out _));

    /// <summary>What the codecs make of items of <paramref name="dataType"/> and <paramref name="itemSize"/> bytes.</summary>
    public static SealedValueKind KindOf(DataType dataType, int itemSize) => DataTypeInfo.Of(dataType).Kind switch
    {
        DataTypeKind.SignedInteger or DataTypeKind.UnixSeconds or DataTypeKind.DateTimeTicks => SealedValueKind.Signed,
        DataTypeKind.UnsignedInteger => SealedValueKind.Unsigned,
        DataTypeKind.FloatingPoint => itemSize == sizeof(double) ? SealedValueKind.Double : SealedValueKind.Single,
        _ => SealedValueKind.Opaque,
    };

    /// <summary>Block <paramref name="block"/>, its header checked, and its checksum the first time.</summary>
    /// <exception cref="ListMmfFormatException">The block's header does not fit its space or its file, or its bytes
    /// do not match its checksum.</exception>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public SealedBlock Block(long block)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        long start = (long)_offsets[block];
        long space = (long)_offsets[block + 1] - start;
        SealedBlock view = SealedBlock.At(_mapping.Pointer + start);
        int width = view.Width;
        int count = view.Count;
        int payload = view.PayloadLength;
        bool packed = view.Codec is not SealedCodec.Plain;
        bool fits = count == SealedLayout.ValuesIn(block, Count) && payload >= 0
            && SealedLayout.BlockHeaderSize + SealedLayout.Align8(payload) == space
            && (packed
                ? width <= BitPacking.MaximumWidth && Accepts(view.Codec) && payload == PayloadLengthOf(view)
                : view.Codec == SealedCodec.Plain && payload == count * ItemSize);
        if (!fits)
        {
            BlockDamaged(block, $"its header (codec {(int)view.Codec}, width {width}, {count:N0} values, {payload:N0} payload bytes " +
                $"in {space:N0}) does not fit the file");
        }

        if ((Volatile.Read(ref _checked[block >> 6]) & (1UL << (int)(block & 63))) == 0)
        {
            CheckBlock(block, view);
        }

        return view;
    }

    /// <summary>
    /// Starts reading every cache line of block <paramref name="block"/>, its header's with its payload's, so that
    /// their misses overlap instead of following one another.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void Prefetch(long block)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        byte* start = _mapping.Pointer + _offsets[block];
        byte* end = _mapping.Pointer + _offsets[block + 1];
        for (byte* line = start; line < end; line += CacheLine.Size)
        {
            CacheLine.Prefetch(line);
        }
    }

    /// <summary>Decodes block <paramref name="block"/> into <paramref name="destination"/>, its items' bytes.</summary>
    public void Decode(long block, Span<byte> destination)
    {
        SealedBlock view = Block(block);
        fixed (byte* to = destination[..(view.Count * ItemSize)])
        {
            view.Decode(to, ItemSize, Kind);
        }
    }

    /// <summary>
    /// Checks every block's checksum, those this mapping checked before too (their pages may have been read from the
    /// disk again since), and decodes it; reports the share done to <paramref name="progress"/>.
    /// </summary>
    /// <exception cref="ListMmfFormatException">A block is damaged; the message names it.</exception>
    public void Verify(IProgress<double>? progress)
    {
        byte[] items = new byte[SealedLayout.BlockValues * ItemSize];
        long blocks = BlockCount;
        for (long block = 0; block < blocks; block++)
        {
            CheckBlock(block, Block(block));
            Decode(block, items);
            if ((block & 1023) == 1023)
            {
                progress?.Report((double)(block + 1) / blocks);
            }
        }

        progress?.Report(1);
    }

    /// <summary>
    /// The block's checksum over its bytes, a patched block's patch positions in order (its decoding relies on
    /// them), and the rules every reader holds a block to (<see cref="SealedBlockRules"/>); marks the block checked.
    /// Out of line: it runs once a block in each mapping.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void CheckBlock(long block, SealedBlock view)
    {
        var bytes = new ReadOnlySpan<byte>(view.Start, SealedLayout.BlockHeaderSize + view.PayloadLength);
        uint stored = BinaryPrimitives.ReadUInt32LittleEndian(bytes[SealedLayout.BlockChecksumOffset..]);
        if (stored != BlockEncoder.ChecksumOf(bytes, view.PayloadLength))
        {
            BlockDamaged(block, "its checksum does not match its bytes");
        }

        if (view.Codec == SealedCodec.PatchedFrameOfReference && !view.PatchesInOrder())
        {
            BlockDamaged(block, "its patches' positions do not ascend within the block");
        }

        if (SealedBlockRules.ProblemOf(view, Kind, ItemSize, _directory.Pointer + (block * ItemSize)) is { } problem)
        {
            BlockDamaged(block, problem);
        }

        Interlocked.Or(ref _checked[block >> 6], 1UL << (int)(block & 63));
    }

    /// <inheritdoc/>
    public bool IsStillAtRealPath() => FileIdentity.IsStillAt(_file.SafeFileHandle, RealPath);

    /// <inheritdoc/>
    public void MarkReplaced() => WriteState(ListMmfHeader.ReplacedMark);

    /// <inheritdoc/>
    public void ClearReplacedMark() => WriteState(0);

    public void Dispose() => Dispose(releaseCachedPages: false);

    /// <summary>
    /// Disposes the file a seal has just written and opened, and drops its pages from the page cache: its writes left
    /// them in small folios, and so would the read-ahead markers of this open's reads, so that every reader would map
    /// it in 4 KiB pages; read back by a reader's faults, which ask for large pages, it comes in 2 MiB folios.
    /// </summary>
    public void DisposeReleasingCachedPages() => Dispose(releaseCachedPages: true);

    private void Dispose(bool releaseCachedPages)
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _mapping.Dispose();
        if (releaseCachedPages)
        {
            StoragePlatform.Current.ReleaseCachedPages(_file.SafeFileHandle);
        }

        StoragePlatform.Current.Close(_file, _dataLocked);
    }

    /// <summary>
    /// The state field, outside every checksum: an unseal marks the sealed file replaced for its readers. It is written
    /// through the handle held since the open, not a second open by name: another user of the folder may have put a
    /// link at the name since.
    /// </summary>
    private void WriteState(int state)
    {
        if (!_file.CanWrite)
        {
            throw new InvalidOperationException($"'{Path}' was opened for reading only, not for a replacement.");
        }

        Span<byte> bytes = stackalloc byte[sizeof(int)];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, state);
        RandomAccess.Write(_file.SafeFileHandle, bytes, SealedLayout.StateOffset);
    }

    /// <summary>
    /// The payload a packed block's header says it has: its packed values, and a patched block's patches or a
    /// dictionary's entries after them (each at most as many as the values, of at most 56 bits, with bytes 19-23 of the
    /// header zero), or an Elias-Fano block's bitmap and samples (a bitmap of at least a bit a value and at most
    /// <see cref="EliasFano.MaximumUpperBits"/>, with bytes 20-23 zero), so that every read of them stays in the
    /// payload; -1 where the header's fields for them cannot be.
    /// </summary>
    private static int PayloadLengthOf(SealedBlock view)
    {
        if (view.Codec == SealedCodec.EliasFano)
        {
            return (view.First >> 32) == 0 && view.UpperBits >= view.Count && view.UpperBits <= EliasFano.MaximumUpperBits
                ? EliasFano.LengthOf(view.Count, view.Width, view.UpperBits) : -1;
        }

        int values = BitPacking.LengthOf(view.Count, view.Width);
        if (view.Codec != SealedCodec.PatchedFrameOfReference && !view.IsDictionary)
        {
            return values;
        }

        bool fits = view.Patches <= view.Count && view.PatchWidth <= BitPacking.MaximumWidth && (view.First >> 24) == 0;
        return !fits ? -1
            : view.IsDictionary ? values + BitPacking.LengthOf(view.Entries, view.EntryWidth)
            : view.PatchWidth > 0 ? PatchPlan.LengthOf(view.Count, view.Width, view.Patches, view.PatchWidth)
            : -1;
    }

    private bool Accepts(SealedCodec codec) => codec switch
    {
        SealedCodec.FrameOfReference or SealedCodec.DeltaFrameOfReference or SealedCodec.PatchedFrameOfReference
            or SealedCodec.IntegerDictionary or SealedCodec.SteppedFrameOfReference or SealedCodec.EliasFano
            => Kind is SealedValueKind.Signed or SealedValueKind.Unsigned,
        SealedCodec.Ticks or SealedCodec.TickDeltas or SealedCodec.Decimals or SealedCodec.DecimalDeltas
            or SealedCodec.TickDictionary or SealedCodec.DecimalDictionary => Kind is SealedValueKind.Single or SealedValueKind.Double,
        _ => false,
    };

    /// <summary>The directory's checksum, and block offsets that ascend from the blocks' start to the directory.</summary>
    private void CheckDirectory()
    {
        long blocks = BlockCount;
        if (SealedWriter.ChecksumOf(_directory.Pointer, _directory.Length) != Header.DirectoryChecksum)
        {
            throw new ListMmfFormatException(Path, "the sealed directory's checksum does not match its bytes: the directory is damaged.");
        }

        long previous = Header.BlocksOffset;
        if ((long)_offsets[0] != previous || (long)_offsets[blocks] != Header.DirectoryOffset)
        {
            throw new ListMmfFormatException(Path, "the sealed directory's block offsets do not start at the blocks and end at the directory.");
        }

        for (long block = 1; block <= blocks; block++)
        {
            long offset = (long)_offsets[block];
            if (offset < previous + SealedLayout.BlockHeaderSize || offset % 8 != 0)
            {
                BlockDamaged(block - 1, "the directory gives it less than a block header's space");
            }

            previous = offset;
        }
    }

    private void BlockDamaged(long block, string problem) =>
        throw new ListMmfFormatException(Path, $"block {block:N0} of {BlockCount:N0} (items from {block << SealedLayout.BlockShift:N0}) " +
            $"is damaged: {problem}.");
}
