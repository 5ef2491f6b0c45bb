using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
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
public sealed partial class TimeSeriesTable : IReadOnlyTimeSeries
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

    /// <summary>The form the opener expects the columns in, tried before looking at each file; null to look first.</summary>
    internal bool? ExpectSealed { get; }

    /// <summary>
    /// Whether each value column's file is opened when a read first needs it rather than by the table's open: a
    /// partition of a catalog (<see cref="OpenKnown"/>), whose replays and lookups read one or two of its columns.
    /// </summary>
    internal bool OpensColumnsOnFirstUse => ExpectSealed is not null;

    private long _staged;

    private TimeSeriesTable(string path, TimeSeriesTableSchema? schema, FileAccess access, ListMmfOptions? options, bool create, bool? known = null)
    {
        Path = path;
        IsWritable = access == FileAccess.ReadWrite;
        string manifest = System.IO.Path.Combine(path, ManifestFileName);
        _hasManifest = schema is null || create || known is not null;

        // A caller that read the manifest itself (OpenKnown) says whether the columns are sealed.
        ExpectSealed = known;
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

    /// <summary>Opens the files of the value columns <paramref name="names"/> now, where they would wait for a first read.</summary>
    /// <exception cref="ArgumentException">The table has no column of one of the names.</exception>
    internal void OpenColumns(string[] names)
    {
        foreach (string name in names)
        {
            ColumnNamed(name, nameof(names)).OpenFile();
        }
    }

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
        try
        {
            foreach (TableColumn column in _values)
            {
                column.Dispose();
            }

            _time.Dispose();
        }
        finally
        {
            // The writer lock goes whatever a column's close met, or no later writer could open the table.
            _lock?.Dispose();
        }
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
