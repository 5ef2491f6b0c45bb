using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Numerics;
using System.Runtime.CompilerServices;
using ListMmf.Sealed;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A table of ticks or bars in a folder: one time column and any number of value columns, each an ordinary ListMmf
/// file, named by a manifest (<c>table.json</c>). One writer appends rows; readers in any process see whole rows only.
/// </summary>
/// <remarks>
/// The writer adds a value to every value column (<see cref="TableColumn{T}.Add"/>), then publishes the row with
/// <see cref="AddRow(DateTime)"/>. Values of a row a killed writer never published are trimmed by the next writer's
/// open (<see cref="Repairs"/>). Not thread-safe: give each thread its own reader. The time column's count, written
/// after every value column, is the published row count, so a reader never sees a row whose values are not all
/// written; <c>Flush</c> flushes the value columns first, then the time column.
/// </remarks>
/// <example>
/// <code>
/// var schema = new TimeSeriesTableSchema("time").Add&lt;double&gt;("price").Add&lt;int&gt;("size");
/// using var table = TimeSeriesTable.Create(folder, schema);
/// table.Column&lt;double&gt;("price").Add(4501.25);
/// table.Column&lt;int&gt;("size").Add(3);
/// table.AddRow(new DateTime(2024, 1, 2, 14, 30, 0));
/// </code>
/// </example>
public sealed class TimeSeriesTable : IReadOnlyTimeSeries
{
    /// <summary>The manifest's file name in the table's folder.</summary>
    public const string ManifestFileName = "table.json";

    private readonly WriterLock? _lock;
    /// <summary>The time column's reads, in either form.</summary>
    private readonly ITimeColumn _time;

    /// <summary>The time column's writes: the same series, where it is appendable (a writer's always is); else null.</summary>
    private readonly ITimeSeries? _timeWriter;
    private readonly TableColumn[] _values;
    private readonly TableColumn[] _columns;
    private readonly Dictionary<string, TableColumn> _byName = new(StringComparer.Ordinal);
    private readonly List<string> _repairs = [];
    private readonly bool _hasManifest;
    private long _staged;

