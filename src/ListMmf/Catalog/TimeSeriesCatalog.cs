using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A market in one folder: many instruments' tables of each kind (trades, quotes, bars), one
/// <see cref="TimeSeriesTable"/> a period (day, month or year) under <c>kind/instrument/period/</c>, with one index of
/// every partition's period, rows and first and last times, so that listing, finding and replaying open no column
/// file that is not needed. One writer appends rows for any instrument; readers in any process list, open and
/// replay what its last <see cref="Flush()"/> recorded.
/// </summary>
/// <remarks>
/// Each partition stays an ordinary table that the tool, Python and Arrow read on their own. The index
/// (<c>partitions.mmf</c>) only grows: a partition's last line is what it holds. The writer records a partition's
/// rows only after they are durable, so after a crash the index never claims a row that is not there. Not
/// thread-safe: give each thread its own catalog.
/// </remarks>
/// <example>
/// <code>
/// var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
///     .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime).Add&lt;double&gt;("price"));
/// using (var catalog = TimeSeriesCatalog.Create(folder, schema))
/// {
///     TimeSeriesTable day = catalog.Partition("trades", "SPY", time);
///     day.Column&lt;double&gt;("price").Add(470.25);
///     day.AddRow(time);
///     catalog.Flush();
/// }
///
/// using var reader = TimeSeriesCatalog.Open(folder, FileAccess.Read);
/// using CatalogReplay replay = reader.Replay(from, to, columns: ["price"]);
/// while (replay.MoveNext())
/// {
///     // replay.Instrument's rows replay.Rows, at replay.Times, in one time order
///     ReadOnlySpan&lt;double&gt; prices = replay.Values&lt;double&gt;(0);
/// }
/// </code>
/// </example>
public sealed partial class TimeSeriesCatalog : IDisposable
{
    /// <summary>The manifest's file name in the catalog's folder.</summary>
    public const string ManifestFileName = "catalog.json";

    /// <summary>The <see cref="PartitionCacheSize"/> a catalog opens with.</summary>
    public const int DefaultPartitionCacheSize = 1024;

    private const string IndexFileName = "partitions.mmf";

    private const string InstrumentsFileName = "instruments.text.mmf";

    private readonly CatalogIndex _index;
    private readonly TextEntries _instruments;
    private readonly ListMmfOptions _options;
    private readonly DateTimeKind[] _timeKinds;
    private readonly CatalogTableCache _tables;

    /// <summary>How many of the instruments (the first, by ordinal) this catalog reads: a snapshot's, or all.</summary>
    private readonly int _instrumentLimit;

    /// <summary>The partitions made for the index's lines, by kind, instrument and period start.</summary>
    private readonly Dictionary<(int Kind, int Instrument, long PeriodStart), CatalogPartition> _partitions = [];

    /// <summary>Whether every kind's times are UTC: the catalog's own times (watermark, replay ranges) are then too.</summary>
    private readonly bool _allUtc;
    private bool _disposed;

    /// <summary>
    /// Whether partitions opened alone are read ahead (<see cref="ReadAheadAlone"/>): from a reader's open that found
    /// the catalog cold, until a partition is found cached or a read-ahead of many partitions is asked for (which
    /// tests the cache itself).
    /// </summary>
    private volatile bool _readsAheadAlone;

    /// <summary>
    /// The bytes of the index, the instruments and the checkpoint a reader's open reads first: each one's header, the
    /// first instruments' names, the checkpoint's directory.
    /// </summary>
    private const long OpenReadBytes = 16 * 1024;

