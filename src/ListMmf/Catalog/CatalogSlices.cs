using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>
/// A catalog's rows a time at a time (<see cref="TimeSeriesCatalog.Slices"/>): each <see cref="MoveNext"/> gives a
/// slice, every recorded row of one <see cref="Time"/> across the instruments and kinds replayed, in the replay's
/// order (kind rank, instrument ordinal, row), as QuantConnect Lean hands a strategy its slices. A slice's rows come
/// from many partitions, so their values are copied into the slice: <see cref="Partitions"/>, <see cref="Rows"/>
/// and <see cref="Values{T}"/> stay valid until the next <see cref="MoveNext"/>, and memory grows with the largest
/// slice, not with the rows replayed.
/// </summary>
/// <remarks>
/// A slice is a grouping of <see cref="CatalogReplay"/>'s order, in which the rows of one time are consecutive;
/// it reads what that replay reads, and is not thread-safe either.
/// </remarks>
public sealed class CatalogSlices : IDisposable
{
    private readonly CatalogReplay _replay;
    private readonly string _catalogPath;
    private readonly DataTypeInfo[] _types;

    /// <summary>The bytes of each column's stored values: 4 for an Int24 column, stored as int.</summary>
    private readonly int[] _sizes;
    private readonly ColumnCopy[] _copies;
    private readonly string[] _columns;
    private byte[][] _values;
    private CatalogPartition[] _partitions = new CatalogPartition[16];
    private long[] _rows = new long[16];
    private int _count;
    private long _time;

    /// <summary>Where the next slice starts in the replay's current batch; -1 when that batch is used up.</summary>
    private int _next = -1;
    private bool _ended;

    internal CatalogSlices(CatalogReplay replay, string catalogPath, string[] columns, DataTypeInfo[] types)
    {
        _replay = replay;
        _catalogPath = catalogPath;
        _columns = columns;
        _types = types;
        _sizes = Array.ConvertAll(types, type => type.Accept(StorageSize.Instance));
        _values = Array.ConvertAll(_sizes, size => new byte[16 * size]);
        _copies = new ColumnCopy[types.Length];
        for (int column = 0; column < types.Length; column++)
        {
            _copies[column] = new ColumnCopy(this, column);
        }
    }

    /// <summary>The slice's time.</summary>
    public DateTime Time => new(_time);

    /// <summary>How many rows the slice holds: at least one after <see cref="MoveNext"/> returned true.</summary>
    public int Count => _count;

    /// <summary>Each row's partition: its <see cref="CatalogPartition.Kind"/> and <see cref="CatalogPartition.Instrument"/>.</summary>
    public ReadOnlySpan<CatalogPartition> Partitions => _partitions.AsSpan(0, _count);

    /// <summary>Each row's position in its partition's table.</summary>
    public ReadOnlySpan<long> Rows => _rows.AsSpan(0, _count);

    /// <summary>
    /// The slice's values of the <paramref name="column"/>th of the columns asked for, one for each row, copied into
    /// the slice: valid until the next <see cref="MoveNext"/>.
    /// </summary>
    /// <typeparam name="T">The type the column stores (<see cref="long"/> ticks for a DateTime column).</typeparam>
    /// <exception cref="ArgumentOutOfRangeException">The slices were asked for fewer columns.</exception>
    /// <exception cref="ListMmfDataTypeException">The column stores another type.</exception>
    public ReadOnlySpan<T> Values<T>(int column)
        where T : unmanaged
    {
        if ((uint)column >= (uint)_types.Length)
        {
            throw new ArgumentOutOfRangeException(nameof(column), column, $"The slices were asked for {_types.Length} columns.");
        }

        if (_types[column].StorageType != typeof(T))
        {
            throw new ListMmfDataTypeException(_catalogPath, $"column '{_columns[column]}' holds " +
                $"{_types[column].Describe()}, not {typeof(T).Name} values.");
        }

        return MemoryMarshal.Cast<byte, T>(_values[column].AsSpan(0, _count * _sizes[column]));
    }

    /// <summary>Moves to the next time that has rows, gathering all of them.</summary>
    /// <returns>False when every row was given.</returns>
    public bool MoveNext()
    {
        _count = 0;
        if (_next < 0 && !NextBatch())
        {
            return false;
        }

        _time = _replay.Times[_next].Ticks;
        while (true)
        {
            ReadOnlySpan<DateTime> times = _replay.Times;
            int end = _next;
            while (end < times.Length && times[end].Ticks == _time)
            {
                end++;
            }

            Take(_next, end - _next);
            if (end < times.Length)
            {
                _next = end;
                return true;
            }

            if (!NextBatch() || _replay.Times[0].Ticks != _time)
            {
                return true;
            }
        }
    }

    /// <summary>Closes the replay under the slices and the partitions it holds.</summary>
    public void Dispose() => _replay.Dispose();

    /// <summary>Moves the replay to its next batch; false (for good) when it has none.</summary>
    private bool NextBatch()
    {
        if (_ended || !_replay.MoveNext())
        {
            (_ended, _next) = (true, -1);
            return false;
        }

        _next = 0;
        return true;
    }

    /// <summary>Adds <paramref name="length"/> rows of the replay's batch from <paramref name="start"/> to the slice.</summary>
    private void Take(int start, int length)
    {
        int count = _count + length;
        if (count > _rows.Length)
        {
            int capacity = Math.Max(count, 2 * _rows.Length);
            Array.Resize(ref _rows, capacity);
            Array.Resize(ref _partitions, capacity);
            for (int column = 0; column < _values.Length; column++)
            {
                Array.Resize(ref _values[column], capacity * _sizes[column]);
            }
        }

        long first = _replay.Rows.Start + start;
        _partitions.AsSpan(_count, length).Fill(_replay.Partition);
        for (int i = 0; i < length; i++)
        {
            _rows[_count + i] = first + i;
        }

        for (int column = 0; column < _copies.Length; column++)
        {
            _copies[column].Run(start, length);
        }

        _count = count;
    }

    /// <summary>Copies a batch's values of one column into the slice, as the type the column stores (made once a column).</summary>
    private sealed class ColumnCopy(CatalogSlices slices, int column) : IDataTypeVisitor<int>
    {
        private int _start;
        private int _length;

        public void Run(int start, int length)
        {
            (_start, _length) = (start, length);
            slices._types[column].Accept(this);
        }

        public int Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            ReadOnlySpan<byte> values = MemoryMarshal.AsBytes(slices._replay.Values<T>(column).Slice(_start, _length));
            values.CopyTo(slices._values[column].AsSpan(slices._count * slices._sizes[column]));
            return values.Length;
        }
    }

    /// <summary>The bytes of the type a data type's values are stored as.</summary>
    private sealed class StorageSize : IDataTypeVisitor<int>
    {
        public static readonly StorageSize Instance = new();

        public int Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> => Unsafe.SizeOf<T>();
    }
}