    private TimeSeriesTable(string path, TimeSeriesTableSchema? schema, FileAccess access, ListMmfOptions? options, bool create)
    {
        Path = path;
        IsWritable = access == FileAccess.ReadWrite;
        string manifest = System.IO.Path.Combine(path, ManifestFileName);
        _hasManifest = schema is null || create;
        var opened = new List<TableColumn>();
        ITimeColumn? time = null;
        try
        {
            if (IsWritable)
            {
                _lock = LockTable(path);

                // Under the table's lock: the manifest a killed create was writing.
                DurableFile.RemoveLeftover(manifest);
            }

            if (create && File.Exists(manifest))
            {
                throw new ListMmfException(path, $"the folder already holds a table ({ManifestFileName}); open it with TimeSeriesTable.Open.");
            }

            Schema = schema ?? TableManifest.Read(manifest);
            if (create)
            {
                CheckAdoptedFiles();
            }

            ListMmfOptions columnOptions = (options ?? ListMmfOptions.Default) with
            {
                CreateIfMissing = create,
                TimesAreUtc = Schema.TimesAreUtc,
                Described = false,
                InTableFolder = true,
            };
            TableColumnInfo timeInfo = Schema.Time;
            string timePath = PathOf(timeInfo);
            TableColumn timeColumn;
            (time, timeColumn) = timeInfo.DataType == DataType.UnixSeconds
                ? OpenPart(timeInfo, () => OpenTime<int, UnixSecondsKey>(
                    timeInfo, access, columnOptions, () => new ListMmfTimeSeriesDateTimeSeconds(timePath, Schema.Order, access, columnOptions)))
                : OpenPart(timeInfo, () => OpenTime<long, TicksKey>(
                    timeInfo, access, columnOptions, () => new ListMmfTimeSeriesDateTime(timePath, Schema.Order, access, columnOptions)));
            opened.Add(timeColumn);
            _time = time;
            _timeWriter = time as ITimeSeries;
            foreach (TableColumnInfo info in Schema.Columns)
            {
                opened.Add(OpenPart(info, () => TableColumn.Open(this, info, Path, access, columnOptions)));
            }

            _columns = opened.ToArray();
            _values = _columns[1..];
            foreach (TableColumn column in _columns)
            {
                _byName.Add(column.Name, column);
            }

            // Create adopts files as they are and never trims them: a value file ahead of the time column is
            // refused there (CheckAdoptedFiles), so that a mistyped time file name cannot empty the value files.
            CheckColumnLengths(trim: IsWritable && !create);
            if (create)
            {
                DurableFile.Create(manifest, TableManifest.Write(Schema), static (file, bytes) => file.Write(bytes));
            }
        }
        catch
        {
            foreach (TableColumn column in opened)
            {
                column.Dispose();
            }

            time?.Dispose();
            _lock?.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Creates a table in <paramref name="directory"/> (created if missing) and opens it for writing. Column files
    /// that already exist there, such as the parallel files of ListMmf 1.x, become the table's
    /// columns if their types match; the manifest is written last, so a reader never opens a table half created.
    /// </summary>
    /// <exception cref="ListMmfException">The folder already holds a table, or a file could not be created.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    /// <exception cref="ListMmfDataTypeException">An existing column file holds another type than the schema says.</exception>
    /// <exception cref="ListMmfFormatException">An existing column file is not valid, or holds fewer values than the
    /// time column has rows.</exception>
    public static TimeSeriesTable Create(string directory, TimeSeriesTableSchema schema, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        ArgumentNullException.ThrowIfNull(schema);
        string path = System.IO.Path.GetFullPath(directory);
        DurableFile.CreateDirectory(path);
        return new TimeSeriesTable(path, schema, FileAccess.ReadWrite, options, create: true);
    }

    /// <summary>
    /// Opens the table in <paramref name="directory"/>, described by its manifest: for writing by default (one
    /// writer; the open trims values a crashed writer left past the published rows, see <see cref="Repairs"/>), or
    /// read-only with <see cref="FileAccess.Read"/>. Never creates anything.
    /// </summary>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist (a table being created has no manifest yet).</exception>
    /// <exception cref="ListMmfFormatException">The manifest is not valid, names a column whose file is missing, or a column is damaged.</exception>
    /// <exception cref="ListMmfDataTypeException">A column file holds another type than the manifest says.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    public static TimeSeriesTable Open(string directory, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        string path = System.IO.Path.GetFullPath(directory);

        // Checked before a writer takes the table's lock, so that opening a folder that is no table leaves nothing in it.
        if (!File.Exists(System.IO.Path.Combine(path, ManifestFileName)))
        {
            TableManifest.Read(System.IO.Path.Combine(path, ManifestFileName));
        }

        return new TimeSeriesTable(path, schema: null, CheckAccess(access), options, create: false);
    }

    /// <summary>
    /// Converts every version 1 column file of the table in <paramref name="directory"/> to version 2
    /// (<see cref="ListMmfFileInfo.Upgrade"/>), under the table's writer lock: one file at a time, each atomically;
    /// readers follow each file's replacement and read the table throughout.
    /// </summary>
    /// <returns>How many column files were converted (0 for a table whose files are all version 2).</returns>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    /// <exception cref="ListMmfException">A column file could not be converted; the message names it and says whether
    /// it is unchanged. The files converted before it stay converted.</exception>
    public static int Upgrade(string directory)
    {
        (string path, TimeSeriesTableSchema schema) = Folder(directory);
        return ReplaceEach(path, FilesOf(schema), ListMmfFileInfo.Upgrade);
    }

    /// <summary>
    /// Sets every column file of the table in <paramref name="directory"/> back to its last flush
    /// (<see cref="ListMmfFileInfo.RevertToLastFlush"/>), under the table's writer lock, for when the page cache was lost
    /// without a reboot. The table then holds the rows its time column had flushed; values a column holds past them are
    /// trimmed by the next writer (see <see cref="Repairs"/>).
    /// </summary>
    /// <returns>The rows the table holds afterwards.</returns>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    /// <exception cref="ListMmfException">A column file is version 1, which records no durable count.</exception>
    public static long RevertToLastFlush(string directory)
    {
        (string path, TimeSeriesTableSchema schema) = Folder(directory);
        using WriterLock tableLock = LockTable(path);
        long rows = ListMmfFileInfo.RevertToLastFlush(System.IO.Path.Combine(path, schema.Time.FileName));
        foreach (string file in FilesOf(schema).Skip(1))
        {
            ListMmfFileInfo.RevertToLastFlush(System.IO.Path.Combine(path, file));
        }

        return rows;
    }

    /// <summary>
    /// Replaces every column file of the table in <paramref name="directory"/> by its sealed form
    /// (<see cref="SealedListMmf.Seal"/>), under the table's writer lock: the value columns first, then the time column,
    /// one file at a time, each atomically. The table then opens read-only (<see cref="FileAccess.Read"/>) and answers
    /// every search and read as before; <see cref="TableColumn{T}.AsSpan(IndexRange)"/> gives way to
    /// <see cref="TableColumn{T}.CopyTo"/> and <see cref="TableColumn{T}.Read"/>. A table opens in any mix of the two
    /// forms, so readers read it throughout, and one whose seal was interrupted is sealed by calling this again.
    /// </summary>
    /// <remarks>Values a writer that stopped left past the published rows are trimmed first (see <see cref="Repairs"/>).</remarks>
    /// <returns>How many column files were sealed (0 for a table sealed already).</returns>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    /// <exception cref="ListMmfException">A column file could not be sealed; the message names it and says whether it
    /// is unchanged. The files sealed before it stay sealed.</exception>
    public static int Seal(string directory)
    {
        (string path, TimeSeriesTableSchema schema) = Folder(directory);

        // A missing column file is left to the writer's open, which names the table as damaged.
        if (!ColumnsOf(schema).Select(column => System.IO.Path.Combine(path, column.FileName))
                .Any(file => File.Exists(file) && SealedListMmf.IsSealed(file)))
        {
            new TimeSeriesTable(path, schema: null, FileAccess.ReadWrite, options: null, create: false).Dispose();
        }

        // A text column's values stay as they are: the table's sealed form is the codes'.
        return ReplaceEach(path, [.. schema.Columns.Select(column => column.FileName), schema.Time.FileName], SealedListMmf.Seal);
    }

    /// <summary>
    /// Gives every sealed column file of the table in <paramref name="directory"/> its appendable form back
    /// (<see cref="SealedListMmf.Unseal"/>), under the table's writer lock, one file at a time, each atomically; a
    /// writer may open the table once this returns.
    /// </summary>
    /// <returns>How many column files were unsealed (0 for a table with no sealed column).</returns>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table open.</exception>
    /// <exception cref="ListMmfException">A column file could not be unsealed; the message names it and says whether
    /// it is unchanged. The files unsealed before it stay unsealed.</exception>
    public static int Unseal(string directory)
    {
        (string path, TimeSeriesTableSchema schema) = Folder(directory);
        return ReplaceEach(path, ColumnsOf(schema).Select(column => column.FileName), SealedListMmf.Unseal);
    }

    /// <summary>
    /// Opens the column files that <paramref name="schema"/> names in <paramref name="directory"/> as a table,
    /// without a manifest: for a folder of parallel files written by ListMmf 1.x. Nothing is
    /// created and no manifest is read or written; a writer trims value columns that ran ahead of the time column.
    /// </summary>
    /// <exception cref="FileNotFoundException">A column's file does not exist.</exception>
    /// <exception cref="ListMmfDataTypeException">A column file holds another type than the schema says.</exception>
    /// <exception cref="ListMmfFormatException">A column file is not valid, or holds fewer values than the time column has rows.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    public static TimeSeriesTable Open(
        string directory,
        TimeSeriesTableSchema schema,
        FileAccess access = FileAccess.ReadWrite,
        ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        ArgumentNullException.ThrowIfNull(schema);
        string path = System.IO.Path.GetFullPath(directory);
        if (!System.IO.Directory.Exists(path))
        {
            throw new FileNotFoundException($"'{path}': the table's folder does not exist.", path);
        }

        return new TimeSeriesTable(path, schema, CheckAccess(access), options, create: false);
    }

