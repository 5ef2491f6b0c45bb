using System;
using System.Buffers.Binary;
using System.IO;
using System.IO.Hashing;
using System.Numerics;
using System.Runtime.InteropServices;
using System.Threading;
using ListMmf.Storage;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Search;

/// <summary>
/// The fences of a sorted list kept in a file beside it (<c>F.fences</c>), so that a process that opens the list cold
/// finds an item in three small reads (this file's first page, one page of fences, one page of the list) instead of
/// reading the list: the key of the first item that starts in each 4 KiB block of the list (<see cref="FileBlocks"/>),
/// and in the first page one key per page of fences. It is derived data, written whole by whichever process has just
/// read every key (a page index build) and renamed into place, never trusted: a search checks the answer it leads to
/// against the list's own items and searches the list without it where they disagree (a stale, truncated or foreign
/// file). docs/file-format.md describes the layout.
/// </summary>
/// <typeparam name="T">The key.</typeparam>
internal sealed unsafe class FenceFile<T> : IDisposable
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    /// <summary>The size of the list's blocks that have a fence, of this file's pages, and of every read of either.</summary>
    public const int PageBytes = ColdReader.PageBytes;

    /// <summary>What follows the list's name.</summary>
    public const string Extension = ".fences";

    private const int HeaderBytes = 64;
    private const int FormatVersion = 1;
    private const int HashOffset = 56;
    private static readonly ulong Magic = BinaryPrimitives.ReadUInt64LittleEndian("LMFENCES"u8);

    private readonly SafeFileHandle _file;
    private readonly ColdReader _reader;
    private readonly T[] _top;

    /// <summary>The pages of fences, read as they are first needed.</summary>
    private readonly byte* _pages;
    private readonly bool[] _read;
    private bool _disposed;

    private readonly int _itemSize;
    private readonly int _offset;

    private FenceFile(SafeFileHandle file, ColdReader reader, T[] top, long fenceCount, long indexedCount, int itemSize, int itemsOffset)
    {
        _file = file;
        _reader = reader;
        _top = top;
        _itemSize = itemSize;
        _offset = itemsOffset % PageBytes;
        FenceCount = fenceCount;
        IndexedCount = indexedCount;
        _pages = (byte*)NativeMemory.AlignedAlloc((nuint)top.Length * PageBytes, PageBytes);
        _read = new bool[top.Length];
    }

    ~FenceFile() => Free();

    /// <summary>Fences per page of fences.</summary>
    public static int KeysPerPage => PageBytes / sizeof(T);

    /// <summary>The most pages of fences the first page indexes: the most fences a file holds.</summary>
    public static int TopCapacity => (PageBytes - HeaderBytes) / sizeof(T);

    /// <summary>Whether lists of <paramref name="itemSize"/>-byte items have fence files: items no larger than a block.</summary>
    public static bool Fits(int itemSize) => itemSize <= PageBytes && sizeof(T) <= PageBytes / 2;

    /// <summary>The number of fences: of the first blocks of the list.</summary>
    public long FenceCount { get; }

    /// <summary>The list's count when the file was written.</summary>
    public long IndexedCount { get; }

    /// <summary>The fence file of the list at <paramref name="listPath"/>.</summary>
    public static string PathFor(string listPath) => listPath + Extension;

    /// <summary>
    /// Opens the fence file of the list at <paramref name="listPath"/> and reads its first page; null where there is
    /// none, it cannot be read, or it was written for other items (its header does not match or its checksum fails).
    /// </summary>
    public static FenceFile<T>? Open(string listPath, int itemSize, int itemsOffset)
    {
        SafeFileHandle? file = null;
        ColdReader? reader = null;
        byte* head = (byte*)NativeMemory.AlignedAlloc(PageBytes, PageBytes);
        try
        {
            string path = PathFor(listPath);
            file = SideFile.OpenRead(path);
            if (file is null)
            {
                return null;
            }

            reader = new ColdReader(file, path);
            if (reader.Read(0, head, PageBytes) != PageBytes || ReadHeader(head, itemSize, itemsOffset) is not var (fences, indexed, top))
            {
                return null;
            }

            if (RandomAccess.GetLength(file) < PageBytes * (1L + top.Length))
            {
                return null;
            }

            var fenceFile = new FenceFile<T>(file, reader, top, fences, indexed, itemSize, itemsOffset);
            file = null;
            reader = null;
            return fenceFile;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ListMmfException)
        {
            return null;
        }
        finally
        {
            NativeMemory.AlignedFree(head);
            reader?.Dispose();
            file?.Dispose();
        }
    }

    /// <summary>
    /// The fence rank of <paramref name="value"/> among the first <paramref name="usable"/> fences at most: how many
    /// come before its <paramref name="bound"/> (<see cref="PageIndex{T, TItem}.ItemsOfRank"/> gives the items it
    /// points at). Reads a page of fences the first time it needs it.
    /// </summary>
    public long Rank(T value, SearchBound bound, long usable)
    {
        usable = Math.Min(usable, FenceCount);
        int pages = (int)((usable + KeysPerPage - 1) / KeysPerPage);
        int page = CountBefore(_top.AsSpan(0, pages), value, bound) - 1;
        if (page < 0)
        {
            return 0;
        }

        long first = (long)page * KeysPerPage;
        var fences = new ReadOnlySpan<T>(Page(page), (int)Math.Min(KeysPerPage, usable - first));
        return first + CountBefore(fences, value, bound);
    }

    /// <summary>
    /// Starts reading every page of fences in, on the thread pool, where asking for the reads does not hold up the
    /// first search: the searches after a cold start's first then read one page of the list each.
    /// </summary>
    public void StartReadingFences()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        ThreadPool.QueueUserWorkItem(
            static state =>
            {
                try
                {
                    StoragePlatform.Current.StartReading(state.File, PageBytes, state.Length);
                }
                catch (ObjectDisposedException)
                {
                    // Closed meanwhile: nothing left to read them for.
                }
            },
            (File: _file, Length: (long)_top.Length * PageBytes),
            preferLocal: false);
    }

    /// <summary>
    /// Whether every fence of the first <paramref name="count"/> items is the key <paramref name="keys"/> gives:
    /// reads every page of fences, for a process that has just read every key (the file is never trusted blindly).
    /// </summary>
    public bool Matches<TSource>(ref TSource keys, long count)
        where TSource : struct, IItemSource<T>
    {
        long fences = Math.Min(FenceCount, FileBlocks.BlocksFor(count, PageBytes, _offset, _itemSize));
        for (long block = 0; block < fences; block++)
        {
            T* page = Page((int)(block / KeysPerPage));
            if (page[block % KeysPerPage] != keys[FileBlocks.FirstItemOf(block, PageBytes, _offset, _itemSize)])
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Whether this file's first and last fences are the keys <paramref name="keys"/> gives for those blocks, a list of
    /// <paramref name="count"/> items that holds every item it describes: for a writer that extends the file, which
    /// reads two keys of the list, not all of them (a file that is wrong between costs searches, never answers).
    /// </summary>
    public bool AgreesAtEnds<TSource>(ref TSource keys, long count)
        where TSource : struct, IItemSource<T>
    {
        if (IndexedCount > count || FenceCount == 0)
        {
            return false;
        }

        long last = FenceCount - 1;
        T lastFence = Page((int)(last / KeysPerPage))[last % KeysPerPage];
        return _top[0] == keys[FileBlocks.FirstItemOf(0, PageBytes, _offset, _itemSize)]
            && lastFence == keys[FileBlocks.FirstItemOf(last, PageBytes, _offset, _itemSize)];
    }

    /// <summary>
    /// Writes the fence file of the first <paramref name="count"/> items of the list at <paramref name="listPath"/>,
    /// whose keys <paramref name="keys"/> gives: <see cref="Build"/>, then <see cref="Publish"/>, not made durable.
    /// </summary>
    /// <exception cref="IOException">The folder refused the file.</exception>
    /// <exception cref="UnauthorizedAccessException">The folder cannot be written.</exception>
    public static void Write<TSource>(string listPath, ref TSource keys, long count, int itemSize, int itemsOffset)
        where TSource : struct, IItemSource<T> =>
        Publish(listPath, Build(ref keys, count, itemSize, itemsOffset, keep: null), durable: false);

    /// <summary>
    /// The bytes of the fence file of the first <paramref name="count"/> items of a list whose keys
    /// <paramref name="keys"/> gives.
    /// </summary>
    /// <param name="keys">The list's keys.</param>
    /// <param name="count">How many of the list's items the fences describe.</param>
    /// <param name="itemSize">The size of the list's items.</param>
    /// <param name="itemsOffset">Where the list's items start in its file.</param>
    /// <param name="keep">The list's fence file of fewer items, whose fences are copied rather than read from the
    /// list (a writer's extension: the blocks of its earlier items are not read in again); null to read every one.
    /// Nothing of it is used after the call, so that it can be closed before the new file is renamed over it (Windows
    /// renames nothing over a file its own process holds open).</param>
    public static byte[] Build<TSource>(ref TSource keys, long count, int itemSize, int itemsOffset, FenceFile<T>? keep)
        where TSource : struct, IItemSource<T>
    {
        int offset = itemsOffset % PageBytes;
        long fences = Math.Min(FileBlocks.BlocksFor(count, PageBytes, offset, itemSize), (long)TopCapacity * KeysPerPage);
        int pages = (int)((fences + KeysPerPage - 1) / KeysPerPage);
        byte[] bytes = new byte[PageBytes * (1L + pages)];
        fixed (byte* start = bytes)
        {
            T* top = (T*)(start + HeaderBytes);
            T* fence = (T*)(start + PageBytes);
            long kept = keep is null ? 0 : Math.Min(keep.FenceCount, fences);
            for (int page = 0; (long)page * KeysPerPage < kept; page++)
            {
                long first = (long)page * KeysPerPage;
                int length = (int)Math.Min(KeysPerPage, kept - first);
                new ReadOnlySpan<T>(keep!.Page(page), length).CopyTo(new Span<T>(fence + first, length));
            }

            for (long block = kept; block < fences; block++)
            {
                fence[block] = keys[FileBlocks.FirstItemOf(block, PageBytes, offset, itemSize)];
            }

            for (int page = 0; page < pages; page++)
            {
                top[page] = fence[(long)page * KeysPerPage];
            }
        }

        Span<byte> header = bytes.AsSpan(0, HeaderBytes);
        BinaryPrimitives.WriteUInt64LittleEndian(header, Magic);
        BinaryPrimitives.WriteInt32LittleEndian(header[8..], FormatVersion);
        BinaryPrimitives.WriteInt32LittleEndian(header[12..], sizeof(T));
        BinaryPrimitives.WriteInt32LittleEndian(header[16..], itemSize);
        BinaryPrimitives.WriteInt32LittleEndian(header[20..], itemsOffset);
        BinaryPrimitives.WriteInt64LittleEndian(header[24..], fences);
        BinaryPrimitives.WriteInt64LittleEndian(header[32..], count);
        BinaryPrimitives.WriteInt32LittleEndian(header[40..], pages);
        BinaryPrimitives.WriteInt32LittleEndian(header[44..], PageBytes);
        BinaryPrimitives.WriteUInt64LittleEndian(header[HashOffset..], Hash(bytes, pages));
        return bytes;
    }

    /// <summary>
    /// Puts <paramref name="bytes"/> (from <see cref="Build"/>) at the fence file of the list at
    /// <paramref name="listPath"/>: under a name of its own (created exclusively, so nothing planted is written
    /// through), then renamed over the old one, so that readers see the old file or the new, whole. Where not
    /// <paramref name="durable"/>, a file a power loss cut short fails its checksum or its answers' checks, and is
    /// written again; the fences a writer's flush leaves are made durable (the file, then its folder), so that a file
    /// as its writer flushed it keeps them through a power loss.
    /// </summary>
    /// <exception cref="IOException">The folder refused the file, or a process of a system that renames nothing over an
    /// open file holds the old one.</exception>
    /// <exception cref="UnauthorizedAccessException">The folder cannot be written.</exception>
    public static void Publish(string listPath, byte[] bytes, bool durable) => SideFile.Publish(PathFor(listPath), bytes, durable);

    public void Dispose()
    {
        _reader.Dispose();
        _file.Dispose();
        Free();
        GC.SuppressFinalize(this);
    }

    /// <summary>The fences and the top keys of a valid first page for these items; null for any other.</summary>
    private static (long Fences, long Indexed, T[] Top)? ReadHeader(byte* head, int itemSize, int itemsOffset)
    {
        var header = new ReadOnlySpan<byte>(head, HeaderBytes);
        long fences = BinaryPrimitives.ReadInt64LittleEndian(header[24..]);
        int pages = BinaryPrimitives.ReadInt32LittleEndian(header[40..]);
        bool matches = BinaryPrimitives.ReadUInt64LittleEndian(header) == Magic
            && BinaryPrimitives.ReadInt32LittleEndian(header[8..]) == FormatVersion
            && BinaryPrimitives.ReadInt32LittleEndian(header[12..]) == sizeof(T)
            && BinaryPrimitives.ReadInt32LittleEndian(header[16..]) == itemSize
            && BinaryPrimitives.ReadInt32LittleEndian(header[20..]) == itemsOffset
            && BinaryPrimitives.ReadInt32LittleEndian(header[44..]) == PageBytes
            && pages >= 0 && pages <= TopCapacity && fences >= 0 && fences <= (long)pages * KeysPerPage
            && fences > (long)(pages - 1) * KeysPerPage;
        if (!matches || BinaryPrimitives.ReadUInt64LittleEndian(header[HashOffset..]) != Hash(new ReadOnlySpan<byte>(head, PageBytes), pages))
        {
            return null;
        }

        long indexed = BinaryPrimitives.ReadInt64LittleEndian(header[32..]);
        return indexed < 0 ? null : (fences, indexed, new ReadOnlySpan<T>(head + HeaderBytes, pages).ToArray());
    }

    /// <summary>The checksum of the header (its checksum field left out) and the top keys.</summary>
    private static ulong Hash(ReadOnlySpan<byte> firstPage, int pages)
    {
        var hash = new XxHash3();
        hash.Append(firstPage[..HashOffset]);
        hash.Append(firstPage.Slice(HeaderBytes, pages * sizeof(T)));
        return hash.GetCurrentHashAsUInt64();
    }

    private static int CountBefore(ReadOnlySpan<T> keys, T value, SearchBound bound)
    {
        int first = 0;
        int count = keys.Length;
        while (count > 0)
        {
            int step = count >> 1;
            if (SearchBounds.Before(keys[first + step], value, bound))
            {
                first += step + 1;
                count -= step + 1;
            }
            else
            {
                count = step;
            }
        }

        return first;
    }

    private T* Page(int page)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        byte* start = _pages + ((long)page * PageBytes);
        if (!_read[page])
        {
            int read = _reader.Read(PageBytes * (1L + page), start, PageBytes);
            long needed = Math.Min(KeysPerPage, FenceCount - ((long)page * KeysPerPage)) * sizeof(T);
            if (read < needed)
            {
                throw new ListMmfException(_reader.Path, $"the fence file ends inside page {page + 1:N0}: it was cut short after it was checked.");
            }

            _read[page] = true;
        }

        return (T*)start;
    }

    private void Free()
    {
        if (!_disposed)
        {
            _disposed = true;
            NativeMemory.AlignedFree(_pages);
        }
    }
}
