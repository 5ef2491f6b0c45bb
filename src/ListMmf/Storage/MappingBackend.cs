namespace ListMmf;

/// <summary>How a ListMmf file is mapped into memory.</summary>
public enum MappingBackend
{
    /// <summary>The best backend for this system: <see cref="Posix"/> on Linux and macOS, <see cref="MemoryMappedFile"/> on Windows.</summary>
    Default = 0,

    /// <summary>
    /// <c>mmap</c> through libc (Linux and macOS only). Reserves address space beyond the file so that growth
    /// rarely moves the mapping.
    /// </summary>
    Posix = 1,

    /// <summary><see cref="System.IO.MemoryMappedFiles.MemoryMappedFile"/>: the Windows backend, also selectable on Linux and macOS.</summary>
    MemoryMappedFile = 2,
}