    /// <summary>The full path of the table's folder.</summary>
    public string Path { get; }

    /// <summary>The table's columns and order.</summary>
    public TimeSeriesTableSchema Schema { get; }

    /// <summary>Whether this instance is the table's writer.</summary>
    public bool IsWritable { get; }

    /// <summary>The columns, the time column first.</summary>
    public IReadOnlyList<TableColumn> Columns => _columns;

    /// <summary>
    /// What this writer's open repaired, one line per column: values a writer that stopped (a crash, a kill) had
    /// stored past the published rows, now trimmed; a column's count that a power loss left past its file's end (the
    /// file's growth lost), lowered to what the file holds; rows a column lacks, lowered. Empty for readers and after
    /// a clean shutdown.
    /// </summary>
    public IReadOnlyList<string> Repairs => _repairs;

    /// <summary>Adds what a column's open repaired to <see cref="Repairs"/>.</summary>
    internal void NoteRepair(string repair) => _repairs.Add(repair);

    /// <summary>
    /// The published rows: the time column's count, read with acquire semantics. Every value of every row below it
    /// is completely written.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The table has been disposed.</exception>
    public long RowCount => _time.Count;

    /// <summary>The time column's reads, in the form it is in: what the tool searches a table with.</summary>
    internal IReadOnlyTimeSeries Times => _time;

    /// <inheritdoc/>
    long IReadOnlyTimeSeries.Count => RowCount;

    /// <inheritdoc/>
    DataType IReadOnlyTimeSeries.DataType => Schema.Time.DataType;

    /// <inheritdoc/>
    bool IReadOnlyTimeSeries.TimesAreUtc => Schema.TimesAreUtc;

    /// <inheritdoc/>
    DateTime IReadOnlyTimeSeries.this[long index] => TimeAt(index);

    /// <inheritdoc/>
    void IReadOnlyTimeSeries.CopyTo(IndexRange range, Span<DateTime> destination) => CopyTimes(range, destination);

    /// <summary>
    /// The column named <paramref name="name"/> (the time column too, read-only), as <typeparamref name="T"/> values:
    /// the type it stores, or <see cref="DateTime"/> for a column of <see cref="DataType.DateTime"/> ticks (see
    /// <see cref="TableColumn{T}"/>).
    /// </summary>
    /// <exception cref="ArgumentException">The table has no column of that name.</exception>
    /// <exception cref="ListMmfDataTypeException">The column does not store <typeparamref name="T"/> values.</exception>
    public TableColumn<T> Column<T>(string name)
        where T : unmanaged
    {
        TableColumn column = ColumnNamed(name, nameof(name));
        if (typeof(T) == typeof(DateTime) && column is TableColumn<long> { DataType: DataType.DateTime } ticks)
        {
            return (TableColumn<T>)(object)TableColumn<DateTime>.DateTimesOf(ticks);
        }

        if (column is TextColumn)
        {
            throw new ListMmfDataTypeException(column.Path, $"column '{name}' of table '{Path}' holds text: read it " +
                "with TimeSeriesTable.Text, whose Codes are its codes as numbers.");
        }

        return column as TableColumn<T>
            ?? throw new ListMmfDataTypeException(column.Path, $"column '{name}' of table '{Path}' holds " +
                $"{DataTypeInfo.Of(column.DataType).Describe()}, not {typeof(T).Name} values.");
    }

    /// <summary>The text column named <paramref name="name"/> (<see cref="TimeSeriesTableSchema.AddText"/>).</summary>
    /// <exception cref="ArgumentException">The table has no column of that name.</exception>
    /// <exception cref="ListMmfDataTypeException">The column holds numbers, not text.</exception>
    public TextColumn Text(string name)
    {
        TableColumn column = ColumnNamed(name, nameof(name));
        return column as TextColumn ?? throw new ListMmfDataTypeException(column.Path, $"column '{name}' of table " +
            $"'{Path}' holds {DataTypeInfo.Of(column.DataType).Describe()}, not text; read it with TimeSeriesTable.Column<T>.");
    }

    /// <summary>The time of <paramref name="row"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="row"/> is not below <see cref="RowCount"/>.</exception>
    public DateTime TimeAt(long row) => _time[row];

    /// <summary>The times of <paramref name="range"/>, converted once into <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    public void CopyTimes(IndexRange range, Span<DateTime> destination) => _time.CopyTo(range, destination);

    /// <summary>The first row whose time is at or after <paramref name="time"/>, or <see cref="RowCount"/>; the time series' rules apply.</summary>
    public long LowerBound(DateTime time) => _time.LowerBound(time);

