using System;
using System.IO;
using ListMmf.Interop;

namespace ListMmf.Storage;

/// <summary>
/// A file mapped into memory from offset 0. One implementation per backend; the list above it sees only a pointer
/// and a length. Not thread-safe: the owner serializes <see cref="Grow"/>, <see cref="Refresh"/> and
/// <see cref="Dispose"/>.
/// </summary>
internal abstract unsafe class FileMapping : IDisposable
{
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

    /// <summary>Maps <paramref name="file"/> with the chosen backend.</summary>
    public static FileMapping Create(FileStream file, string path, bool writable, MappingBackend backend) => Resolve(backend) switch
    {
        MappingBackend.Posix => new PosixFileMapping(file, path, writable),
        _ => new MemoryMappedFileMapping(file, path, writable),
    };

    /// <summary>The backend <paramref name="backend"/> stands for on this system.</summary>
    /// <exception cref="PlatformNotSupportedException"><see cref="MappingBackend.Posix"/> was asked for on a system other than Linux or macOS.</exception>
    public static MappingBackend Resolve(MappingBackend backend)
    {
        bool posix = OperatingSystem.IsLinux() || OperatingSystem.IsMacOS();
        return backend switch
        {
            MappingBackend.Default => posix ? MappingBackend.Posix : MappingBackend.MemoryMappedFile,
            MappingBackend.Posix when !posix => throw new PlatformNotSupportedException("The Posix mapping backend needs Linux or macOS (its libc constants are those two systems')."),
            MappingBackend.Posix or MappingBackend.MemoryMappedFile => backend,
            _ => throw new ArgumentOutOfRangeException(nameof(backend), backend, "Unknown mapping backend."),
        };
    }

    /// <summary>
    /// Extends the file to <paramref name="newLength"/> bytes with its disk space allocated, then makes the new
    /// bytes addressable. A full disk fails here with an <see cref="IOException"/> and leaves the file and the
    /// mapping as they were.
    /// </summary>
    public void Grow(long newLength)
    {
        long oldLength = Length;
        FileSpace.Extend(File, oldLength, newLength, Path);
        try
        {
            Length = Cover(newLength);
        }
        catch
        {
            FileSpace.Restore(File, oldLength);
            throw;
        }
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
    /// Writes the dirty pages of the byte range to the file and waits for the writes (msync MS_SYNC, or
    /// FlushViewOfFile on Windows). Durability on the device needs a flush of the file afterwards.
    /// </summary>
    public void Flush(long offset, long length)
    {
        if (OperatingSystem.IsWindows())
        {
            Kernel32.FlushViewOfFile(Pointer + offset, length, Path);
            return;
        }

        // msync needs a page-aligned start.
        long pageSize = Environment.SystemPageSize;
        long start = offset / pageSize * pageSize;
        Libc.Sync(Pointer + start, offset + length - start, Path);
    }

    /// <summary>
    /// Faults in the pages of the byte range now, writable, so that appends into them later take no page fault.
    /// Linux only (MADV_POPULATE_WRITE); elsewhere, and on kernels before 5.14, it does nothing.
    /// </summary>
    public void Prefault(long offset, long length)
    {
        if (!OperatingSystem.IsLinux() || !IsWritable)
        {
            return;
        }

        long pageSize = Environment.SystemPageSize;
        long start = offset / pageSize * pageSize;
        long end = Math.Min(Length, offset + length);
        if (end > start)
        {
            Libc.PopulateWrite(Pointer + start, end - start);
        }
    }

    /// <summary>
    /// Makes at least the first <paramref name="length"/> bytes of the (already long enough) file addressable;
    /// returns how many are. More when the writer grew the file meanwhile and the backend must map its whole length.
    /// </summary>
    protected abstract long Cover(long length);

    protected abstract void Unmap();

    public void Dispose()
    {
        if (Pointer != null)
        {
            Unmap();
            Pointer = null;
        }
    }
}
