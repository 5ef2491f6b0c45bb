using System;
using System.IO;
using System.Runtime.Versioning;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>Linux: posix_fallocate for growth, MADV_POPULATE_WRITE for prefaulting, Linux's constants.</summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class LinuxStoragePlatform : UnixStoragePlatform
{
    /// <summary>Case-sensitive, as ext4, XFS and Btrfs are.</summary>
    public override StringComparison PathComparison => StringComparison.Ordinal;

    protected override int MsSync => Libc.Linux.MsSync;

    protected override int OpenCloseOnExec => Libc.Linux.OpenCloseOnExec;

    protected override int WouldBlock => Libc.Linux.WouldBlock;

    /// <summary>
    /// MADV_HUGEPAGE: where the file system keeps the file in 2 MiB folios (ext4 and XFS on recent kernels) and
    /// transparent huge pages are not <c>never</c>, one fault maps a whole folio (benchmarks/README.md, "Append then
    /// durable"). Best effort, as <see cref="PrefaultWritable"/>.
    /// </summary>
    public override void AdviseLargePages(byte* address, long length) => Advise(address, length, Libc.Linux.MadvHugePage);

    /// <summary>
    /// MADV_POPULATE_WRITE, with the range advised MADV_RANDOM and MADV_NOHUGEPAGE for the call. The pages past a
    /// writer's items are unwritten extents that a fault fills with zeros, and each new page is memory the system
    /// must find: read-around would fill up to <c>read_ahead_kb</c> (8 MiB here) around each fault, and a 2 MiB
    /// folio faulted in 4 KiB at a time runs ext4's page_mkwrite over all 512 of its blocks for every page. With
    /// both off, the call fills exactly the range; 1M rows appended to a 100M-row table and flushed took 0.35-0.45x
    /// the time (benchmarks/README.md, "Append then durable"). Best effort: kernels before 5.14 do not know the
    /// populate advice, and the caller loses only the head start.
    /// </summary>
    public override void PrefaultWritable(byte* address, long length, bool largePages)
    {
        Advise(address, length, Libc.Linux.MadvRandom);
        Advise(address, length, Libc.Linux.MadvNoHugePage);
        Advise(address, length, Libc.Linux.MadvPopulateWrite);
        Advise(address, length, Libc.Linux.MadvNormal);
        if (largePages)
        {
            Advise(address, length, Libc.Linux.MadvHugePage);
        }
    }

    /// <summary>sync_file_range(SYNC_FILE_RANGE_WRITE): the pages a mapping dirtied are dirty in the page cache, so it starts them too.</summary>
    public override void StartWriteback(SafeFileHandle file, long offset, long length)
    {
        using var lease = new DescriptorLease(file);
        _ = Libc.SyncFileRange(lease.Descriptor, offset, length, Libc.Linux.SyncFileRangeWrite);
    }

    public override bool StartsWriteback => true;

    /// <summary>Best effort, as <see cref="PrefaultWritable"/>.</summary>
    public override void PrefaultReadable(byte* address, long length) => Advise(address, length, Libc.Linux.MadvPopulateRead);

    private static void Advise(byte* address, long length, int advice)
    {
        (nint start, long alignedLength) = PageAligned(address, length);
        _ = Libc.Advise(start, (nuint)alignedLength, advice);
    }

    public override (ulong Device, ulong File)? IdentityOf(SafeFileHandle file)
    {
        using var lease = new DescriptorLease(file);
        return Libc.LinuxIdentity(lease.Descriptor);
    }

    public override (ulong Device, ulong File)? IdentityOf(string path) => Libc.LinuxIdentity(path);

    protected override bool FindsFilesByPath => true;

    protected override void Allocate(FileStream file, long oldLength, long newLength, string path)
    {
        using var lease = new DescriptorLease(file.SafeFileHandle);
        Libc.Fallocate(lease.Descriptor, oldLength, newLength - oldLength, path);
    }
}