    /// <summary>The first row whose time is after <paramref name="time"/>, or <see cref="RowCount"/>.</summary>
    public long UpperBound(DateTime time) => _time.UpperBound(time);

    /// <summary>
    /// The rows with times in <c>[from, to)</c>; give the range to <see cref="TableColumn{T}.AsSpan(IndexRange)"/>
    /// for each column's values.
    /// </summary>
    public IndexRange FindRange(DateTime from, DateTime to) => _time.FindRange(from, to);

    /// <summary>
    /// The <see cref="LowerBound(DateTime)"/> of every time in <paramref name="times"/>, into
    /// <paramref name="results"/>, searched together so that their memory misses overlap. No allocation.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void LowerBound(ReadOnlySpan<DateTime> times, Span<long> results) => _time.LowerBound(times, results);

    /// <summary>
    /// The <see cref="UpperBound(DateTime)"/> of every time in <paramref name="times"/>, into
    /// <paramref name="results"/>; see <see cref="LowerBound(ReadOnlySpan{DateTime}, Span{long})"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void UpperBound(ReadOnlySpan<DateTime> times, Span<long> results) => _time.UpperBound(times, results);

    /// <summary>
    /// The last row whose time is at or before <paramref name="time"/>, or -1 when every row is after it: an
    /// instrument's state at <paramref name="time"/>. For many instruments, one table each, ask each table; each
    /// answer is one search.
    /// </summary>
    public long LastAtOrBefore(DateTime time) => _time.LastAtOrBefore(time);

    /// <summary>
    /// The ASOF join: for every time in <paramref name="times"/>, the last row at or before it, or -1, into
    /// <paramref name="results"/>. Ascending times at least one per 64 rows are walked as a merge (each search starts
    /// from the answer before it; a sealed time column merges every ascending batch, a block decoded once for the times
    /// in it); other batches are searched together. No allocation beyond a pooled buffer.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    public void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results) => _time.LastAtOrBefore(times, results);

    /// <summary>
    /// OHLCV bars of <paramref name="interval"/> over the rows with times in <c>[from, to)</c>: one
    /// <see cref="OhlcvBar"/> for each interval that holds rows, in time order. Intervals are counted from
    /// <see cref="DateTime.MinValue"/>, so a minute, an hour or a day starts on the clock's own boundary, whatever
    /// <paramref name="from"/> is (the first bar may start before it). The two columns may hold any number types;
    /// their values are read as doubles. Large ranges are cut into pieces of a fixed size (1,048,576 rows) worked
    /// on every core; the result does not depend on the number of cores.
    /// </summary>
    /// <param name="price">The column whose values open, close and give the high and low of each bar.</param>
    /// <param name="volume">The column whose values are summed into each bar's volume, and weight its turnover.</param>
    /// <param name="from">The first time of the range.</param>
    /// <param name="to">The end of the range, not included.</param>
    /// <param name="interval">The length of a bar.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="interval"/> is not positive.</exception>
    /// <exception cref="ArgumentException">The table has no column of one of the names.</exception>
    /// <exception cref="ListMmfDataTypeException">One of the columns holds text.</exception>
    public OhlcvBar[] Bars(string price, string volume, DateTime from, DateTime to, TimeSpan interval)
    {
        if (interval <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(interval), interval, $"Table '{Path}': a bar's interval must be positive.");
        }

