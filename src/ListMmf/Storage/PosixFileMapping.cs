using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.Versioning;

namespace ListMmf.Storage;

/// <summary>
/// <c>mmap</c> of the file with address space reserved well beyond its end. Growth within the reservation only
/// extends the file: the pointer, and every span handed out, stay valid. Pages past the end of the file are never
/// touched (that would raise SIGBUS), because the list never reads or writes past <see cref="FileMapping.Length"/>.
/// </summary>
[SupportedOSPlatform("linux")]
[SupportedOSPlatform("macos")]
internal sealed unsafe class PosixFileMapping : FileMapping
{
    private const long MinimumReservation = 1L << 30;

    /// <summary>
    /// A reader's smallest reservation: a large page. A reader grows its view only when it looks again, and a view as
    /// large as a writer's made each close unmap a 1 GiB range, a large part of opening and closing a small file
    /// (benchmarks/README.md, "Figures behind the code"); past it, a reader maps a new view as a writer does past its own.
    /// </summary>
    private const long ReaderMinimumReservation = MappingPlacement.Step;

    /// <summary>Every reservation made, the current one last; earlier ones stay mapped until disposal.</summary>
    private readonly List<MappedMemoryHandle> _reservations = [];
    private long _reserved;

    private readonly bool _readsLargePages;

    /// <param name="file">The open file.</param>
    /// <param name="path">The file's path, for messages.</param>
    /// <param name="writable">Whether the mapping is a writer's.</param>
    /// <param name="readsLargePages">Whether a reader's mapping asks for large pages too: for a file no writer maps,
    /// whose faults would otherwise read it in small folios.</param>
    public PosixFileMapping(FileStream file, string path, bool writable, bool readsLargePages = false)
        : base(file, path, writable)
    {
        _readsLargePages = readsLargePages;
        Reserve(Length);
    }

    /// <inheritdoc/>
    public override bool CanShrinkInPlace => true;

    /// <summary>
    /// 64 MiB: a growth within the reservation is one <c>posix_fallocate</c> and nothing else, and its time grows with
    /// its length, so doubling a large file stalled the append that grew it, where more, smaller steps cost as little
    /// in all (benchmarks/README.md, "Figures behind the code").
    /// </summary>
    public override long LargestGrowthStep => 64L << 20;

    /// <summary>A writer's reservations are advised large pages (<see cref="Reserve"/>), and a reader's where it asked.</summary>
    protected override bool AdvisesLargePages => IsWritable || _readsLargePages;

    /// <summary>
    /// msync through the current reservation only: on Linux and macOS the page cache is shared by every mapping of
    /// the file, so pages dirtied through an earlier reservation are written back by it too.
    /// </summary>
    public override void Flush(long offset, long length) => Platform.FlushView(Pointer + offset, length, Path);

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
        foreach (MappedMemoryHandle reservation in _reservations)
        {
            reservation.Dispose();
        }

        _reservations.Clear();
    }

    /// <summary>
    /// Maps a new, larger reservation. The old one stays mapped until disposal, so pointers and spans taken from
    /// it (by another thread, or a caller holding a span) stay valid.
    /// </summary>
    private void Reserve(long fileLength)
    {
        long pageSize = Environment.SystemPageSize;
        long size = Math.Max(IsWritable ? MinimumReservation : ReaderMinimumReservation, fileLength * 2);
        size = (size + pageSize - 1) / pageSize * pageSize;

        // A reader's smallest view is mapped where the system puts it: finding a placement costs a reservation's
        // mmap and munmap, a large part of opening a small file (benchmarks/README.md, "Figures behind the code"),
        // and the system puts views opened together next to each other, 2 MiB apart, as the placement would.
        bool placed = IsWritable || size > ReaderMinimumReservation;

        // The descriptor is used raw only for this call; the mapping does not need it afterwards.
        MappedMemoryHandle reservation;
        using (var lease = new DescriptorLease(File.SafeFileHandle))
        {
            reservation = MappedMemoryHandle.Map(lease.Descriptor, size, IsWritable, Path, placed);
        }

        if (AdvisesLargePages)
        {
            // The writer's faults make the file's folios, and a reader maps 2 MiB folios in 2 MiB pages unasked; a
            // sealed file has no writer's mapping, so its readers ask.
            Platform.AdviseLargePages(reservation.Address, size);
        }

        _reservations.Add(reservation);
        Pointer = reservation.Address;
        _reserved = size;
    }
}
