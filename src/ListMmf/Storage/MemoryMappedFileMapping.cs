using System;
using System.IO;
using System.IO.MemoryMappedFiles;

namespace ListMmf.Storage;

/// <summary>
/// <see cref="MemoryMappedFile"/> over the file, with the view's pointer acquired once per mapping. Its capacity
/// is fixed, so growing means mapping again: the pointer changes and earlier spans are invalid.
/// </summary>
internal sealed unsafe class MemoryMappedFileMapping : FileMapping
{
    private MemoryMappedFile? _map;
    private MemoryMappedViewAccessor? _view;

    public MemoryMappedFileMapping(FileStream file, string path, bool writable)
        : base(file, path, writable)
    {
        Cover(Length);
    }

    public override void Flush(long offset, long length) => _view!.Flush();

    /// <summary>Maps the new length before releasing the old view, so a failure leaves the old one usable.</summary>
    protected override void Cover(long length)
    {
        MemoryMappedFileAccess access = IsWritable ? MemoryMappedFileAccess.ReadWrite : MemoryMappedFileAccess.Read;
        MemoryMappedFile? map = null;
        MemoryMappedViewAccessor? view = null;
        bool acquired = false;
        byte* pointer = null;
        try
        {
            map = MemoryMappedFile.CreateFromFile(File, mapName: null, length, access, HandleInheritability.None, leaveOpen: true);
            view = map.CreateViewAccessor(0, length, access);
            view.SafeMemoryMappedViewHandle.AcquirePointer(ref pointer);
            acquired = true;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            if (acquired)
            {
                view!.SafeMemoryMappedViewHandle.ReleasePointer();
            }

            view?.Dispose();
            map?.Dispose();
            throw new ListMmfException(Path, $"could not map {length:N0} bytes: {exception.Message}", exception);
        }

        Unmap();
        _map = map;
        _view = view;
        Pointer = pointer + view.PointerOffset;
    }

    protected override void Unmap()
    {
        if (_view is not null)
        {
            _view.SafeMemoryMappedViewHandle.ReleasePointer();
            _view.Dispose();
            _view = null;
        }

        _map?.Dispose();
        _map = null;
    }
}