        TableColumn priceColumn = NumbersNamed(price, nameof(price));
        TableColumn volumeColumn = NumbersNamed(volume, nameof(volume));
        IndexRange rows = FindRange(from, to);
        return rows.IsEmpty ? [] : new BarBuilder(_time, interval.Ticks).Build(priceColumn, volumeColumn, rows);
    }

    /// <summary>
    /// A scan of <paramref name="rows"/> on every core: <paramref name="map"/> is given consecutive pieces of the
    /// range (1,048,576 rows each, fewer in the last; the whole range when it is no larger, empty when it is empty),
    /// several at once on the thread pool, and the results are combined with <paramref name="combine"/> from the
    /// first piece to the last. Read each column of a piece with <see cref="TableColumn{T}.AsSpan(IndexRange)"/>.
    /// The pieces do not depend on the number of cores, so a floating-point result is the same on every machine.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="rows"/> is not within the published rows.</exception>
    public TResult Aggregate<TResult>(IndexRange rows, Func<IndexRange, TResult> map, Func<TResult, TResult, TResult> combine)
    {
        ArgumentNullException.ThrowIfNull(map);
        ArgumentNullException.ThrowIfNull(combine);
        if (rows.Start < 0 || rows.End < rows.Start || rows.End > RowCount)
        {
            throw new ArgumentOutOfRangeException(nameof(rows), rows, $"Table '{Path}' publishes {RowCount:N0} rows.");
        }

        return RowChunks.Aggregate(rows, map, combine);
    }

    /// <summary>The first row whose time is at or after <paramref name="time"/>, compared as UTC.</summary>
    /// <exception cref="InvalidOperationException">The table's times are not UTC (<see cref="TimeSeriesTableSchema.TimesAreUtc"/>).</exception>
    public long LowerBound(DateTimeOffset time) => _time.LowerBound(time);

    /// <summary>The first row whose time is after <paramref name="time"/>, compared as UTC.</summary>
    /// <exception cref="InvalidOperationException">The table's times are not UTC (<see cref="TimeSeriesTableSchema.TimesAreUtc"/>).</exception>
    public long UpperBound(DateTimeOffset time) => _time.UpperBound(time);

    /// <summary>The rows with times in <c>[from, to)</c>, compared as UTC.</summary>
    /// <exception cref="InvalidOperationException">The table's times are not UTC (<see cref="TimeSeriesTableSchema.TimesAreUtc"/>).</exception>
    public IndexRange FindRange(DateTimeOffset from, DateTimeOffset to) => _time.FindRange(from, to);

    /// <summary>The last <paramref name="count"/> published rows, or all of them if there are fewer.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public IndexRange LastRows(long count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        long rows = RowCount;
        return new IndexRange(rows - Math.Min(count, rows), rows);
    }

    /// <summary>
    /// The rows published from <paramref name="row"/> on, for a live reader that polls: keep the range's
    /// <see cref="IndexRange.End"/> and ask again from there.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="row"/> is negative or past
    /// <see cref="RowCount"/> (the table was truncated).</exception>
    public IndexRange RowsSince(long row)
    {
        long rows = RowCount;
        if ((ulong)row > (ulong)rows)
        {
            ThrowHelper.ArgumentOutOfRange(nameof(row), row, $"The row must be at least 0 and at most RowCount " +
                $"({rows:N0}); a row past it means the table was truncated.");
        }

        return new IndexRange(row, rows);
    }

    /// <summary>
    /// Publishes the row being added at <paramref name="time"/>: every value column must hold exactly one value for
    /// it (<see cref="TableColumn{T}.Add"/>). No allocation.
    /// </summary>
    /// <exception cref="InvalidOperationException">A value column holds no value, or more than one, for the row; the
    /// row's values in every column were discarded.</exception>
    /// <exception cref="ListMmfOrderException">The time would break the order; the row's values were discarded.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The time column cannot hold <paramref name="time"/> exactly (a
    /// fraction of a second in a seconds column); the row's values were discarded.</exception>
    /// <exception cref="NotSupportedException">The table was opened read-only.</exception>
    public void AddRow(DateTime time)
    {
        long rows = BeginPublish(1);
        try
        {
            _timeWriter!.Add(time);
        }
        catch
        {
            DiscardPending(rows);
            throw;
        }
    }

    /// <summary>Publishes the row at <paramref name="time"/>, as UTC; see <see cref="AddRow(DateTime)"/>.</summary>
    /// <exception cref="InvalidOperationException">The table's times are not UTC (<see cref="TimeSeriesTableSchema.TimesAreUtc"/>),
    /// or a value column holds no value, or more than one, for the row; the row's values were discarded.</exception>
    public void AddRow(DateTimeOffset time)
    {
        long rows = BeginPublish(1);
        try
        {
            _timeWriter!.Add(time);
        }
        catch
        {
            DiscardPending(rows);
            throw;
        }
    }

    /// <summary>
    /// Publishes <paramref name="times"/>.Length rows at once: every value column must hold exactly that many values
    /// for them (<see cref="TableColumn{T}.AddRange"/>). The times are checked and converted straight into the
    /// time column; no allocation.
    /// </summary>
    /// <exception cref="InvalidOperationException">A value column does not hold exactly one value per row; the values were discarded.</exception>
    /// <exception cref="ListMmfOrderException">A time would break the order; nothing was published and the values were discarded.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The time column cannot hold a time exactly; nothing was
    /// published and the values were discarded.</exception>
    public void AddRows(ReadOnlySpan<DateTime> times)
    {
        long rows = BeginPublish(times.Length);
        try
        {
            _timeWriter!.AddRange(times);
        }
        catch
        {
            DiscardPending(rows);
            throw;
        }
    }

    /// <summary>
    /// As <see cref="AddRows(ReadOnlySpan{DateTime})"/>, with the times as the Unix seconds a seconds time column
    /// stores: a copy of the keys.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The time column stores DateTime ticks.</exception>
    public void AddRows(ReadOnlySpan<int> unixSeconds) =>
        AddKeys(unixSeconds, "Unix seconds (int)");

    /// <summary>
    /// As <see cref="AddRows(ReadOnlySpan{DateTime})"/>, with the times as the DateTime ticks a ticks time column
    /// stores: a copy of the keys.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The time column stores Unix seconds.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A value is not a DateTime's ticks (negative, or past
    /// DateTime.MaxValue); nothing was published and the values were discarded.</exception>
    public void AddRows(ReadOnlySpan<long> ticks)
    {
        ThrowIfTimeKeysAreNot<long>("DateTime ticks (long)");
        for (int i = 0; i < ticks.Length; i++)
        {
            if ((ulong)ticks[i] > (ulong)DateTime.MaxValue.Ticks)
            {
                DiscardPending(RowCount);
                ThrowHelper.ArgumentOutOfRange(nameof(ticks), ticks[i], $"'{Path}': the tick value at {i:N0} in the " +
                    $"span is not a DateTime's ticks (0 to {DateTime.MaxValue.Ticks:N0}). Nothing was published; the pending values were discarded.");
            }
        }

        AddKeys(ticks, "DateTime ticks (long)");
    }

    /// <summary>
    /// Lowers <see cref="RowCount"/> to <paramref name="newCount"/>, a maintenance operation with the contract of
    /// <see cref="ListMmf{T}.Truncate"/>: the time column first, so that readers stop seeing the rows before their
    /// values go.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="newCount"/> is negative or more than <see cref="RowCount"/>.</exception>
    public void Truncate(long newCount)
    {
        ThrowIfReadOnly();
        _timeWriter!.Truncate(newCount);
        DiscardPending(newCount);
    }

    /// <summary>
    /// Makes the published rows durable: every value column first, then the time column, so that a durable row
    /// count never gets ahead of its values.
    /// </summary>
    /// <exception cref="ListMmfException">The system reported that writing or flushing failed.</exception>
    public void Flush()
    {
        ThrowIfReadOnly();

        // Every column's writeback starts at once, so that the waits below overlap their writes. A value column's
        // count publishes nothing (the time column's does), so its items and count go in one flush, not two.
        foreach (TableColumn column in _columns)
        {
            column.StartFlush();
        }

        foreach (TableColumn column in _values)
        {
            column.FlushTogether();
        }

        _timeWriter!.Flush();
    }

    /// <summary>
    /// Gives every column file's unused space back (see <see cref="ListMmf{T}.TrimExcess"/>), for a table that is
    /// complete, such as an import's: each file then takes what its values take, rounded up to 64 KiB. Adding rows
    /// afterwards grows the files again; readers keep working throughout.
    /// </summary>
    /// <exception cref="NotSupportedException">The table was opened read-only.</exception>
    /// <exception cref="ListMmfException">A column's file could not be cut or replaced (the message names it).</exception>
    public void TrimExcess()
    {
        ThrowIfReadOnly();
        foreach (TableColumn column in _columns)
        {
            column.TrimExcess();
        }
    }

    /// <summary>
    /// Whether <see cref="TrimExcess"/> cuts every column file where it is (the mapping backend can, see
    /// <see cref="ListMmf{T}.TrimsInPlace"/>), rather than copying some of them into new files.
    /// </summary>
    internal bool TrimsInPlace => _columns.All(column => column.TrimsInPlace);

    /// <summary>
    /// Checks every column's file as <see cref="ListMmf{T}.Verify()"/> does, the order of the time column, and that
    /// every value column holds a value for every published row.
    /// </summary>
    /// <exception cref="ListMmfOrderException">The first time out of order.</exception>
    /// <exception cref="ListMmfFormatException">A column's header is damaged or a value column is shorter than the rows.</exception>
    public void Verify() => Verify(null);

    /// <inheritdoc cref="Verify()"/>
    /// <param name="progress">Told the fraction of the columns checked so far, from 0 to 1, as the check goes (on this thread).</param>
    public void Verify(IProgress<double>? progress)
    {
        double share = 1.0 / _columns.Length;
        _time.Verify(progress is null ? null : new ScaledProgress(progress, 0, share));
        for (int i = 0; i < _values.Length; i++)
        {
            _values[i].Verify();
            progress?.Report((i + 2) * share);
        }

        CheckColumnLengths(trim: false);
    }

    /// <summary>Closes every column and gives up the table's writer lock.</summary>
    public void Dispose()
    {
        foreach (TableColumn column in _values)
        {
            column.Dispose();
        }

        _time.Dispose();
        _lock?.Dispose();
    }

    /// <inheritdoc/>
    public override string ToString() => $"TimeSeriesTable('{Path}', {_columns.Length} columns)";

    /// <summary>The column of numbers named <paramref name="name"/>; a text column is refused, naming it.</summary>
    private TableColumn NumbersNamed(string name, string parameter)
    {
        TableColumn column = ColumnNamed(name, parameter);
        return column is TextColumn
            ? throw new ListMmfDataTypeException(column.Path, $"column '{name}' of table '{Path}' holds text, not numbers.")
            : column;
    }

    private TableColumn ColumnNamed(string name, string parameter) =>
        _byName.GetValueOrDefault(name)
        ?? throw new ArgumentException($"Table '{Path}' has no column '{name}'; its columns are {string.Join(", ", _byName.Keys)}.", parameter);

    private string PathOf(TableColumnInfo column) => System.IO.Path.Combine(Path, column.FileName);

    /// <summary>
    /// Before Create opens anything: the files already in the folder are adopted as they are. A value file may not
    /// be missing, nor hold more values than the time column has rows, when the time column already holds rows;
    /// nothing is created or changed when one does.
    /// </summary>
    private void CheckAdoptedFiles()
    {
        string timePath = PathOf(Schema.Time);
        long rows = File.Exists(timePath) ? ListMmfFileInfo.Read(timePath).Count : 0;
        foreach (TableColumnInfo column in Schema.Columns)
        {
            string columnPath = PathOf(column);
            bool exists = File.Exists(columnPath);
            long stored = exists ? ListMmfFileInfo.Read(columnPath).Count : 0;
            if (rows > 0 && !exists)
            {
                throw new ListMmfFormatException(Path, $"the time column '{Schema.Time.Name}' " +
                    $"({Schema.Time.FileName}) already holds {rows:N0} rows, but column '{column.Name}' has no file " +
                        $"'{column.FileName}'; a table's columns hold a value for every row. Nothing was created.");
            }

            if (stored > 0 && column.EntriesFileName is { } entries && !File.Exists(System.IO.Path.Combine(Path, entries)))
            {
                throw new ListMmfFormatException(columnPath, $"text column '{column.Name}' holds {stored:N0} codes, " +
                    $"but its values' file '{entries}' does not exist, so no code can be read. Nothing was created.");
            }

            if (stored > rows)
            {
                throw new ListMmfFormatException(columnPath, $"column '{column.Name}' of table '{Path}' holds " +
                    $"{stored:N0} values, more than the {rows:N0} rows of the time column '{Schema.Time.Name}' " +
                        $"({Schema.Time.FileName}); Create adopts files as they are and does not trim them (check the " +
                            $"file names; TimeSeriesTable.Open with a schema trims values past the rows). Nothing was created or changed.");
            }
        }
    }

    private void AddKeys<TKey>(ReadOnlySpan<TKey> keys, string given)
        where TKey : unmanaged
    {
        ThrowIfTimeKeysAreNot<TKey>(given);
        long rows = BeginPublish(keys.Length);
        try
        {
            _timeWriter!.AddKeys(keys);
        }
        catch
        {
            DiscardPending(rows);
            throw;
        }
    }

    /// <summary>The rows written by <see cref="StageRows{TKey}"/> and not yet published.</summary>
    internal long StagedRows => _staged;

    /// <summary>
    /// Writes the times of rows whose values every value column already holds past the published and staged rows,
    /// without publishing them: a writer that must publish many batches whole or not at all (an import into a table
    /// readers are reading) stages them, then publishes them with <see cref="PublishStagedRows"/>, one count update.
    /// Until then no reader sees them; <see cref="Truncate"/> or a writer's next open discards them.
    /// </summary>
    /// <exception cref="InvalidOperationException">A value column does not hold one value per row.</exception>
    /// <exception cref="ListMmfOrderException">A time breaks the table's order; nothing of this batch is staged.</exception>
    internal void StageRows<TKey>(ReadOnlySpan<TKey> keys)
        where TKey : unmanaged
    {
        ThrowIfTimeKeysAreNot<TKey>(typeof(TKey) == typeof(int) ? "Unix seconds (int)" : "DateTime ticks (long)");
        ThrowIfReadOnly();
        long rows = _time.Count;
        foreach (TableColumn column in _values)
        {
            long pending = column.StoredCount - rows - _staged;
            if (pending != keys.Length)
            {
                ThrowPendingMismatch(column, pending, keys.Length, rows);
            }
        }

        try
        {
            _timeWriter!.StageKeys(keys, _staged);
        }
        catch
        {
            DiscardPending(rows + _staged);
            throw;
        }

        _staged += keys.Length;
    }

    /// <summary>Publishes every staged row with one count update of the time column.</summary>
    internal void PublishStagedRows()
    {
        ThrowIfReadOnly();
        _timeWriter!.PublishStaged(_staged);
        _staged = 0;
    }

    /// <summary>
    /// Before publishing <paramref name="added"/> rows: the writer's published rows, once every value column holds
    /// exactly that many values past them.
    /// </summary>
    private long BeginPublish(int added)
    {
        ThrowIfReadOnly();
        long rows = _time.Count;
        foreach (TableColumn column in _values)
        {
            long pending = column.StoredCount - rows;
            if (pending != added)
            {
                ThrowPendingMismatch(column, pending, added, rows);
            }
        }

        return rows;
    }

    /// <summary>Discards every column's pending values and says which column did not hold one value per row.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowPendingMismatch(TableColumn column, long pending, int added, long rows)
    {
        DiscardPending(rows);
        throw new InvalidOperationException(
            $"'{Path}': column '{column.Name}' holds {pending:N0} value{(pending == 1 ? "" : "s")} for the " +
                $"{added:N0} row{(added == 1 ? "" : "s")} being added; add exactly one value per row to every " +
                    $"value column, then the times. The pending values of every column were discarded.");
    }

    /// <summary>Trims every value column to <paramref name="rows"/>; says what it trimmed in <paramref name="repairs"/>, when given.</summary>
    private void DiscardPending(long rows, List<string>? repairs = null)
    {
        _staged = Math.Max(0, rows - _time.Count);
        foreach (TableColumn column in _values)
        {
            long stored = column.StoredCount;
            if (stored > rows)
            {
                column.TrimTo(rows);
                repairs?.Add($"column '{column.Name}' held {stored - rows:N0} value{(stored - rows == 1 ? "" : "s")} " +
                    $"past the {rows:N0} published rows, left by a writer that stopped before publishing them; trimmed to {rows:N0}.");
            }
        }
    }

    /// <summary>
    /// Every value column must hold at least the published rows; a writer trims the values past them, which a
    /// writer that stopped before publishing left. A value column behind the time column is what a power loss leaves
    /// when the system wrote the time column's count back before the values (a <see cref="Flush"/> writes them in
    /// the other order, so no flushed row is among them): a writer lowers the rows to the shortest column and says so
    /// in <see cref="Repairs"/>; a reader, which cannot, is refused and told so. Checked for all columns before any is
    /// changed.
    /// </summary>
    private void CheckColumnLengths(bool trim)
    {
        long rows = _time.Count;
        TableColumn? shortest = null;
        foreach (TableColumn column in _values)
        {
            if (column.StoredCount < Math.Min(rows, shortest?.StoredCount ?? long.MaxValue))
            {
                shortest = column;
            }
        }

        if (shortest is not null)
        {
            long stored = shortest.StoredCount;
            if (!trim)
            {
                throw new ListMmfFormatException(
                    shortest.Path,
                    $"column '{shortest.Name}' of table '{Path}' holds {stored:N0} values, fewer than the {rows:N0} " +
                        $"rows its time column publishes: rows that did not reach the disk before a power loss, or a " +
                            $"column file truncated by another program. Nothing was changed; opening the table for " +
                                $"writing once lowers the rows to {stored:N0} (see Repairs).");
            }

            _timeWriter!.Truncate(stored);
            _repairs.Add($"column '{shortest.Name}' held {stored:N0} values, fewer than the {rows:N0} rows its time " +
                $"column published (rows lost to a power loss, or a truncated file); the rows were lowered to {stored:N0}.");
            rows = stored;
        }

        if (trim)
        {
            DiscardPending(rows, _repairs);
        }
    }

    /// <summary>Opens one column's file, with errors that name the table and the column.</summary>
    private T OpenPart<T>(TableColumnInfo column, Func<T> open)
    {
        string file = PathOf(column);
        try
        {
            return open();
        }
        catch (FileNotFoundException exception) when (_hasManifest)
        {
            throw new ListMmfFormatException(Path, $"the manifest names column '{column.Name}', stored in " +
                $"'{column.FileName}', which does not exist: the table is damaged. ({exception.Message})");
        }
        catch (FileNotFoundException exception)
        {
            throw new FileNotFoundException($"'{Path}': column '{column.Name}' has no file '{column.FileName}'.", file, exception);
        }
        catch (ListMmfLockedException exception)
        {
            throw new ListMmfLockedException(exception.FilePath, $"column '{column.Name}' of table '{Path}' is open " +
                $"for writing elsewhere: {exception.Problem}", exception);
        }
        catch (ListMmfDataTypeException exception)
        {
            throw new ListMmfDataTypeException(exception.FilePath, $"column '{column.Name}' of table '{Path}' is " +
                $"declared {column.DataType}, but {exception.Problem}");
        }
        catch (ListMmfFormatException exception)
        {
            throw new ListMmfFormatException(exception.FilePath, $"column '{column.Name}' of table '{Path}': {exception.Problem}");
        }
    }

    /// <summary>The table's writer lock, taken on its manifest.</summary>
    private static WriterLock LockTable(string path)
    {
        try
        {
            return WriterLock.Acquire(System.IO.Path.Combine(path, ManifestFileName));
        }
        catch (ListMmfLockedException exception)
        {
            throw new ListMmfLockedException(path, "another writer has the table open for writing; a table has one writer at a time.", exception);
        }
    }

    /// <summary>The full path of the table folder <paramref name="directory"/>, and its manifest's schema.</summary>
    private static (string Path, TimeSeriesTableSchema Schema) Folder(string directory)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        string path = System.IO.Path.GetFullPath(directory);
        return (path, TableManifest.Read(System.IO.Path.Combine(path, ManifestFileName)));
    }

    private static IEnumerable<TableColumnInfo> ColumnsOf(TimeSeriesTableSchema schema) => [schema.Time, .. schema.Columns];

    /// <summary>Every file the table's columns keep: each column's, the time column first, then the text columns' values.</summary>
    private static IEnumerable<string> FilesOf(TimeSeriesTableSchema schema) =>
        ColumnsOf(schema).Select(column => column.FileName)
            .Concat(schema.Columns.Select(column => column.EntriesFileName).OfType<string>());

    /// <summary>
    /// Under the table's writer lock, calls <paramref name="replace"/> (a file replacement that returns whether it
    /// changed the file) for each of <paramref name="files"/>, in the table's folder, in order; returns how many it changed.
    /// </summary>
    private static int ReplaceEach(string path, IEnumerable<string> files, Func<string, bool> replace)
    {
        using WriterLock tableLock = LockTable(path);
        int replaced = 0;
        foreach (string file in files)
        {
            replaced += replace(System.IO.Path.Combine(path, file)) ? 1 : 0;
        }

        return replaced;
    }

    /// <summary>
    /// Whether the column <paramref name="column"/>, whose file is at <paramref name="path"/>, opens sealed: its file is
    /// in the sealed form, which only a reader opens.
    /// </summary>
    /// <exception cref="ListMmfException">The file is sealed and <paramref name="access"/> asks for writing.</exception>
    internal bool OpensSealed(TableColumnInfo column, string path, FileAccess access)
    {
        if (!File.Exists(path) || !SealedListMmf.IsSealed(path))
        {
            return false;
        }

        return access == FileAccess.Read ? true : throw new ListMmfException(path, $"column '{column.Name}' of table " +
            $"'{Path}' is sealed (compressed and read-only): open the table with FileAccess.Read, or unseal it first " +
            "(TimeSeriesTable.Unseal, listmmf unseal).");
    }

    /// <summary>The time column, appendable (<paramref name="appendable"/>) or sealed, as the table's series and its column.</summary>
    private (ITimeColumn Series, TableColumn Column) OpenTime<TKey, TTimeKey>(
        TableColumnInfo info, FileAccess access, ListMmfOptions options, Func<TimeSeriesMmf<TKey>> appendable)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
        where TTimeKey : ITimeKey<TKey>
    {
        string path = PathOf(info);
        return EitherForm.Open<(ITimeColumn, TableColumn)>(
            () => OpensSealed(info, path, access),
            () =>
            {
                TimeSeriesMmf<TKey> series = appendable();
                return (series, new TableColumn<TKey>(this, info, series.Keys.List, isTime: true));
            },
            () =>
            {
                var keys = new SealedTimeSeries<TKey, TTimeKey>(new SealedListMmf<TKey>(path, options), Schema.Order);
                return (keys, new TableColumn<TKey>(this, info, keys.Keys, isTime: true));
            });
    }

    private void ThrowIfTimeKeysAreNot<TKey>(string given)
    {
        // From the stored type, not the writer: a table opened read-only may be sealed, and has none.
        Type keys = _time.DataType == DataType.UnixSeconds ? typeof(int) : typeof(long);
        if (keys != typeof(TKey))
        {
            throw new ListMmfDataTypeException(_time.Path, $"the time column of table '{Path}' stores " +
                $"{DataTypeInfo.Of(_time.DataType).Describe()}; rows cannot be added with {given} keys.");
        }
    }

    private void ThrowIfReadOnly()
    {
        if (!IsWritable)
        {
            ThrowHelper.ReadOnly(Path);
        }
    }

    private static FileAccess CheckAccess(FileAccess access) =>
        access is FileAccess.Read or FileAccess.ReadWrite
            ? access
            : throw new ArgumentOutOfRangeException(nameof(access), access, "A table is opened with FileAccess.Read or FileAccess.ReadWrite.");
}
