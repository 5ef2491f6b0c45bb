using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;
using CommunityToolkit.HighPerformance;
using ListMmf.Sealed;

namespace ListMmf;

/// <summary>A column of a <see cref="TimeSeriesTable"/>; <see cref="TableColumn{T}"/> reads and writes its values.</summary>
public abstract class TableColumn
{
    private protected TableColumn(TimeSeriesTable table, TableColumnInfo info, string path, bool isTime)
    {
        Table = table;
        Info = info;
        Path = path;
        IsTime = isTime;
    }

    /// <summary>The column's name.</summary>
    public string Name => Info.Name;

    /// <summary>The data-type code of the column's file.</summary>
    public DataType DataType => Info.DataType;

    /// <summary>The full path of the column's file.</summary>
    public string Path { get; }

    /// <summary>Whether this is the table's time column, which only the table's row appends write.</summary>
    public bool IsTime { get; }

    /// <summary>
    /// Whether the column's file is in the sealed form (<see cref="TimeSeriesTable.Seal"/>): compressed in blocks,
    /// read with <see cref="TableColumn{T}.CopyTo"/> or <see cref="TableColumn{T}.Read"/>, never as a span over the file.
    /// </summary>
    public abstract bool IsSealed { get; }

    internal TableColumnInfo Info { get; }

    /// <summary>Refuses <paramref name="row"/> unless it is one of the table's published rows.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private protected void CheckRow(long row)
    {
        long rows = Table.RowCount;
        if ((ulong)row >= (ulong)rows)
        {
            ThrowHelper.IndexOutOfRange(row, rows);
        }
    }

    /// <summary>Whether this column holds a <see cref="TextColumn"/>'s codes, which only the text column adds.</summary>
    internal bool IsTextCodes { get; private set; }

    /// <summary>Makes this the column of codes of the text column <paramref name="text"/>: its values are added through it alone.</summary>
    internal void MakeCodesOf(TableColumnInfo text) => IsTextCodes = text.IsText;

    private protected TimeSeriesTable Table { get; }

    /// <summary>How many values the column's file holds: the published rows, plus those of a row being added.</summary>
    internal abstract long StoredCount { get; }

    /// <summary>Drops the values past <paramref name="rows"/>: those of a refused row, or of a writer that stopped before publishing.</summary>
    internal abstract void TrimTo(long rows);

    internal abstract void Flush();

    /// <summary>Starts the column file's writeback; see <see cref="ListMmf{T}.StartFlush"/>.</summary>
    internal abstract void StartFlush();

    /// <summary>Items and count durable in one flush; see <see cref="ListMmf{T}.FlushTogether"/>.</summary>
    internal abstract void FlushTogether();

    /// <summary>The items durable, not the count; see <see cref="ListMmf{T}.FlushItems"/>.</summary>
    internal abstract long FlushItems();

    /// <summary>The count durable after <see cref="FlushItems"/>; see <see cref="ListMmf{T}.FlushCount"/>.</summary>
    internal abstract void FlushCount(long count);

    /// <summary>Gives the column file's unused space back; see <see cref="ListMmf{T}.TrimExcess"/>.</summary>
    internal abstract void TrimExcess();

    /// <summary>Whether <see cref="TrimExcess"/> cuts the file where it is, not copying it (<see cref="ListMmf{T}.TrimsInPlace"/>).</summary>
    internal abstract bool TrimsInPlace { get; }

    internal abstract void Verify();

    internal abstract void Dispose();

    /// <summary>Whether the column's file is open: false for a column opened on first use (a catalog's) until then.</summary>
    internal virtual bool IsOpen => true;

    /// <summary>Opens the column's file now if it waits for a first read; see <see cref="TimeSeriesTable.OpensColumnsOnFirstUse"/>.</summary>
    internal virtual void OpenFile()
    {
    }

    /// <summary>
    /// Opens the value column <paramref name="info"/>: a <see cref="TextColumn"/>, or a <see cref="TableColumn{T}"/> of
    /// the item type its data-type code stores, in the form its file is in (see <see cref="TableColumn{T}.OpenTyped"/>).
    /// </summary>
    internal static TableColumn Open(TimeSeriesTable table, TableColumnInfo info, string folder, FileAccess access, ListMmfOptions options)
    {
        string path = System.IO.Path.Combine(folder, info.FileName);
        return info.EntriesFileName is { } entries
            ? TextColumn.Open(table, info, path, System.IO.Path.Combine(folder, entries), access, options)
            : OpenNumbers(table, info, path, access, options);
    }

