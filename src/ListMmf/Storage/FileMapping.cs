using System;
using System.Diagnostics;
using System.IO;
using System.Threading;

namespace ListMmf.Storage;

/// <summary>
/// A file mapped into memory from offset 0. One implementation per backend; the list above it sees only a pointer
/// and a length. Not thread-safe: the owner serializes <see cref="Grow"/>, <see cref="Refresh"/> and
/// <see cref="Dispose"/>. Every mapping is owned by a SafeHandle, so a list that is never disposed still releases
/// its mappings when it is collected.
/// </summary>
internal abstract unsafe class FileMapping : IDisposable
{
    /// <summary>The owner's reference, and one per <see cref="Retain"/> not yet released; the memory is unmapped at 0.</summary>
    private int _references = 1;

    protected FileMapping(FileStream file, string path, bool writable)
    {
        File = file;
        Path = path;
        IsWritable = writable;
        Length = file.Length;
    }

    /// <summary>The address of file offset 0. May change when the mapping grows or is refreshed.</summary>
    public byte* Pointer { get; protected set; }

    /// <summary>How many bytes from <see cref="Pointer"/> are backed by the file and safe to touch.</summary>
    public long Length { get; protected set; }

    public string Path { get; }

    public bool IsWritable { get; }

    protected FileStream File { get; }

    protected static StoragePlatform Platform => StoragePlatform.Current;

    /// <summary>
    /// Extends the file to <paramref name="newLength"/> bytes with its disk space allocated, then makes the new
    /// bytes addressable. A full disk fails here with a <see cref="ListMmfException"/> and leaves the file and the
    /// mapping as they were.
    /// </summary>
    public void Grow(long newLength)
    {
        long oldLength = Length;
        Platform.Extend(File, oldLength, newLength, Path);
        try
        {
            Length = Cover(newLength);
        }
        catch
        {
            StoragePlatform.Restore(File, oldLength);
            throw;
        }
    }

    /// <summary>
    /// Whether <see cref="Shrink"/> may cut the file while it stays mapped: true where the mapping reaches past the
    /// file's end and no page past the end is ever touched; false where the system refuses to cut a mapped file
    /// (Windows) or a view must match the file.
    /// </summary>
    public abstract bool CanShrinkInPlace { get; }

    /// <summary>
    /// The largest step <see cref="Grow"/> is asked for when the list grows by doubling: what one growth may cost the
    /// append that makes it.
    /// </summary>
    public abstract long LargestGrowthStep { get; }

    /// <summary>Whether this mapping asked the system for large pages (<see cref="StoragePlatform.AdviseLargePages"/>).</summary>
    protected virtual bool AdvisesLargePages => false;

    /// <summary>
    /// <paramref name="offset"/> moved on to the next boundary of a large page, where this mapping asked for them:
    /// the page cache keeps a file's large folios at offsets that are multiples of their size.
    /// </summary>
    private long LargePageEnd(long offset)
    {
        long large = Platform.LargePageBytes;
        return AdvisesLargePages && large != 0 ? (offset + large - 1) / large * large : offset;
    }

    /// <summary>
    /// Cuts the file to <paramref name="newLength"/> bytes, which the owner guarantees hold every published byte.
    /// Other processes' mappings stay valid: they never read past the published items either.
    /// </summary>
    /// <exception cref="ListMmfException">The file system refused; the file keeps its length.</exception>
    public void Shrink(long newLength)
    {
        Debug.Assert(CanShrinkInPlace && newLength <= Length, "Shrink needs a backend that can and a shorter length.");
        try
        {
            File.SetLength(newLength);
        }
        catch (IOException exception)
        {
            throw new ListMmfException(
                Path,
                $"could not give back the file's unused space (cutting it from {Length:N0} to {newLength:N0} bytes): {exception.Message}",
                exception);
        }

        Length = newLength;
    }

    /// <summary>
    /// Makes addressable whatever another process has added to the file since it was mapped (a reader following a
    /// writer). Returns the new <see cref="Length"/>.
    /// </summary>
    public long Refresh()
    {
        long fileLength = File.Length;
        if (fileLength > Length)
        {
            Length = Cover(fileLength);
        }

        return Length;
    }

    /// <summary>
    /// Writes the dirty pages of the byte range to the file through every mapping that may have dirtied them, and
    /// waits for the writes. Durability on the device needs <see cref="StoragePlatform.FlushFile"/> afterwards.
    /// </summary>
    public abstract void Flush(long offset, long length);

    /// <summary>
    /// Faults in the pages of the byte range now, writable (in bulk where the system can), then writes to each page
    /// from this thread: an atomic or with 0, which changes no byte, so that the first write from user mode is not
    /// an append's. Only ever past the published items, within the file. Where this mapping asked for large pages,
    /// the range runs on to the end of its last one (within the file): each call then faults in whole folios, and
    /// the next starts at a folio's start.
    /// </summary>
    /// <returns>The end of the bytes faulted in (<paramref name="offset"/> where none were), at most <see cref="Length"/>.</returns>
    public long Prefault(long offset, long length)
    {
        long end = Math.Min(Length, LargePageEnd(offset + length));
        if (!IsWritable || end <= offset)
        {
            return offset;
        }

        Platform.PrefaultWritable(Pointer + offset, end - offset);
        long page = Environment.SystemPageSize;
        for (long at = (offset + page - 1) / page * page; at + sizeof(int) <= end; at += page)
        {
            Interlocked.Or(ref *(int*)(Pointer + at), 0);
        }

        return end;
    }

    /// <summary>Faults in the pages of the byte range now, readable, so that reads of them take no page fault.</summary>
    public void Populate(long offset, long length)
    {
        long end = Math.Min(Length, offset + length);
        if (end > offset)
        {
            Platform.PrefaultReadable(Pointer + offset, end - offset);
        }
    }

    /// <summary>
    /// Makes at least the first <paramref name="length"/> bytes of the (already long enough) file addressable;
    /// returns how many are. More when the writer grew the file meanwhile and the backend must map its whole length.
    /// </summary>
    protected abstract long Cover(long length);

    protected abstract void Unmap();

    /// <summary>
    /// Keeps every address this mapping has handed out mapped until the matching <see cref="Release"/>, even after
    /// <see cref="Dispose"/>: memory lent to a consumer that frees it later (Arrow's C Data Interface releases on the
    /// consumer's schedule) must stay readable until then.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The mapping was disposed.</exception>
    public void Retain()
    {
        // Never from 0: a Dispose on another thread may have unmapped between a check and an increment.
        while (true)
        {
            int seen = Volatile.Read(ref _references);
            ObjectDisposedException.ThrowIf(seen == 0 || Pointer == null, this);
            if (Interlocked.CompareExchange(ref _references, seen + 1, seen) == seen)
            {
                return;
            }
        }
    }

    /// <summary>Gives back one <see cref="Retain"/>; the last reference, the owner's included, unmaps. Any thread may call it.</summary>
    public void Release()
    {
        if (Interlocked.Decrement(ref _references) == 0)
        {
            Unmap();
        }
    }

    /// <summary>The owner is done with the mapping: unmapped now, or when the last retained memory is released.</summary>
    public void Dispose()
    {
        if (Pointer != null)
        {
            Pointer = null;
            Length = 0;
            Release();
        }
    }
}