    private TimeSeriesCatalog(string path, TimeSeriesCatalogSchema? schema, FileAccess access, ListMmfOptions? options,
        CatalogSnapshot? snapshot = null)
    {
        Path = path;
        Snapshot = snapshot;
        _instrumentLimit = snapshot?.Instruments ?? int.MaxValue;
        IsWritable = access == FileAccess.ReadWrite;
        bool create = schema is not null;
        string manifest = System.IO.Path.Combine(path, ManifestFileName);
        _options = options ?? ListMmfOptions.Default;
        ListMmfOptions own = _options with { CreateIfMissing = create };
        _tables = new CatalogTableCache(
            OpenKnown,
            DefaultPartitionCacheSize);
        ListMmf<PartitionRecord>? records = null;
        ListMmf<byte>? names = null;
        try
        {
            if (!create && !IsWritable)
            {
                // A cold open reads these files' first pages one after the other; asked for together, the disk serves
                // them at once.
                string index = System.IO.Path.Combine(path, IndexFileName);
                _readsAheadAlone = CatalogReadAhead.StartOpen(
                    manifest,
                    (index, OpenReadBytes),
                    (System.IO.Path.Combine(path, InstrumentsFileName), OpenReadBytes),
                    (CatalogCheckpoint.PathFor(index), OpenReadBytes));
            }

            Schema = schema ?? CatalogManifest.Read(manifest);

            // The index's writer lock is the catalog's: one writer at a time, in any process.
            records = new ListMmf<PartitionRecord>(System.IO.Path.Combine(path, IndexFileName), access, own);
            if (create)
            {
                // Under the catalog's lock: the manifest a killed create was writing.
                DurableFile.RemoveLeftover(manifest);
                if (File.Exists(manifest))
                {
                    throw new ListMmfException(path, $"the folder already holds a catalog ({ManifestFileName}); " +
                        "open it with TimeSeriesCatalog.Open.");
                }
            }

            names = new ListMmf<byte>(System.IO.Path.Combine(path, InstrumentsFileName), access, own, DataType.Byte, requireDataType: true,
                description: null);
            _instruments = new TextEntries(names, int.MaxValue, $"the instruments of catalog '{path}'");
            TextEntries instruments = _instruments;
            int limit = _instrumentLimit;
            _index = new CatalogIndex(records, Schema.Kinds.Count, Schema.Period, () => Math.Min(instruments.Count, limit),
                snapshot?.IndexLines ?? long.MaxValue, fromCheckpoint: !IsWritable);
            _timeKinds = Schema.Kinds.Select(kind => Schema.SchemaOf(kind).TimesAreUtc ? DateTimeKind.Utc : DateTimeKind.Unspecified).ToArray();
            _allUtc = _timeKinds.All(kind => kind == DateTimeKind.Utc);
            if (create)
            {
                DurableFile.Create(manifest, CatalogManifest.Write(Schema), static (file, bytes) => file.Write(bytes));
            }
        }
        catch
        {
            names?.Dispose();
            records?.Dispose();
            throw;
        }
    }

    /// <summary>The full path of the catalog's folder.</summary>
    public string Path { get; }

    /// <summary>The catalog's period and kinds.</summary>
    public TimeSeriesCatalogSchema Schema { get; }

    /// <summary>Whether this catalog is its writer.</summary>
    public bool IsWritable { get; }

    /// <summary>
    /// The snapshot this catalog was opened at (<see cref="OpenSnapshot"/>), which it reads as it was taken; null
    /// for a catalog that reads what its writer records.
    /// </summary>
    public CatalogSnapshot? Snapshot { get; }

    /// <summary>The instruments, by ordinal: the order they first came to the catalog in (at a snapshot, those it holds rows of).</summary>
    public IReadOnlyList<string> Instruments
    {
        get
        {
            ThrowIfDisposed();
            int count = InstrumentCount;
            var names = new string[count];
            for (int code = 0; code < count; code++)
            {
                names[code] = _instruments.ValueOf((uint)code, -1);
            }

            return names;
        }
    }

    /// <summary>
    /// A catalog's writer creates version 2 files only: a version 1 file records no durable count, so after a power
    /// loss a partition could show rows whose values never reached the disk, and the index could record rows its
    /// partitions lost. No ListMmf 1.x release reads or writes a catalog, so nothing needs its files in version 1.
    /// </summary>
    private static void ThrowIfVersion1(ListMmfOptions? options)
    {
        if (options?.FormatVersion == ListMmfFormatVersion.Version1)
        {
            throw new ArgumentException("A catalog's files are format version 2: version 1 files record no durable count, " +
                "so a power loss could leave a partition showing rows whose values never reached the disk. ListMmf 1.x " +
                "reads no catalog; leave ListMmfOptions.FormatVersion at Version2 for a catalog's writer.", nameof(options));
        }
    }

    /// <summary>
    /// Creates a catalog of <paramref name="schema"/> in <paramref name="directory"/> (created if missing) and opens
    /// it for writing. The manifest is written last, so a reader never opens a catalog half created.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="options"/> asks for version 1 files: a catalog's are version 2.</exception>
    /// <exception cref="ListMmfException">The folder already holds a catalog, or a file could not be created.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the catalog open.</exception>
    public static TimeSeriesCatalog Create(string directory, TimeSeriesCatalogSchema schema, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        ArgumentNullException.ThrowIfNull(schema);
        if (schema.Kinds.Count == 0)
        {
            throw new ArgumentException("The catalog's schema has no kinds; add one with TimeSeriesCatalogSchema.Add.", nameof(schema));
        }

        ThrowIfVersion1(options);
        string path = System.IO.Path.GetFullPath(directory);
        DurableFile.CreateDirectory(path);
        return new TimeSeriesCatalog(path, schema, FileAccess.ReadWrite, options);
    }

