namespace ListMmf;

/// <summary>
/// Options for opening a list, sorted list, time series or table (<see cref="ListMmf{T}"/> and every form over it).
/// </summary>
public sealed record ListMmfOptions
{
    /// <summary>The options used when none are given.</summary>
    public static ListMmfOptions Default { get; } = new();

    /// <summary>How the file is mapped. <see cref="MappingBackend.Default"/> picks the best one for the system.</summary>
    public MappingBackend Backend { get; init; }

    /// <summary>
    /// Whether a writer creates the file when it is missing (the default). Set it to false where a missing file
    /// means a mistyped path: the open then throws <see cref="System.IO.FileNotFoundException"/> instead of
    /// starting an empty list. Readers never create files.
    /// </summary>
    public bool CreateIfMissing { get; init; } = true;

    /// <summary>
    /// The capacity, in items, that a new file is created with. Ignored when the file exists. 0 (the default)
    /// creates a small file that grows as items are added.
    /// </summary>
    public long InitialCapacity { get; init; }

    /// <summary>
    /// For a live writer that needs steady append latency: keep the next 1 MiB of the file past its items faulted in
    /// and writable, and the 1 MiB after that faulted in on a thread-pool thread while the writer appends below it, so
    /// that the page faults and the zeroing of fresh pages happen beside the appends rather than in them (docs/internals.md,
    /// "Growth"). The faulted-in pages are dirty, so a flush also writes the zeros of up to
    /// two windows past the items. Ignored by readers. Off by default.
    /// </summary>
    public bool PrefaultAhead { get; init; }

    /// <summary>
    /// For a writer that flushes at checkpoints while it appends: start writing its items back to disk, without
    /// waiting, each time another 2 MiB of them is written, so that <see cref="ListMmf{T}.Flush"/> waits only for what
    /// came after. Only whole 2 MiB blocks are started, never the first page, which holds the count: durability and
    /// its order are still only what <see cref="ListMmf{T}.Flush"/> gives. Not for bulk loads: it makes the writer
    /// keep pace with the disk, so a checkpoint's flush is shorter and a bulk load longer (benchmarks/README.md,
    /// "Figures behind the code"). Linux (sync_file_range); ignored elsewhere and by readers. Off by default.
    /// </summary>
    public bool WriteBehind { get; init; }

    /// <summary>
    /// For sorted lists and time series: search through an in-RAM page index (on by default). It is built on the
    /// first search of a list of at least 8,192 file pages (32 MiB; a smaller list is searched by plain binary search),
    /// from the first key of every 1 KiB block, and extended as the list grows; for 4-byte keys it takes about 0.4%
    /// of the file's size in RAM. On a file that is not in the page cache, building it reads the file; turn it off for
    /// a few searches of a cold file.
    /// </summary>
    public bool SearchIndex { get; init; } = true;

    /// <summary>
    /// Read the published items into memory when the list is opened, so that the first searches after opening take
    /// no page faults (Linux 5.14 and later: MADV_POPULATE_READ; ignored elsewhere). On a file that is not in the page
    /// cache, it reads the whole file. Off by default.
    /// </summary>
    public bool PopulateOnOpen { get; init; }

    /// <summary>
    /// For time series: their times are UTC. A series created with it records so in its description
    /// (<see cref="ListMmfDescription.TimesAreUtc"/>), and any later open of it, with the option or without, returns
    /// times of <see cref="System.DateTimeKind.Utc"/>, converts <see cref="System.DateTimeKind.Local"/> times to UTC,
    /// takes <see cref="System.DateTimeOffset"/>s and refuses <see cref="System.DateTimeKind.Unspecified"/> times, which do
    /// not say their zone (except <see cref="System.DateTime.MinValue"/> and <see cref="System.DateTime.MaxValue"/>). A
    /// series whose times are not UTC refuses Local times and DateTimeOffsets, which it could only compare by guessing
    /// a zone. For a series that records no description (ListMmf 1.x files), the
    /// option says it for this open. Off by default.
    /// </summary>
    public bool TimesAreUtc { get; init; }

    /// <summary>
    /// The format a writer creates a new file in: <see cref="ListMmfFormatVersion.Version2"/> (the default), or
    /// <see cref="ListMmfFormatVersion.Version1"/> for files that readers of ListMmf 1.x must read. Ignored for a file
    /// that exists, which keeps its format, also across a <see cref="ListMmf{T}.TruncateBeginning"/> or a widening.
    /// A <see cref="ListMmfBitArray"/> is always created in version 1's layout.
    /// </summary>
    public ListMmfFormatVersion FormatVersion { get; init; } = ListMmfFormatVersion.Version2;

    /// <summary>
    /// Whether a sorted list or time series reads and writes its description file; a table's columns do not, their
    /// table's manifest describes them.
    /// </summary>
    internal bool Described { get; init; } = true;

    /// <summary>
    /// Whether the file is a table's column: a regular file in its table's folder, never reached through a symbolic
    /// link at its own name (a link there is refused, whoever made it).
    /// </summary>
    internal bool InTableFolder { get; init; }

    /// <summary>
    /// Whether a writer lowers counts that pass the file's end to the items it holds instead of refusing the file: a
    /// table's value column, whose count publishes nothing by itself (its table's time column does).
    /// </summary>
    internal bool FitCountsToFile { get; init; }
}
