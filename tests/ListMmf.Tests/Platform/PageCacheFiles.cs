using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>A file's pages in Linux's page cache, for tests of what a read leaves there: counted with mincore(2), dropped with posix_fadvise(2).</summary>
[SupportedOSPlatform("linux")]
internal static partial class PageCacheFiles
{
    /// <summary>The bytes of <paramref name="path"/> in the page cache, by mincore(2) of a read-only mapping of it.</summary>
    public static unsafe long CachedBytesOf(string path)
    {
        using FileStream file = new(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        long length = file.Length;
        using var lease = new DescriptorLease(file.SafeFileHandle);
        using MappedMemoryHandle mapping = MappedMemoryHandle.Map(lease.Descriptor, length, writable: false, path);
        long pageSize = Environment.SystemPageSize;
        byte[] resident = new byte[(length + pageSize - 1) / pageSize];
        Assert.Equal(0, Residency((nint)mapping.Address, (nuint)length, resident));
        long pages = 0;
        foreach (byte page in resident)
        {
            pages += page & 1;
        }

        return pages * pageSize;
    }

    /// <summary>Writes the file's pages back and drops them from the page cache (POSIX_FADV_DONTNEED).</summary>
    public static void Drop(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        file.Flush(flushToDisk: true);
        Assert.Equal(0, Advise((int)file.SafeFileHandle.DangerousGetHandle(), 0, 0, 4));
    }

    [LibraryImport("libc", EntryPoint = "mincore", SetLastError = true)]
    private static partial int Residency(nint address, nuint length, [Out] byte[] vector);

    [LibraryImport("libc", EntryPoint = "posix_fadvise")]
    private static partial int Advise(int fd, long offset, long length, int advice);
}
