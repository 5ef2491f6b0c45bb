using System;
using System.IO;

namespace ListMmf.Storage;

/// <summary>
/// Picks the <see cref="FileMapping"/> for a backend from what the platform can do. The platform knows nothing of
/// the mappings; the mappings use the platform; only this factory knows both.
/// </summary>
internal static class FileMappings
{
    /// <summary>The backend <paramref name="backend"/> stands for on this system.</summary>
    /// <exception cref="PlatformNotSupportedException"><see cref="MappingBackend.Posix"/> was asked for on Windows,
    /// or this system is not supported at all.</exception>
    public static MappingBackend Resolve(MappingBackend backend)
    {
        bool posix = StoragePlatform.Current.SupportsPosixMapping;
        return backend switch
        {
            MappingBackend.Default => posix ? MappingBackend.Posix : MappingBackend.MemoryMappedFile,
            MappingBackend.Posix when !posix => throw new PlatformNotSupportedException("The Posix mapping backend needs Linux or macOS."),
            MappingBackend.Posix or MappingBackend.MemoryMappedFile => backend,
            _ => throw new ArgumentOutOfRangeException(nameof(backend), backend, "Unknown mapping backend."),
        };
    }

    /// <summary>
    /// Maps <paramref name="file"/> with <paramref name="backend"/>, which <see cref="Resolve"/> has chosen; a reader
    /// of a file that no writer maps asks for large pages with <paramref name="readsLargePages"/>.
    /// </summary>
    public static FileMapping Open(FileStream file, string path, bool writable, MappingBackend backend, bool readsLargePages = false) =>
        backend == MappingBackend.Posix && StoragePlatform.Current.SupportsPosixMapping
            ? new PosixFileMapping(file, path, writable, readsLargePages)
            : new MemoryMappedFileMapping(file, path, writable);
}