    /// <summary>
    /// Opens the catalog in <paramref name="directory"/>: for writing by default (one writer), or read-only with
    /// <see cref="FileAccess.Read"/>. Reads the manifest and the index; opens no partition.
    /// </summary>
    /// <exception cref="ArgumentException">A writer's <paramref name="options"/> ask for version 1 files: a catalog's are version 2.</exception>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist.</exception>
    /// <exception cref="ListMmfFormatException">The manifest or the index is not valid.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the catalog open.</exception>
    public static TimeSeriesCatalog Open(string directory, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        if (access is not (FileAccess.Read or FileAccess.ReadWrite))
        {
            throw new ArgumentOutOfRangeException(nameof(access), access, "A catalog is opened for Read or ReadWrite.");
        }

        if (access == FileAccess.ReadWrite)
        {
            ThrowIfVersion1(options);
        }

        return new TimeSeriesCatalog(System.IO.Path.GetFullPath(directory), schema: null, access, options);
    }

    /// <summary>
    /// The partitions the index records, of <paramref name="kind"/> and <paramref name="instrument"/> where given,
    /// in kind, instrument and period order; with what the writer recorded since the last call. Opens no partition.
    /// </summary>
    /// <exception cref="ArgumentException">The catalog has no such kind.</exception>
    public IReadOnlyList<CatalogPartition> Partitions(string? kind = null, string? instrument = null)
    {
        ThrowIfDisposed();
        int rank = kind is null ? -1 : RankOf(kind);
        int ordinal = instrument is null ? -1 : FindInstrument(instrument);
        if (instrument is not null && ordinal < 0)
        {
            return [];
        }

        _index.ReadNew();
        return _index.Series
            .Where(series => (rank < 0 || series.Key.Kind == rank) && (ordinal < 0 || series.Key.Instrument == ordinal))
            .OrderBy(series => series.Key.Kind).ThenBy(series => series.Key.Instrument)
            .SelectMany(series => series.Value.Select(record => PartitionOf(record)))
            .ToArray();
    }

