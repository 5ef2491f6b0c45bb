using System;
using System.Collections.Generic;
using System.IO;
using System.IO.MemoryMappedFiles;

namespace ListMmf.Storage;

/// <summary>
/// <see cref="MemoryMappedFile"/> over the file, with the view's pointer acquired once per mapping. Its capacity
/// is fixed, so growing means mapping again and the pointer changes; earlier views stay mapped until disposal, so
/// that no pointer or span handed out dangles. The price is address space: one instance that grows a file from
/// empty to N GiB in 1 GiB steps holds about N²/2 GiB of views, which 64-bit address space affords into the
/// hundreds of GiB; a reopened instance starts afresh.
/// </summary>
internal sealed unsafe class MemoryMappedFileMapping : FileMapping
{
    private readonly List<(MemoryMappedFile Map, MemoryMappedViewAccessor View)> _mappings = [];

    public MemoryMappedFileMapping(FileStream file, string path, bool writable)
        : base(file, path, writable)
    {
        Length = Cover(Length);
    }

    /// <summary>
    /// Maps the new length. Earlier views stay mapped until disposal, so pointers and spans taken from them stay
    /// valid, and a failure leaves the current view usable.
    /// </summary>
    protected override long Cover(long length)
    {
        MemoryMappedFileAccess access = IsWritable ? MemoryMappedFileAccess.ReadWrite : MemoryMappedFileAccess.Read;
        MemoryMappedFile? map = null;
        MemoryMappedViewAccessor? view = null;
        bool acquired = false;
        byte* pointer = null;
        try
        {
            map = CreateMap(ref length, access);
            view = map.CreateViewAccessor(0, length, access);
            view.SafeMemoryMappedViewHandle.AcquirePointer(ref pointer);
            acquired = true;
        }
        catch (Exception exception)
        {
            if (acquired)
            {
                view!.SafeMemoryMappedViewHandle.ReleasePointer();
            }

            view?.Dispose();
            map?.Dispose();
            if (exception is IOException or UnauthorizedAccessException)
            {
                throw new ListMmfException(Path, $"could not map {length:N0} bytes: {exception.Message}", exception);
            }

            throw;
        }

        _mappings.Add((map, view));
        Pointer = pointer + view.PointerOffset;
        return length;
    }

    /// <summary>
    /// A map of exactly the file's length, which a read-only map must match: if the writer grew the file since its
    /// length was read, the map is refused, and the new, larger length is read and mapped instead.
    /// </summary>
    private MemoryMappedFile CreateMap(ref long length, MemoryMappedFileAccess access)
    {
        while (true)
        {
            try
            {
                return MemoryMappedFile.CreateFromFile(File, mapName: null, length, access, HandleInheritability.None, leaveOpen: true);
            }
            catch (ArgumentOutOfRangeException) when (File.Length > length)
            {
                length = File.Length;
            }
        }
    }

    protected override void Unmap()
    {
        foreach ((MemoryMappedFile map, MemoryMappedViewAccessor view) in _mappings)
        {
            view.SafeMemoryMappedViewHandle.ReleasePointer();
            view.Dispose();
            map.Dispose();
        }

        _mappings.Clear();
    }
}
