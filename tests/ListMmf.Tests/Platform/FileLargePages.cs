using System;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using ListMmf.Interop;
using ListMmf.Storage;

namespace ListMmf.Tests.Platform;

/// <summary>
/// Whether this system maps a file's pages in 2 MiB pages, and how much of a file a process maps so, read from
/// <c>/proc/self/smaps</c> (a mapping's <c>FilePmdMapped</c>).
/// </summary>
public static class FileLargePages
{
    /// <summary>The size of the large pages the probe and the tests look for.</summary>
    public const long LargePage = 2 << 20;

    private static readonly Lazy<string?> s_unavailable = new(Probe);

    /// <summary>Why this system maps no file in 2 MiB pages, or null where it does.</summary>
    public static string? Unavailable => s_unavailable.Value;

    /// <summary>
    /// The bytes of <paramref name="path"/> that this process's mapping of it with <paramref name="permissions"/>
    /// (as /proc/self/maps writes them: <c>r--s</c>, <c>rw-s</c>) maps in 2 MiB pages.
    /// </summary>
    public static long MappedBytes(string path, string permissions) =>
        ProcessMappings.Of(path).FirstOrDefault(mapping => mapping.Permissions == permissions)?.Bytes("FilePmdMapped")
        ?? throw new InvalidOperationException($"no mapping of {path} with permissions {permissions} in /proc/self/smaps");

    /// <summary>
    /// Maps a new 4 MiB file in the temporary directory writable, advised large pages, and faults in its first 2 MiB
    /// writable: the system maps that in one 2 MiB page where it can map files so at all.
    /// </summary>
    private static string? Probe()
    {
        if (LargePageFactAttribute.Unsupported() is string reason)
        {
            return reason;
        }

        try
        {
            return OperatingSystem.IsLinux() && MapsLargePages()
                ? null
                : "this kernel and the temporary directory's file system map no file in 2 MiB pages";
        }
        catch (InvalidOperationException exception)
        {
            return $"the probe's mapping could not be read back: {exception.Message}";
        }
    }

    [SupportedOSPlatform("linux")]
    private static unsafe bool MapsLargePages()
    {
        using var directory = new TempDirectory();
        string path = directory.File("probe.bin");
        using var file = new FileStream(path, FileMode.CreateNew, FileAccess.ReadWrite);
        file.SetLength(2 * LargePage);
        using var lease = new DescriptorLease(file.SafeFileHandle);
        using MappedMemoryHandle mapping = MappedMemoryHandle.Map(lease.Descriptor, file.Length, writable: true, path);
        if ((long)mapping.Address % LargePage != 0)
        {
            return false;
        }

        _ = Libc.Advise((nint)mapping.Address, (nuint)file.Length, Libc.Linux.MadvHugePage);
        _ = Libc.Advise((nint)mapping.Address, (nuint)LargePage, Libc.Linux.MadvPopulateWrite);
        return MappedBytes(path, "rw-s") > 0;
    }
}
