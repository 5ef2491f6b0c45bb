using System;
using System.Collections.Generic;
using System.IO;
using System.IO.MemoryMappedFiles;

namespace ListMmf.Storage;

/// <summary>
/// <see cref="MemoryMappedFile"/> over the file. Its capacity is fixed, so growing means mapping again and the
/// pointer changes; earlier views stay mapped until disposal, so that no pointer or span handed out dangles. The
/// price is address space: one instance that grows a file from empty to N GiB in 1 GiB steps holds about N²/2 GiB
/// of views, which 64-bit address space affords into the hundreds of GiB; a reopened instance starts afresh.
/// </summary>
/// <remarks>
/// The view's address is read from its handle without <c>AcquirePointer</c>: an acquired pointer holds a reference
/// that would keep the view mapped forever if the list were never disposed. Each view's SafeHandle unmaps it when
/// disposed or collected.
/// </remarks>
internal sealed unsafe class MemoryMappedFileMapping : FileMapping
{
    private readonly List<(MemoryMappedFile Map, MemoryMappedViewAccessor View, long Length)> _mappings = [];

    public MemoryMappedFileMapping(FileStream file, string path, bool writable)
        : base(file, path, writable)
    {
        Length = Cover(Length);
    }

    /// <summary>False: Windows refuses to cut a file that a view maps, and this instance keeps every view it made.</summary>
    public override bool CanShrinkInPlace => false;

    /// <summary>1 GiB: each growth maps a new view, which the writer then faults in afresh; few, large steps.</summary>
    public override long LargestGrowthStep => 1L << 30;

    /// <summary>
    /// Flushes the range through every view kept, each over its part of the range: after growth, pages may have been
    /// dirtied through an earlier view, and on Windows a view's dirty pages are written by flushing that view.
    /// </summary>
    public override void Flush(long offset, long length)
    {
        foreach ((_, MemoryMappedViewAccessor view, long viewLength) in _mappings)
        {
            long end = Math.Min(offset + length, viewLength);
            if (end > offset)
            {
                Platform.FlushView(AddressOf(view) + offset, end - offset, Path);
            }
        }
    }

    /// <summary>
    /// Maps the new length. Earlier views stay mapped until disposal, so pointers and spans taken from them stay
    /// valid, and a failure leaves the current view usable.
    /// </summary>
    /// <remarks>
    /// The map takes the file's own length (capacity 0): one given explicitly must match the file exactly for a
    /// reader, and a writer growing the file between the length read and the map would refuse it every time it grew
    /// faster than the reader mapped. The view is the length asked for, within it; the system refuses a view past
    /// the end of the file, which is then mapped again with its length read afresh: Wine extends a file by writing a
    /// byte past the new end and then truncating, so for an instant it is one byte longer than it will be (a view of
    /// that length is refused as "access denied", or its map as "not enough memory").
    /// </remarks>
    protected override long Cover(long length)
    {
        MemoryMappedFileAccess access = IsWritable ? MemoryMappedFileAccess.ReadWrite : MemoryMappedFileAccess.Read;
        for (int attempt = 1; ; attempt++)
        {
            MemoryMappedFile? map = null;
            MemoryMappedViewAccessor? view = null;
            try
            {
                map = MemoryMappedFile.CreateFromFile(File, mapName: null, capacity: 0, access, HandleInheritability.None, leaveOpen: true);
                view = map.CreateViewAccessor(0, length, access);
                _mappings.Add((map, view, length));
                Pointer = AddressOf(view);
                return length;
            }
            catch (Exception exception)
                when (exception is ArgumentException or IOException or UnauthorizedAccessException && attempt < MapAttempts && File.Length != length)
            {
                view?.Dispose();
                map?.Dispose();
            }
            catch (Exception exception)
            {
                view?.Dispose();
                map?.Dispose();
                if (exception is IOException or UnauthorizedAccessException)
                {
                    throw new ListMmfException(Path, $"could not map {length:N0} bytes: {exception.Message}", exception);
                }

                throw;
            }

            length = File.Length;
        }
    }

    /// <summary>
    /// Unmaps every view without flushing it: disposing an accessor whose handle is open flushes the view
    /// (msync or FlushViewOfFile), and Dispose promises no flush; closing the handle first unmaps it directly.
    /// </summary>
    protected override void Unmap()
    {
        foreach ((MemoryMappedFile map, MemoryMappedViewAccessor view, _) in _mappings)
        {
            try
            {
                view.SafeMemoryMappedViewHandle.Dispose();
                view.Dispose();
            }
            finally
            {
                map.Dispose();
            }
        }

        _mappings.Clear();
    }

    /// <summary>
    /// The address of file offset 0 in <paramref name="view"/>: the handle is the page-aligned base, and the view
    /// starts <c>PointerOffset</c> into it.
    /// </summary>
    private static byte* AddressOf(MemoryMappedViewAccessor view) =>
        (byte*)view.SafeMemoryMappedViewHandle.DangerousGetHandle() + view.PointerOffset;

    /// <summary>How often a map is tried with a freshly read length before the refusal is reported.</summary>
    private const int MapAttempts = 16;
}
