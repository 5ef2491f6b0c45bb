using System;
using System.Collections.Generic;
using System.Linq;
using System.Numerics;

namespace ListMmf;

/// <summary>
/// The state of many instruments at one time (<see cref="TimeSeriesCatalog.StateAt"/>): for each instrument, its
/// last recorded row of one kind at or before <see cref="Time"/>, that row's time and the values of the columns
/// asked for, read when the state was taken; an instrument with no such row has <see cref="Rows"/> -1.
/// </summary>
public sealed class CatalogState
{
    private readonly string _catalog;
    private readonly string[] _columnNames;
    private readonly StateColumn[] _columns;
    private readonly CatalogPartition?[] _partitions;
    private readonly long[] _rows;
    private readonly DateTime[] _times;

    internal CatalogState(string catalog, string kind, DateTime time, string[] instruments, TimeSeriesTableSchema schema, string[] columns)
    {
        _catalog = catalog;
        Kind = kind;
        Time = time;
        Instruments = instruments;
        _columnNames = columns;
        _columns = new StateColumn[columns.Length];
        for (int i = 0; i < columns.Length; i++)
        {
            TableColumnInfo info = schema.Columns.First(known => known.Name == columns[i]);
            _columns[i] = DataTypeInfo.Of(info.DataType).Accept(new StateColumn.Allocator(instruments.Length));
        }

        _partitions = new CatalogPartition?[instruments.Length];
        _rows = new long[instruments.Length];
        _rows.AsSpan().Fill(-1);
        _times = new DateTime[instruments.Length];
    }

    /// <summary>The kind whose rows the state holds.</summary>
    public string Kind { get; }

    /// <summary>The time the state is of: each row is the last at or before it.</summary>
    public DateTime Time { get; }

    /// <summary>The instruments, in the order asked (by default every instrument of the catalog, by ordinal).</summary>
    public IReadOnlyList<string> Instruments { get; }

    /// <summary>Each instrument's row in its partition (<see cref="Partitions"/>), or -1 where it has none at or before <see cref="Time"/>.</summary>
    public ReadOnlySpan<long> Rows => _rows;

    /// <summary>Each instrument's row's time; <see cref="DateTime.MinValue"/> where it has none.</summary>
    public ReadOnlySpan<DateTime> Times => _times;

    /// <summary>Each instrument's partition the row is of; null where it has none.</summary>
    public IReadOnlyList<CatalogPartition?> Partitions => _partitions;

    /// <summary>
    /// Each instrument's value of the <paramref name="column"/>th of the columns asked for; the type's default where
    /// it has no row.
    /// </summary>
    /// <typeparam name="T">The column's type, as <see cref="TimeSeriesTable.Column{T}"/> takes it.</typeparam>
    /// <exception cref="ArgumentOutOfRangeException">The state was asked for fewer columns.</exception>
    /// <exception cref="ListMmfDataTypeException">The column holds another type.</exception>
    public ReadOnlySpan<T> Values<T>(int column)
        where T : unmanaged
    {
        if ((uint)column >= (uint)_columns.Length)
        {
            throw new ArgumentOutOfRangeException(nameof(column), column, $"The state was asked for {_columns.Length} columns.");
        }

        return _columns[column].Values<T>() ?? throw new ListMmfDataTypeException(_catalog,
            $"column '{_columnNames[column]}' of kind '{Kind}' holds {_columns[column].Describe()}, not {typeof(T).Name} values.");
    }

    /// <inheritdoc/>
    public override string ToString() => $"CatalogState({Kind} at {Time:O}, {Instruments.Count} instruments)";

    /// <summary>Records instrument <paramref name="at"/>'s row with its time and reads its columns' values from <paramref name="table"/>.</summary>
    internal void Set(int at, CatalogPartition partition, long row, DateTime time, TimeSeriesTable? table)
    {
        _partitions[at] = partition;
        _rows[at] = row;
        _times[at] = time;
        for (int i = 0; i < _columns.Length; i++)
        {
            _columns[i].Read(table!, _columnNames[i], at, row);
        }
    }

    /// <summary>Whether the state reads any column, so that a row's table must be opened even where its time is known.</summary>
    internal bool ReadsColumns => _columns.Length > 0;

    /// <summary>One column's values, one an instrument, in the type its file stores.</summary>
    private abstract class StateColumn
    {
        public abstract void Read(TimeSeriesTable table, string name, int at, long row);

        /// <summary>The values as <typeparamref name="T"/>, or null when the column is read as another type.</summary>
        public abstract T[]? Values<T>()
            where T : unmanaged;

        public abstract string Describe();

        public sealed class Allocator(int length) : IDataTypeVisitor<StateColumn>
        {
            public StateColumn Visit<T>(DataTypeInfo type)
                where T : unmanaged, INumber<T>, IMinMaxValue<T> =>
                type.DataType == DataType.DateTime ? new Typed<DateTime>(type, length) : new Typed<T>(type, length);
        }
    }

    private sealed class Typed<TStored>(DataTypeInfo type, int length) : StateColumn
        where TStored : unmanaged
    {
        private readonly TStored[] _values = new TStored[length];
        private long[]? _ticks;

        /// <summary>A DateTime column's values are read as DateTimes, so that a value no DateTime holds is refused with its row.</summary>
        public override void Read(TimeSeriesTable table, string name, int at, long row) => _values[at] = table.Column<TStored>(name)[row];

        public override T[]? Values<T>()
        {
            // Not `_values is T[]`: the runtime's array casts take a long[] as a ulong[] too.
            if (typeof(T) == typeof(TStored))
            {
                return (T[])(object)_values;
            }

            if (typeof(T) == typeof(long) && _values is DateTime[] times)
            {
                _ticks ??= Array.ConvertAll(times, time => time.Ticks);
                return (T[])(object)_ticks;
            }

            return null;
        }

        public override string Describe() => type.Describe();
    }
}