    /// <summary>
    /// The partitions of <paramref name="instrument"/>'s <paramref name="kind"/> with recorded rows in
    /// [<paramref name="from"/>, <paramref name="to"/>), in time order, from the index alone.
    /// </summary>
    /// <exception cref="ArgumentException">The catalog has no such kind.</exception>
    public IReadOnlyList<CatalogPartition> Find(string kind, string instrument, DateTime from, DateTime to)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(instrument);
        int rank = RankOf(kind);
        int ordinal = FindInstrument(instrument);
        _index.ReadNew();
        List<PartitionRecord>? series = ordinal < 0 ? null : _index.SeriesOf(rank, ordinal);
        bool utc = _timeKinds[rank] == DateTimeKind.Utc;
        (long start, long end) = (TicksOf(from, utc), TicksOf(to, utc));
        return series is null ? [] : series.Where(record => Overlaps(record, start, end)).Select(record => PartitionOf(record)).ToArray();
    }

    /// <summary>
    /// Opens <paramref name="partition"/>'s table for reading, in whichever form its files are; the caller disposes it.
    /// </summary>
    /// <remarks>
    /// The open reads the time column; each value column's file is opened when a read of it first needs it, so a
    /// lookup opens one file and a replay the columns it reads. A value column refused then (missing, damaged, or
    /// holding fewer values than the rows) throws from that read, naming the column's file.
    /// </remarks>
    /// <exception cref="ArgumentException">The partition is not one of this catalog's.</exception>
    /// <exception cref="ListMmfFormatException">The partition's table holds fewer rows than the index records.</exception>
    public TimeSeriesTable OpenPartition(CatalogPartition partition)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(partition);
        if (!string.Equals(System.IO.Path.GetDirectoryName(System.IO.Path.GetDirectoryName(System.IO.Path.GetDirectoryName(partition.Path))),
            Path, StringComparison.Ordinal))
        {
            throw new ArgumentException($"The partition '{partition.Path}' is not one of catalog '{Path}'.", nameof(partition));
        }

        // Opened as the replays open it, with the kind's schema and the form the index records: its manifest is not
        // read, its columns are not looked at before they are opened, and its value columns wait for a read.
        TimeSeriesTable table = OpenKnown(partition);
        if (ShortPartition(partition, table) is { } refused)
        {
            table.Dispose();
            throw refused;
        }

        return table;
    }

    /// <summary>
    /// Replays the recorded rows of every instrument and kind (or of those given) in [<paramref name="from"/>,
    /// <paramref name="to"/>) in one time order, in batches of at most <paramref name="batchRows"/> rows of one
    /// partition. Rows of equal time come in the order (kind rank, instrument ordinal, row), whatever the files'
    /// forms, the thread or the order of the folders, so that a replay repeats a live run's order exactly. The replay
    /// reads the rows the index recorded when it started; opens each partition when the replay reaches it, one at a
    /// time for each instrument and kind, and holds at most <paramref name="batchRows"/> times of each.
    /// </summary>
    /// <exception cref="ArgumentException">A kind or an instrument is not in the catalog, or a column is not a number
    /// column of every kind replayed (of any kind, where none is).</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="batchRows"/> is less than 1.</exception>
    public CatalogReplay Replay(DateTime from, DateTime to, IEnumerable<string>? instruments = null, IEnumerable<string>? kinds = null,
        IEnumerable<string>? columns = null, int batchRows = CatalogReplay.DefaultBatchRows)
    {
        ThrowIfDisposed();
        ArgumentOutOfRangeException.ThrowIfLessThan(batchRows, 1);
        HashSet<int>? ranks = Ranks(kinds);
        bool utc = AreUtc(ranks);
        return new CatalogReplay(this, ranks, Ordinals(instruments), Columns(columns, ranks), TicksOf(from, utc), TicksOf(to, utc),
            batchRows, follow: false);
    }

    /// <summary>
    /// Replays the recorded rows of every instrument and kind (or of those given) in [<paramref name="from"/>,
    /// <paramref name="to"/>) a time at a time: each slice holds every row of one time, in the order of
    /// <see cref="Replay"/>, with the values of <paramref name="columns"/> copied into it.
    /// </summary>
    /// <exception cref="ArgumentException">A kind or an instrument is not in the catalog, or a column is not a number
    /// column of every kind replayed (of any kind, where none is), or not of one type in all of them.</exception>
    public CatalogSlices Slices(DateTime from, DateTime to, IEnumerable<string>? instruments = null, IEnumerable<string>? kinds = null,
        IEnumerable<string>? columns = null) => new(Runs(from, to, instruments, kinds, columns));

    /// <summary>
    /// Replays the recorded rows of every instrument and kind (or of those given) in [<paramref name="from"/>,
    /// <paramref name="to"/>) in runs of many instruments' rows, in the order of <see cref="Replay"/>, with the values
    /// of <paramref name="columns"/> copied into each run: the fastest way through a market whose instruments' times
    /// interleave.
    /// </summary>
    /// <exception cref="ArgumentException">A kind or an instrument is not in the catalog, or a column is not a number
    /// column of every kind replayed (of any kind, where none is), or not of one type in all of them.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="runRows"/> is less than 1.</exception>
    public CatalogRuns Runs(DateTime from, DateTime to, IEnumerable<string>? instruments = null, IEnumerable<string>? kinds = null,
        IEnumerable<string>? columns = null, int runRows = CatalogRuns.DefaultRunRows) =>
        NewRuns(from, to, instruments, kinds, columns, runRows, follow: false);

    /// <summary>
    /// Replays the rows from <paramref name="from"/> on as the writer records them, in runs, as <see cref="Follow"/>
    /// does in batches: each <see cref="CatalogRuns.MoveNext"/> gives the next run of rows before the catalog's
    /// <see cref="Watermark"/>, and returns false once every row before it was given; called again after the
    /// writer's next <see cref="Flush(DateTime)"/>, it goes on with the rows that flush completed.
    /// </summary>
    /// <exception cref="ArgumentException">A kind or an instrument is not in the catalog, or a column is not a number
    /// column of every kind replayed (of any kind, where none is), or not of one type in all of them.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="runRows"/> is less than 1.</exception>
    /// <exception cref="InvalidOperationException">The catalog was opened at a snapshot, which never grows.</exception>
    public CatalogRuns FollowRuns(DateTime from, IEnumerable<string>? instruments = null, IEnumerable<string>? kinds = null,
        IEnumerable<string>? columns = null, int runRows = CatalogRuns.DefaultRunRows)
    {
        ThrowIfDisposed();
        ThrowIfSnapshot();
        return NewRuns(from, from, instruments, kinds, columns, runRows, follow: true);
    }

    private CatalogRuns NewRuns(DateTime from, DateTime to, IEnumerable<string>? instruments, IEnumerable<string>? kinds,
        IEnumerable<string>? columns, int runRows, bool follow)
    {
        ThrowIfDisposed();
        ArgumentOutOfRangeException.ThrowIfLessThan(runRows, 1);
        HashSet<int>? ranks = Ranks(kinds);
        string[] names = Columns(columns, ranks);
        var run = new CatalogRun(Path, names, ColumnTypes(names, ranks));
        bool utc = AreUtc(ranks);
        var replay = new CatalogReplay(this, ranks, Ordinals(instruments), names, TicksOf(from, utc), TicksOf(to, utc),
            CatalogReplay.DefaultBatchRows, follow, runs: true);
        return new CatalogRuns(replay, run, runRows);
    }

    /// <summary>The type of each of the columns <paramref name="columns"/> in the kinds replayed, one a column.</summary>
    /// <exception cref="ArgumentException">A column holds another type in one of the kinds.</exception>
    private DataTypeInfo[] ColumnTypes(string[] columns, HashSet<int>? ranks)
    {
        var types = new DataTypeInfo[columns.Length];
        for (int column = 0; column < columns.Length; column++)
        {
            // An empty list of kinds replays nothing: the column's type is then the first kind's that has it.
            bool none = ranks is { Count: 0 };
            DataType[] stored = Enumerable.Range(0, Schema.Kinds.Count).Where(rank => ranks is null || none || ranks.Contains(rank))
                .Select(rank => Schema.SchemaOf(Schema.Kinds[rank]).Columns.FirstOrDefault(c => c.Name == columns[column] && !c.IsText))
                .OfType<TableColumnInfo>().Select(c => c.DataType).Distinct().Take(none ? 1 : int.MaxValue).ToArray();
            // Columns refused a column no kind read has (or, reading none, no kind at all).
            types[column] = stored.Length == 1
                ? DataTypeInfo.Of(stored[0])
                : throw new ArgumentException($"The column '{columns[column]}' holds {string.Join(" in one kind and ", stored)} in " +
                    "another: a run's values of a column are of one type.", nameof(columns));
        }

        return types;
    }

    /// <summary>
    /// Replays the rows from <paramref name="from"/> on as the writer records them, in the order of
    /// <see cref="Replay"/>: each <see cref="CatalogReplay.MoveNext"/> gives the next batch of rows before the
    /// catalog's <see cref="Watermark"/>, and returns false once every row before it was given; called again after
    /// the writer's next <see cref="Flush(DateTime)"/>, it goes on with the rows that flush completed. Rows after the
    /// watermark wait for it, so that the live order is the order a later <see cref="Replay"/> of the same rows gives,
    /// rows of instruments that came since included. Between watermarks it keeps open the partition each instrument
    /// and kind ended on, for the next, so it holds a partition of each open until the replay is disposed (also
    /// after the catalog is), whatever <see cref="PartitionCacheSize"/>.
    /// </summary>
    /// <exception cref="ArgumentException">A kind or an instrument is not in the catalog, or a column is not a number
    /// column of every kind replayed (of any kind, where none is).</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="batchRows"/> is less than 1.</exception>
    /// <exception cref="InvalidOperationException">The catalog was opened at a snapshot, which never grows.</exception>
    public CatalogReplay Follow(DateTime from, IEnumerable<string>? instruments = null, IEnumerable<string>? kinds = null,
        IEnumerable<string>? columns = null, int batchRows = CatalogReplay.DefaultBatchRows)
    {
        ThrowIfDisposed();
        ThrowIfSnapshot();
        ArgumentOutOfRangeException.ThrowIfLessThan(batchRows, 1);
        HashSet<int>? ranks = Ranks(kinds);
        bool utc = AreUtc(ranks);
        return new CatalogReplay(this, ranks, Ordinals(instruments), Columns(columns, ranks), TicksOf(from, utc), TicksOf(from, utc),
            batchRows, follow: true);
    }

    /// <summary>Refuses to follow a catalog opened at a snapshot.</summary>
    /// <exception cref="InvalidOperationException">The catalog was opened at a snapshot, which never grows.</exception>
    private void ThrowIfSnapshot()
    {
        if (Snapshot is not null)
        {
            throw new InvalidOperationException($"The catalog '{Path}' was opened at its snapshot '{Snapshot.Name}', which never " +
                "grows: replay it with Replay.");
        }
    }

    /// <summary>
    /// The time before which the writer has recorded every row (<see cref="Flush(DateTime)"/>), as the index holds
    /// it now; <see cref="DateTime.MinValue"/> until the writer declares one.
    /// </summary>
    public DateTime Watermark
    {
        get
        {
            ThrowIfDisposed();
            _index.ReadNew();
            return StoredTimes.Returned(new DateTime(_index.Watermark), _allUtc);
        }
    }

    /// <summary>
    /// Reads every line of the index and checks each as a reader's open checks the lines it reads, and checks that
    /// the index's checkpoint (<c>partitions.checkpoint</c>), where a reader would use it, holds what those lines do.
    /// A reader that starts from the checkpoint reads only the lines after it and the series it is asked for; this is
    /// the check of the rest (<c>listmmf catalog verify</c> makes it). A checkpoint no reader would use (damaged, or
    /// another index's) is no problem: readers read the index instead, and the writer's next close replaces it.
    /// </summary>
    /// <exception cref="ListMmfFormatException">A line of the index is damaged, or the checkpoint disagrees with it.</exception>
    public void VerifyIndex()
    {
        ThrowIfDisposed();
        string path = System.IO.Path.Combine(Path, IndexFileName);
        using var records = new ListMmf<PartitionRecord>(path, FileAccess.Read, _options with { CreateIfMissing = false });
        long limit = Snapshot?.IndexLines ?? long.MaxValue;
        Func<int> instruments = () => Math.Min(_instruments.Count, _instrumentLimit);
        using var whole = new CatalogIndex(records, Schema.Kinds.Count, Schema.Period, instruments, limit, owns: false);
        CatalogCheckpoint? checkpoint = CatalogCheckpoint.Open(records, Schema.Kinds.Count);
        if (checkpoint is not null
            && CatalogIndex.ProblemWithCheckpoint(checkpoint, records, Schema.Kinds.Count, Schema.Period, instruments) is { } problem)
        {
            throw new ListMmfFormatException(CatalogCheckpoint.PathFor(path), $"the index's checkpoint {problem}: readers " +
                "that start from it would not see what the index records. Delete it; readers then read the whole index.");
        }
    }

    /// <summary>
    /// The chains of partitions with recorded rows in [<paramref name="from"/>, <paramref name="to"/>), one a
    /// series of the kinds and instruments given (all where null), each in period order, from the index as it is now.
    /// </summary>
    internal List<CatalogPartition[]> Chains(HashSet<int>? ranks, HashSet<int>? ordinals, long from, long to)
    {
        _index.ReadNew();

        // Instruments named: their series alone, which a reader that started from the index's checkpoint reads now.
        IEnumerable<(int Kind, int Instrument)> keys = ordinals is null
            ? _index.Series.Keys.Where(key => ranks is null || ranks.Contains(key.Kind)).ToArray()
            : (ranks ?? Enumerable.Range(0, Schema.Kinds.Count)).SelectMany(rank => ordinals.Select(ordinal => (rank, ordinal))).Order();
        var chains = new List<CatalogPartition[]>();
        foreach ((int kind, int instrument) in keys)
        {
            CatalogPartition[] chain = (_index.SeriesOf(kind, instrument) ?? [])
                .Where(record => Overlaps(record, from, to)).Select(record => PartitionOf(record)).ToArray();
            if (chain.Length > 0)
            {
                chains.Add(chain);
            }
        }

        return chains;
    }

    /// <summary>The watermark the index holds now, in ticks.</summary>
    internal long RecordedWatermark()
    {
        _index.ReadNew();
        return _index.Watermark;
    }

    /// <summary>
    /// How many partitions, opened for reading and read no more, the catalog keeps open for the next replay or
    /// query (a table's files and mappings each), closing the least recently used past it; 0 closes each at once.
    /// </summary>
    /// <remarks>
    /// Each cached partition holds its column files open: lower the size where open files are few (a container's
    /// limit, macOS's). A replay holds the partitions it is reading besides, and a following replay the partition
    /// each instrument and kind ended on between watermarks, whatever the size. A partition sealed or unsealed while
    /// cached is read through the file the cache opened, which keeps that file's space on disk until the partition
    /// leaves the cache or the catalog is disposed.
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public int PartitionCacheSize
    {
        get => _tables.Limit;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            ThrowIfDisposed();
            _tables.Limit = value;
        }
    }

    /// <summary>The catalog's cache of partitions open for reading, for tests.</summary>
    internal CatalogTableCache TableCache => _tables;

    /// <summary>A partition's table opened for reading with its kind's schema, in the form the index records.</summary>
    private TimeSeriesTable OpenKnown(CatalogPartition partition) =>
        TimeSeriesTable.OpenKnown(partition.Path, Schema!.SchemaOf(partition.Kind), partition.IsSealed, _options);

    /// <summary>
    /// A partition's table for reading: <paramref name="held"/> (its table, which the caller kept from an earlier
    /// rent), else the cache's or one opened now; give it back with <see cref="ReturnTable"/>.
    /// </summary>
    /// <exception cref="ListMmfFormatException">The table holds fewer rows than the index records.</exception>
    internal TimeSeriesTable RentTable(CatalogPartition partition, TimeSeriesTable? held = null)
    {
        TimeSeriesTable table = held ?? _tables.Rent(partition);
        if (ShortPartition(partition, table) is { } refused)
        {
            _tables.Return(partition, table);
            throw refused;
        }

        return table;
    }

    /// <summary>
    /// The refusal of a partition whose table lost rows the index records, null for one that holds them all: the
    /// writer records rows only once they are durable, so they were taken away behind the catalog's back (a
    /// truncation, a copy, a file system that broke its flushes).
    /// </summary>
    private static ListMmfFormatException? ShortPartition(CatalogPartition partition, TimeSeriesTable table)
    {
        long rows = table.RowCount;
        return rows >= partition.RowCount ? null : new(partition.Path,
            $"the catalog's index records {partition.RowCount:N0} rows of this partition, but its table holds {rows:N0}: rows the " +
                "catalog recorded were removed or lost behind its back (recorded rows are durable when recorded)");
    }

    /// <summary>
    /// Starts reading the files of those of <paramref name="partitions"/> about to be opened together that the cache
    /// does not hold open, where they are cold (<see cref="CatalogReadAhead"/>): the time column and
    /// <paramref name="columns"/>. Returns whether it did.
    /// </summary>
    internal bool ReadAhead(IReadOnlyList<CatalogPartition> partitions, IReadOnlyCollection<string> columns)
    {
        if (partitions.Count < CatalogReadAhead.FewestPartitions)
        {
            return false;
        }

        _readsAheadAlone = false;
        return CatalogReadAhead.Start(_tables.NotHeld(partitions), Schema.SchemaOf, columns);
    }

    /// <summary>
    /// Starts reading the files of <paramref name="partition"/>, about to be opened alone, as
    /// <see cref="ReadAhead"/> does for many, while this reader's catalog has been cold since its open: the first
    /// partition found cached ends it, so that a warm catalog's opens never pay for the question. Returns whether it
    /// started reading.
    /// </summary>
    internal bool ReadAheadAlone(CatalogPartition partition, IReadOnlyCollection<string> columns)
    {
        if (!_readsAheadAlone || _tables.Holds(partition))
        {
            return false;
        }

        if (!CatalogReadAhead.StartAlone(partition, Schema.SchemaOf, columns))
        {
            _readsAheadAlone = false;
            return false;
        }

        return true;
    }

    /// <summary>Gives back a table <see cref="RentTable"/> gave, to the cache.</summary>
    internal void ReturnTable(CatalogPartition partition, TimeSeriesTable table) => _tables.Return(partition, table);

    /// <summary>Runs <paramref name="work"/> on <paramref name="partition"/>'s table, borrowed from the cache and given back.</summary>
    private TResult WithTable<TResult>(CatalogPartition partition, Func<TimeSeriesTable, TResult> work)
    {
        TimeSeriesTable table = RentTable(partition);
        try
        {
            return work(table);
        }
        finally
        {
            ReturnTable(partition, table);
        }
    }

    /// <summary>
    /// Closes the catalog: a writer first flushes and records what it appended (<see cref="Flush()"/>), and closes its
    /// partitions whatever the flush met.
    /// </summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        try
        {
            if (IsWritable)
            {
                Flush();
                _index.Close();
            }
        }
        finally
        {
            _disposed = true;
            try
            {
                CloseWriting();
            }
            finally
            {
                _tables.Dispose();
                _instruments.Dispose();
                _index.Dispose();
            }
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"TimeSeriesCatalog('{Path}', {Schema.Period}, kinds {string.Join(", ", Schema.Kinds)})";

    /// <summary>Whether <paramref name="name"/> is, or begins with, the name of one of the catalog's own files.</summary>
    internal static bool IsOwnFileName(string name) =>
        new[] { ManifestFileName, IndexFileName, InstrumentsFileName }.Any(own => name.StartsWith(own, StringComparison.OrdinalIgnoreCase))
        || string.Equals(name, CatalogSnapshot.FolderName, StringComparison.OrdinalIgnoreCase);

    /// <summary>How many instruments this catalog reads: all, or a snapshot's.</summary>
    private int InstrumentCount => Math.Min(_instruments.Count, _instrumentLimit);

    /// <summary>The ordinal of <paramref name="instrument"/> among those this catalog reads, or -1.</summary>
    private int FindInstrument(string instrument) => _instruments.Find(instrument) is var ordinal && ordinal < _instrumentLimit ? ordinal : -1;

    private HashSet<int>? Ranks(IEnumerable<string>? kinds) => kinds?.Select(RankOf).ToHashSet();

    /// <summary>
    /// Whether every kind of <paramref name="ranks"/> (every kind where null) keeps UTC times: how a call that reads
    /// those kinds places the times it is given.
    /// </summary>
    private bool AreUtc(HashSet<int>? ranks) => ranks is null ? _allUtc : ranks.All(rank => _timeKinds[rank] == DateTimeKind.Utc);

    private HashSet<int>? Ordinals(IEnumerable<string>? instruments) => instruments?.Select(KnownOrdinalOf).ToHashSet();

    private int KnownOrdinalOf(string instrument) =>
        FindInstrument(instrument ?? throw new ArgumentNullException(nameof(instrument), "An instrument's name is null.")) is >= 0 and int ordinal
            ? ordinal
            : throw new ArgumentException($"The catalog '{Path}' has no instrument '{instrument}'.", nameof(instrument));

    /// <summary>The value columns a replay reads (<see cref="CatalogReplay.Values{T}(int)"/>), each one of every replayed kind's.</summary>
    private string[] Columns(IEnumerable<string>? columns, HashSet<int>? ranks)
    {
        string[] names = columns?.ToArray() ?? [];
        if (ranks is { Count: 0 } && names.FirstOrDefault(name => !Enumerable.Range(0, Schema.Kinds.Count).Any(rank => IsNumberColumn(rank, name)))
            is { } unknown)
        {
            // No kind is read, so no row: a column is still refused where no kind could ever give it.
            throw new ArgumentException($"No kind of the catalog '{Path}' has a number column '{unknown}'.", nameof(columns));
        }

        for (int rank = 0; rank < Schema.Kinds.Count; rank++)
        {
            TimeSeriesTableSchema kind = Schema.SchemaOf(Schema.Kinds[rank]);
            string? missing = ranks is not null && !ranks.Contains(rank)
                ? null
                : names.FirstOrDefault(name => !IsNumberColumn(rank, name));
            if (missing is not null)
            {
                string numbers = string.Join(", ", kind.Columns.Where(column => !column.IsText).Select(column => column.Name));
                throw new ArgumentException($"The kind '{Schema.Kinds[rank]}' has no number column '{missing}' (its number columns: " +
                    $"{numbers}); a query of several kinds reads columns every one of them has.", nameof(columns));
            }
        }

        return names;
    }

    private bool IsNumberColumn(int rank, string name) =>
        Schema.SchemaOf(Schema.Kinds[rank]).Columns.Any(column => column.Name == name && !column.IsText);

    /// <summary>
    /// A time's ticks as the catalog's tables store them, by the tables' own rule (<see cref="StoredTimes.Of"/>): where
    /// the times are UTC a Local time is converted and an Unspecified one refused, the ends of time aside; where they are
    /// not (or not in every kind asked for) a Local time is refused.
    /// </summary>
    /// <exception cref="ArgumentException">A time of a kind the catalog cannot place.</exception>
    private long TicksOf(DateTime time, bool utc) => StoredTimes.Of(time, utc, Path).Ticks;

    private static bool Overlaps(in PartitionRecord record, long from, long to) =>
        record.Rows > 0 && record.LastTime >= from && record.FirstTime < to;

    /// <summary>
    /// The partition of <paramref name="record"/>: the one made for the partition's line before when the line is the
    /// same, so that a query asked at every step of a backtest builds no path.
    /// </summary>
    private CatalogPartition PartitionOf(in PartitionRecord record)
    {
        (int, int, long) key = (record.Kind, record.Instrument, record.PeriodStart);
        if (_partitions.TryGetValue(key, out CatalogPartition? known) && known.Records(record))
        {
            return known;
        }

        string kind = Schema.Kinds[record.Kind];
        string instrument = _instruments.ValueOf((uint)record.Instrument, -1);
        string path = known?.Path ?? PathOf(kind, instrument, record.PeriodStart);
        var partition = new CatalogPartition(kind, record.Kind, instrument, record.Instrument, path, _timeKinds[record.Kind], Schema.Period, record);
        _partitions[key] = partition;
        return partition;
    }

    private string PathOf(string kind, string instrument, long periodStart) =>
        System.IO.Path.Combine(Path, kind, instrument, CatalogPeriods.NameOf(periodStart, Schema.Period));

    private int RankOf(string kind)
    {
        ArgumentNullException.ThrowIfNull(kind);
        int rank = Schema.IndexOf(kind);
        return rank >= 0 ? rank : throw new ArgumentException(
            $"The catalog '{Path}' has no kind '{kind}'; its kinds are {string.Join(", ", Schema.Kinds)}.", nameof(kind));
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(_disposed, this);
}