    /// <summary>Opens the column of numbers <paramref name="info"/>, whose file is at <paramref name="path"/>.</summary>
    private protected static TableColumn OpenNumbers(
        TimeSeriesTable table, TableColumnInfo info, string path, FileAccess access, ListMmfOptions options) =>
        DataTypeInfo.Of(info.DataType) is { IsNumber: true } type
            ? type.Accept(new Opener(table, info, path, access, options))
            : throw new ArgumentOutOfRangeException(nameof(info), info.DataType, $"Column '{info.Name}': {info.DataType} cannot be a table column.");

    private sealed record Opener(
        TimeSeriesTable Table,
        TableColumnInfo Info,
        string Path,
        FileAccess Access,
        ListMmfOptions Options) : IDataTypeVisitor<TableColumn>
    {
        public TableColumn Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> =>
            TableColumn<T>.OpenTyped(Table, Info, Path, Access, Options);
    }
}

/// <summary>
/// A column of a <see cref="TimeSeriesTable"/> holding <typeparamref name="T"/> values, one per row. Reads are
/// bounded by the table's published rows, never by the column's own file, so a reader sees no value of a row that is
/// not complete. The writer adds one value per column, then publishes the row with
/// <see cref="TimeSeriesTable.AddRow(DateTime)"/>.
/// </summary>
/// <remarks>
/// A column of <see cref="DataType.DateTime"/> stores ticks: <c>TableColumn&lt;long&gt;</c> reads and writes them as they
/// are stored, and <c>TableColumn&lt;DateTime&gt;</c> as DateTimes over the same file (the stored ticks, with
/// <see cref="DateTimeKind.Unspecified"/>; <see cref="Add"/> stores a DateTime's ticks whatever its Kind, as the
/// time series do). Its reads check that every value is a DateTime's ticks, so a value written through the
/// <c>long</c> view that no DateTime holds is refused with its row, never read as a wrong time.
/// </remarks>
/// <typeparam name="T">The stored value type, or <see cref="DateTime"/> for a column of DateTime ticks.</typeparam>
public sealed class TableColumn<T> : TableColumn, IReadOnlyListMmf<T>
    where T : unmanaged
{
    /// <summary>The rows read from a value column's file in either form: decoded when sealed, the chunk of the enumerator.</summary>
    private const int Chunk = 1 << 10;

    /// <summary>
    /// The column's file in its form (a <see cref="ListMmf{T}"/> or a <see cref="SealedListMmf{T}"/>); null for a
    /// DateTime view, and for a column opened on first use until then (<see cref="Items"/>).
    /// </summary>
    private IReadOnlyListMmf<T>? _items;

    /// <summary>Opens the file of a column opened on first use, under <see cref="_gate"/>; else null.</summary>
    private readonly Func<IReadOnlyListMmf<T>>? _open;

    /// <summary>Taken by the first use's open and by <see cref="Dispose"/>, for a column opened on first use; else null.</summary>
    private readonly object? _gate;

    /// <summary>Whether <see cref="Dispose"/> ran on a column opened on first use, whose file must then never be opened.</summary>
    private bool _disposed;

    /// <summary>A DateTime view's column of ticks, in either form; else null.</summary>
    private readonly TableColumn<long>? _ticks;

    /// <summary>The column whose file <paramref name="items"/> is, appendable or sealed.</summary>
    internal TableColumn(TimeSeriesTable table, TableColumnInfo info, IReadOnlyListMmf<T> items, bool isTime)
        : base(table, info, items.Path, isTime)
    {
        _items = items;
    }

    /// <summary>
    /// A column whose file <paramref name="open"/> opens when a read first needs it: a partition of a catalog, whose
    /// replays and lookups read one or two of its columns, opens no other.
    /// </summary>
    private TableColumn(TimeSeriesTable table, TableColumnInfo info, string path, Func<IReadOnlyListMmf<T>> open)
        : base(table, info, path, isTime: false)
    {
        _open = open;
        _gate = new object();
    }

    /// <summary>A DateTime view of the ticks column <paramref name="ticks"/> (<typeparamref name="T"/> is <see cref="DateTime"/>).</summary>
    private TableColumn(TableColumn<long> ticks)
        : base(ticks.Table, ticks.Info, ticks.Path, ticks.IsTime)
    {
        _ticks = ticks;
    }

    /// <inheritdoc/>
    public override bool IsSealed => _ticks?.IsSealed ?? Items.IsSealed;

    /// <summary>How many values the column has: the table's published rows (<see cref="TimeSeriesTable.RowCount"/>).</summary>
    public long Count => Table.RowCount;

    /// <summary>Whether the column holds times and the table records its times as UTC (<see cref="TimeSeriesTableSchema.TimesAreUtc"/>).</summary>
    public bool TimesAreUtc => Table.Schema.TimesAreUtc && DataTypeInfo.Of(DataType).IsTime;

    /// <summary>The value of <paramref name="row"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="row"/> is negative or not below the table's
    /// <see cref="TimeSeriesTable.RowCount"/>.</exception>
    public T this[long row]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            CheckRow(row);
            if (typeof(T) == typeof(DateTime))
            {
                DateTime time = ToDateTime(_ticks![row], row);
                return Unsafe.As<DateTime, T>(ref time);
            }

            return _items is ListMmf<T> list ? list[row] : Items[row];
        }
    }

    /// <summary>
    /// Stores <paramref name="value"/> as this column's value of the row being added; the row becomes visible when
    /// <see cref="TimeSeriesTable.AddRow(DateTime)"/> publishes it.
    /// </summary>
    /// <exception cref="NotSupportedException">The table was opened read-only, or this is the time column or a text column's codes.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Add(T value)
    {
        if (IsTime || IsTextCodes)
        {
            ThrowNotAdded();
        }

        if (typeof(T) == typeof(DateTime))
        {
            _ticks!.Add(Unsafe.As<T, DateTime>(ref value).Ticks);
            return;
        }

        Appendable.Add(value);
    }

    /// <summary>
    /// Stores <paramref name="values"/> as this column's values of the rows being added; they become visible when
    /// <see cref="TimeSeriesTable.AddRows(ReadOnlySpan{DateTime})"/> (or an overload) publishes the rows.
    /// </summary>
    /// <exception cref="NotSupportedException">The table was opened read-only, or this is the time column or a text column's codes.</exception>
    public void AddRange(ReadOnlySpan<T> values)
    {
        if (IsTime || IsTextCodes)
        {
            ThrowNotAdded();
        }

        if (typeof(T) == typeof(DateTime))
        {
            AddTicks(MemoryMarshal.Cast<T, DateTime>(values));
            return;
        }

        Appendable.AddRange(values);
    }

    /// <summary>
    /// The values of <paramref name="range"/> (for example from <see cref="TimeSeriesTable.FindRange(DateTime, DateTime)"/>), straight
    /// over the mapping.
    /// </summary>
    /// <remarks>The span is valid while the table is open; see <see cref="ListMmf{T}.AsSpan(long, int)"/>. A sealed
    /// column has no span over its file: <see cref="Read"/> reads either form.</remarks>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows, or holds more than
    /// <see cref="int.MaxValue"/> rows.</exception>
    /// <exception cref="ListMmfException">A DateTime view: a value in the range is not a DateTime's ticks.</exception>
    /// <exception cref="NotSupportedException">The column is sealed (<see cref="TableColumn.IsSealed"/>).</exception>
    public ReadOnlySpan<T> AsSpan(IndexRange range)
    {
        CheckPublished(range);
        if (typeof(T) == typeof(DateTime))
        {
            ReadOnlySpan<long> ticks = _ticks!.AsSpan(range);
            CheckTicks(ticks, range.Start);
            return MemoryMarshal.Cast<long, T>(ticks);
        }

        return Mapped.AsSpan(range.Start, (int)range.Length);
    }

    /// <summary>
    /// Copies the values of <paramref name="range"/> into <paramref name="destination"/>: from the mapping, or decoded a
    /// block at a time from a sealed column.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows, or holds more than
    /// <see cref="int.MaxValue"/> rows.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    /// <exception cref="ListMmfException">A DateTime view: a value in the range is not a DateTime's ticks.</exception>
    public void CopyTo(IndexRange range, Span<T> destination)
    {
        int length = CheckPublished(range);
        ThrowHelper.CheckDestination(destination.Length, length);
        destination = destination[..length];
        if (typeof(T) == typeof(DateTime))
        {
            Span<long> ticks = MemoryMarshal.Cast<T, long>(destination);
            _ticks!.CopyTo(range, ticks);
            CheckTicks(ticks, range.Start);
        }
        else
        {
            Items.CopyTo(range, destination);
        }
    }

    /// <summary>
    /// The values of the rows <paramref name="indices"/>, into <paramref name="destination"/>: the values of the rows an ASOF join
    /// matched (<see cref="TimeSeriesTable.LastAtOrBefore(ReadOnlySpan{DateTime}, Span{long})"/>), where a row of -1
    /// (none at or before the time) gives <paramref name="missing"/>. From the mapping, or from a sealed column's blocks,
    /// each decoded once for the ascending rows in it (see <see cref="IReadOnlyListMmf{T}.Gather"/>).
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than <paramref name="indices"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A row is below -1, or not one of the published rows; nothing was read.</exception>
    /// <exception cref="ListMmfException">A DateTime view: a value is not a DateTime's ticks.</exception>
    public void Gather(ReadOnlySpan<long> indices, Span<T> destination, T missing = default)
    {
        ThrowHelper.CheckDestination(destination.Length, indices.Length);
        long published = Table.RowCount;
        foreach (long row in indices)
        {
            if ((ulong)row >= (ulong)published && row != -1)
            {
                ThrowHelper.IndexOutOfRange(row, published);
            }
        }

        destination = destination[..indices.Length];
        if (typeof(T) == typeof(DateTime))
        {
            Span<long> ticks = MemoryMarshal.Cast<T, long>(destination);
            // The raw bits, so that the missing value keeps its Kind: rows of -1 are not read as ticks below.
            _ticks!.Gather(indices, ticks, Unsafe.As<T, long>(ref missing));
            for (int i = 0; i < ticks.Length; i++)
            {
                if (indices[i] != -1)
                {
                    ToDateTime(ticks[i], indices[i]);
                }
            }

            return;
        }

        Items.Gather(indices, destination, missing);
    }

    /// <summary>
    /// The values of <paramref name="range"/>, read the cheapest way the column's form allows: straight over the mapping
    /// for an appendable column (<paramref name="buffer"/> untouched), decoded into <paramref name="buffer"/> for a
    /// sealed one. For code that reads tables in either form.
    /// </summary>
    /// <param name="range">The rows.</param>
    /// <param name="buffer">Room for the range's values, used where the column is sealed.</param>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows, or holds more than
    /// <see cref="int.MaxValue"/> rows.</exception>
    /// <exception cref="ArgumentException">The column is sealed and <paramref name="buffer"/> is shorter than the range.</exception>
    /// <exception cref="ListMmfException">A DateTime view: a value in the range is not a DateTime's ticks.</exception>
    public ReadOnlySpan<T> Read(IndexRange range, Span<T> buffer)
    {
        if (!IsSealed)
        {
            return AsSpan(range);
        }

        CopyTo(range, buffer);
        return buffer[..(int)range.Length];
    }

    /// <summary>
    /// The values of <paramref name="range"/> as memory over the mapping, for APIs that keep memory; see
    /// <see cref="ListMmf{T}.AsMemory(long, int)"/>.
    /// </summary>
    /// <remarks>Valid while the table is open: dispose it only after the last use.</remarks>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows, or holds more than
    /// <see cref="int.MaxValue"/> rows.</exception>
    /// <exception cref="ListMmfException">A DateTime view: a value in the range is not a DateTime's ticks.</exception>
    /// <exception cref="NotSupportedException">The column is sealed (<see cref="TableColumn.IsSealed"/>).</exception>
    public ReadOnlyMemory<T> AsMemory(IndexRange range)
    {
        CheckPublished(range);
        if (typeof(T) == typeof(DateTime))
        {
            ReadOnlyMemory<long> ticks = _ticks!.AsMemory(range);
            CheckTicks(ticks.Span, range.Start);
            return ticks.Cast<long, T>();
        }

        return Mapped.AsMemory(range.Start, (int)range.Length);
    }

    /// <summary>
    /// The values of <paramref name="range"/> as memory over the mapping (<see cref="AsMemory(IndexRange)"/>), or false
    /// for a sealed column, which has none.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows, or holds more than
    /// <see cref="int.MaxValue"/> rows.</exception>
    /// <exception cref="ListMmfException">A DateTime view: a value in the range is not a DateTime's ticks.</exception>
    public bool TryGetMemory(IndexRange range, out ReadOnlyMemory<T> memory)
    {
        if (IsSealed)
        {
            CheckPublished(range);
            memory = default;
            return false;
        }

        memory = AsMemory(range);
        return true;
    }

    /// <summary>The XXH3-64 hash (seed 0) of the published rows' values as stored, the same in either form.</summary>
    /// <exception cref="ListMmfException">A DateTime view: a value is not a DateTime's ticks.</exception>
    public ulong ComputeXxHash3() => ItemsXxHash3.Of(this);

    /// <summary>Checks the column's file as it is on disk; <see cref="TimeSeriesTable.Verify()"/> checks every column and the rows.</summary>
    void IReadOnlyListMmf<T>.Verify(IProgress<double>? progress)
    {
        if (_ticks is { } ticks)
        {
            ((IReadOnlyListMmf<long>)ticks).Verify(progress);
        }
        else
        {
            Items.Verify(progress);
        }
    }

    /// <summary>Enumerates the published rows' values, read a chunk at a time in the column's form.</summary>
    public IEnumerator<T> GetEnumerator()
    {
        long count = Count;
        T[] buffer = new T[Chunk];
        for (long start = 0; start < count; start += Chunk)
        {
            var range = new IndexRange(start, Math.Min(count, start + Chunk));
            CopyTo(range, buffer);
            for (int i = 0; i < (int)range.Length; i++)
            {
                yield return buffer[i];
            }
        }
    }

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>The values of <paramref name="length"/> rows from <paramref name="start"/>, straight over the mapping.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the published rows.</exception>
    public ReadOnlySpan<T> AsSpan(long start, int length) => AsSpan(new IndexRange(start, start + length));

    /// <inheritdoc/>
    public override string ToString() => $"TableColumn<{typeof(T).Name}>('{Name}', '{Path}')";

    // The table keeps and maintains the column itself, never a DateTime view of it; only a writable table, whose
    // columns are all appendable, changes or flushes one.
    internal override long StoredCount => Items.Count;

    internal override void TrimTo(long rows) => Appendable.Truncate(rows);

    internal override void Flush() => Appendable.Flush();

    internal override void StartFlush() => Appendable.StartFlush();

    internal override void FlushTogether() => Appendable.FlushTogether();

    internal override long FlushItems() => Appendable.FlushItems();

    internal override void FlushCount(long count) => Appendable.FlushCount(count);

    internal override void TrimExcess() => Appendable.TrimExcess();

    internal override bool TrimsInPlace => (_items as ListMmf<T>)?.TrimsInPlace ?? _ticks?.TrimsInPlace ?? false;

    internal override void Verify() => Items.Verify(null);

    internal override void Dispose()
    {
        if (_gate is null)
        {
            ((IDisposable?)_items)?.Dispose();
            return;
        }

        lock (_gate)
        {
            _disposed = true;
            ((IDisposable?)_items)?.Dispose();
        }
    }

    internal override bool IsOpen => _gate is null || Volatile.Read(ref _items) is not null;

    internal override void OpenFile()
    {
        if (_gate is not null)
        {
            _ = Items;
        }
    }

    /// <summary>The column's file, opened now if the column opens on first use and no read has opened it yet.</summary>
    private IReadOnlyListMmf<T> Items => Volatile.Read(ref _items) ?? OpenOnFirstUse();

    /// <summary>
    /// Opens the file of a column opened on first use, once whichever threads ask, with the checks the table's open
    /// makes of its other columns: the column is refused as the open would have refused it, and refused when it holds
    /// fewer values than the rows published before it was opened (the writer stores a row's values first).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private IReadOnlyListMmf<T> OpenOnFirstUse()
    {
        lock (_gate!)
        {
            if (_items is { } opened)
            {
                return opened;
            }

            ObjectDisposedException.ThrowIf(_disposed, this);
            long rows = Table.RowCount;
            IReadOnlyListMmf<T> items = Table.OpenPart(Info, _open!);
            if (items.Count < rows)
            {
                long stored = items.Count;
                ((IDisposable)items).Dispose();
                throw Table.ShortColumn(this, stored, rows);
            }

            Volatile.Write(ref _items, items);
            return items;
        }
    }

    /// <summary>
    /// Opens a value column in the form its file is in: appendable, or sealed, which only a reader opens (a writer is
    /// refused, naming the column). A file sealed between the check and the open is opened sealed.
    /// </summary>
    internal static TableColumn<T> OpenTyped(TimeSeriesTable table, TableColumnInfo info, string path, FileAccess access, ListMmfOptions options)
    {
        IReadOnlyListMmf<T> Open() => EitherForm.Open<IReadOnlyListMmf<T>>(() => table.OpensSealed(info, path, access), () =>
        {
            // A writer fits counts past the file's end to it: the time column says what was published.
            ListMmfOptions fitting = options with { FitCountsToFile = access != FileAccess.Read };
            var list = new ListMmf<T>(path, access, fitting, info.DataType, requireDataType: true, description: null);
            if (list.Storage.Repair is { } repair)
            {
                table.NoteRepair($"column '{info.Name}' {repair}");
            }

            return list;
        }, () => new SealedListMmf<T>(path, options), table.ExpectSealed);

        return table.OpensColumnsOnFirstUse && access == FileAccess.Read
            ? new TableColumn<T>(table, info, path, Open)
            : new TableColumn<T>(table, info, Open(), isTime: false);
    }

    /// <summary>A DateTime view of <paramref name="ticks"/>, a column of <see cref="DataType.DateTime"/> ticks.</summary>
    internal static TableColumn<DateTime> DateTimesOf(TableColumn<long> ticks) => new(ticks);

    /// <summary>The ticks of <paramref name="times"/>, appended a stack buffer at a time.</summary>
    private void AddTicks(ReadOnlySpan<DateTime> times)
    {
        Span<long> buffer = stackalloc long[256];
        while (!times.IsEmpty)
        {
            int size = Math.Min(buffer.Length, times.Length);
            for (int i = 0; i < size; i++)
            {
                buffer[i] = times[i].Ticks;
            }

            _ticks!.AddRange(buffer[..size]);
            times = times[size..];
        }
    }

    /// <summary>Refuses a value no DateTime holds (outside 0 to <see cref="DateTime.MaxValue"/>'s ticks), naming its row.</summary>
    private void CheckTicks(ReadOnlySpan<long> ticks, long firstRow)
    {
        for (int i = 0; i < ticks.Length; i++)
        {
            if ((ulong)ticks[i] > (ulong)DateTime.MaxValue.Ticks)
            {
                ThrowNotTicks(ticks[i], firstRow + i);
            }
        }
    }

    private DateTime ToDateTime(long ticks, long row)
    {
        if ((ulong)ticks > (ulong)DateTime.MaxValue.Ticks)
        {
            ThrowNotTicks(ticks, row);
        }

        return new DateTime(ticks);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowNotTicks(long value, long row) =>
        throw new ListMmfException(Path, $"column '{Name}' of table '{Table.Path}' holds {value} at row {row:N0}, " +
            $"which is not the ticks of a DateTime (0 to {DateTime.MaxValue.Ticks}); read it as TableColumn<long>.");

    private int CheckPublished(IndexRange range) => ThrowHelper.SpanLength(range.Start, range.Length, Table.RowCount);

    /// <summary>The appendable list a value is added to; a sealed column belongs to a read-only table.</summary>
    private ListMmf<T> Appendable => _items as ListMmf<T> ?? throw new NotSupportedException($"'{Path}': column '{Name}' of table " +
        $"'{Table.Path}' is sealed; the table was opened read-only.");

    /// <summary>
    /// The list a span over the mapping is taken from: the column's, or the appendable file an unseal moved its sealed
    /// reader to; a sealed column has none.
    /// </summary>
    private ListMmf<T> Mapped => Items as ListMmf<T> ?? (Items as SealedListMmf<T>)?.Unsealed ?? throw new NotSupportedException(
        $"'{Path}': column '{Name}' of table '{Table.Path}' is sealed (compressed in blocks), so it has no span over its file; " +
        "read it with CopyTo or Read.");

    /// <summary>Adds <paramref name="codes"/>, a text column's, to this column of its codes.</summary>
    internal void AddCodes(ReadOnlySpan<T> codes) => Appendable.AddRange(codes);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowNotAdded() =>
        throw new NotSupportedException(IsTime
            ? $"'{Path}': '{Name}' is the time column of table '{Table.Path}'; rows are added with " +
                "TimeSeriesTable.AddRow or AddRows, after a value in every other column."
            : $"'{Path}': these are the codes of text column '{Name}' of table '{Table.Path}', which only the text " +
                "column adds, with its values (TimeSeriesTable.Text(name).Add).");
}
