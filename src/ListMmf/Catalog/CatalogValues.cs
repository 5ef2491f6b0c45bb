using System;
using System.Linq;
using System.Numerics;

namespace ListMmf;

/// <summary>
/// Values of some of a kind's columns, read from partitions into arrays of one slot a result (an instrument of a
/// state, a row of a join), each in the type its column stores: what <see cref="CatalogState"/> and
/// <see cref="CatalogAsOf"/> hand out through their <c>Values&lt;T&gt;</c>.
/// </summary>
internal sealed class CatalogValues
{
    private readonly string _catalog;
    private readonly string _kind;
    private readonly string[] _names;
    private readonly Column[] _columns;

    public CatalogValues(string catalog, string kind, TimeSeriesTableSchema schema, string[] names, int length)
    {
        _catalog = catalog;
        _kind = kind;
        _names = names;
        _columns = names
            .Select(name => DataTypeInfo.Of(schema.Columns.First(known => known.Name == name).DataType).Accept(new Column.Allocator(length)))
            .ToArray();
    }

    /// <summary>How many columns are read.</summary>
    public int Count => _columns.Length;

    /// <summary>
    /// Reads every column's value of <paramref name="table"/>'s <paramref name="rows"/> (-1: none, the type's
    /// default) into the slots from <paramref name="at"/>.
    /// </summary>
    public void Gather(TimeSeriesTable table, ReadOnlySpan<long> rows, int at)
    {
        for (int i = 0; i < _columns.Length; i++)
        {
            _columns[i].Gather(table, _names[i], rows, at);
        }
    }

    /// <summary>The values of the <paramref name="column"/>th column, one a slot.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Fewer columns were asked for.</exception>
    /// <exception cref="ListMmfDataTypeException">The column holds another type.</exception>
    public ReadOnlySpan<T> Values<T>(int column)
        where T : unmanaged
    {
        if ((uint)column >= (uint)_columns.Length)
        {
            throw new ArgumentOutOfRangeException(nameof(column), column, $"{_columns.Length} columns were asked for.");
        }

        return _columns[column].Values<T>() ?? throw new ListMmfDataTypeException(_catalog,
            $"column '{_names[column]}' of kind '{_kind}' holds {_columns[column].Describe()}, not {typeof(T).Name} values.");
    }

    /// <summary>One column's values, in the type its file stores.</summary>
    private abstract class Column
    {
        public abstract void Gather(TimeSeriesTable table, string name, ReadOnlySpan<long> rows, int at);

        /// <summary>The values as <typeparamref name="T"/>, or null when the column is read as another type.</summary>
        public abstract T[]? Values<T>()
            where T : unmanaged;

        public abstract string Describe();

        public sealed class Allocator(int length) : IDataTypeVisitor<Column>
        {
            public Column Visit<T>(DataTypeInfo type)
                where T : unmanaged, INumber<T>, IMinMaxValue<T> =>
                type.DataType == DataType.DateTime ? new Typed<DateTime>(type, length) : new Typed<T>(type, length);
        }
    }

    private sealed class Typed<TStored>(DataTypeInfo type, int length) : Column
        where TStored : unmanaged
    {
        private readonly TStored[] _values = new TStored[length];
        private long[]? _ticks;

        /// <summary>A DateTime column's values are read as DateTimes, so that a value no DateTime holds is refused with its row.</summary>
        public override void Gather(TimeSeriesTable table, string name, ReadOnlySpan<long> rows, int at) =>
            table.Column<TStored>(name).Gather(rows, _values.AsSpan(at, rows.Length));

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
