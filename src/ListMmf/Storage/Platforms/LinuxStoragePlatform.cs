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

    protected override int MapAnonymous => Libc.Linux.MapAnonymous;

    /// <summary>
    /// msync(MS_SYNC) is vfs_fsync_range over the range with datasync: its pages, the metadata needed to read them
    /// (the length a growth set) and the device's cache flush, as fdatasync does for the whole file (the power-loss
    /// recorder sees an fsync of the range).
    /// </summary>
    public override bool ViewFlushIsDurable => true;

    /// <summary>The kernel's boot_id, a random UUID drawn at each boot.</summary>
    public override ulong ReadBootSession()
    {
        try
        {
            return SessionFromUuid(File.ReadAllText("/proc/sys/kernel/random/boot_id"));
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return 0;
        }
    }

    /// <summary>
    /// MADV_HUGEPAGE, with 4 KiB pages only (<see cref="LargePageBytes"/>): where the file system keeps the file in
    /// 2 MiB folios (ext4 and XFS on recent kernels), a fault in the range reads in a whole folio and maps it whole
    /// (benchmarks/README.md, "Append then durable"). Best effort, as <see cref="PrefaultWritable"/>.
    /// </summary>
    public override void AdviseLargePages(byte* address, long length)
    {
        if (LargePageBytes != 0)
        {
            Advise(address, length, Libc.Linux.MadvHugePage);
        }
    }

    /// <summary>
    /// The PMD size with 4 KiB pages (x64, and arm64's default). With 16 or 64 KiB pages a PMD maps 32 or 512 MiB,
    /// and under MADV_HUGEPAGE each fault would read a folio that large: there no range is advised large pages.
    /// </summary>
    public override long LargePageBytes => Environment.SystemPageSize == 4096 ? 2L << 20 : 0;

    /// <summary>
    /// MADV_POPULATE_WRITE, with the range advised MADV_RANDOM for the call. The pages past a writer's items are
    /// unwritten extents that a fault fills with zeros, and each new page is memory the system must find: read-around
    /// would fill up to <c>read_ahead_kb</c> (8 MiB here) around each fault, or two 2 MiB folios under
    /// MADV_HUGEPAGE. With it off, a fault in a writer's range (advised large pages, and prefaulted a whole
    /// <see cref="LargePageBytes"/> at a time) fills one 2 MiB folio, which the fault maps whole: the appends into
    /// it take no fault, and readers of the file map its items in 2 MiB pages too, which makes a lookup's random
    /// read cheaper (benchmarks/README.md, "Append then durable" and "Single lookup"). Best effort: kernels before
    /// 5.14 do not know the populate advice, and the caller loses only the head start.
    /// </summary>
    public override void PrefaultWritable(byte* address, long length)
    {
        Advise(address, length, Libc.Linux.MadvRandom);
        Advise(address, length, Libc.Linux.MadvPopulateWrite);
        Advise(address, length, Libc.Linux.MadvNormal);
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
