using System;
using System.Collections.Generic;
using System.IO;
using ListMmf.Interop;

namespace ListMmf.Storage;

/// <summary>
/// <c>mmap</c> of the file with address space reserved well beyond its end. Growth within the reservation only
/// extends the file: the pointer, and every span handed out, stay valid. Pages past the end of the file are never
/// touched (that would raise SIGBUS), because the list never reads or writes past <see cref="FileMapping.Length"/>.
/// </summary>
internal sealed unsafe class PosixFileMapping : FileMapping
{
    private const long MinimumReservation = 1L << 30;

    private readonly int _fd;
    private readonly List<(nint Address, long Length)> _retired = [];
    private long _reserved;
    private bool _handleReferenced;

    public PosixFileMapping(FileStream file, string path, bool writable)
        : base(file, path, writable)
    {
        // The descriptor is used raw by mmap/msync; the reference keeps it from being closed under the mapping.
        file.SafeFileHandle.DangerousAddRef(ref _handleReferenced);
        _fd = (int)file.SafeFileHandle.DangerousGetHandle();
        try
        {
            Reserve(Length);
        }
        catch
        {
            ReleaseHandle();
            throw;
        }
    }

    protected override long Cover(long length)
    {
        if (length > _reserved)
        {
            Reserve(length);
        }

        return length;
    }

    protected override void Unmap()
    {
        try
        {
            Libc.Unmap(Pointer, _reserved, Path);
            foreach ((nint address, long length) in _retired)
            {
                Libc.Unmap((byte*)address, length, Path);
            }
        }
        finally
        {
            ReleaseHandle();
        }
    }

    /// <summary>
    /// Maps a new, larger reservation. The old one stays mapped until disposal, so pointers and spans taken from
    /// it (by another thread, or a caller holding a span) stay valid.
    /// </summary>
    private void Reserve(long fileLength)
    {
        long pageSize = Environment.SystemPageSize;
        long size = Math.Max(MinimumReservation, fileLength * 2);
        size = (size + pageSize - 1) / pageSize * pageSize;
        byte* address = Libc.Map(_fd, size, IsWritable, Path);
        if (Pointer != null)
        {
            _retired.Add(((nint)Pointer, _reserved));
        }

        Pointer = address;
        _reserved = size;
    }

    private void ReleaseHandle()
    {
        if (_handleReferenced)
        {
            File.SafeFileHandle.DangerousRelease();
            _handleReferenced = false;
        }
    }
}
