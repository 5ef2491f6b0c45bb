using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>
/// The rows of one run of a replay (<see cref="CatalogRuns"/>), gathered from many partitions and put in the replay's
/// order: what <see cref="CatalogRuns"/> and <see cref="CatalogSlices"/> hand out as spans.
/// </summary>
/// <remarks>
/// The replay gathers a run's rows chain by chain in (kind rank, instrument ordinal) order, each chain's rows in
/// their own order, so a stable sort by time alone gives the documented order: <see cref="Sort"/> is a stable
/// least-significant-digit radix sort of the times relative to the run's first, on the bits that differ only.
/// </remarks>
internal sealed class CatalogRun
{
    private const int DigitBits = 11;
    private const int Buckets = 1 << DigitBits;

    private readonly string _catalogPath;
    private readonly string[] _columns;
    private readonly DataTypeInfo[] _types;
    private readonly int[] _counts = new int[Buckets];

    /// <summary>The rows in the replay's order, after <see cref="Sort"/>.</summary>
    private Rows _sorted;

    /// <summary>The rows as gathered, chain by chain.</summary>
    private Rows _gathered;
    private ulong[] _keys = [];
    private ulong[] _keysBuffer = [];
    private int[] _order = [];
    private int[] _orderBuffer = [];
    private long _lastTicks = long.MinValue;
    private bool _inOrder = true;

    public CatalogRun(string catalogPath, string[] columns, DataTypeInfo[] types)
    {
        _catalogPath = catalogPath;
        _columns = columns;
        _types = types;
        int[] sizes = Array.ConvertAll(types, type => type.Accept(StorageSize.Instance));
        _sorted = new Rows(sizes);
        _gathered = new Rows(sizes);
    }

    /// <summary>The columns' types, in the order the replay was asked for them.</summary>
    public ReadOnlySpan<DataTypeInfo> Types => _types;

    /// <summary>How many rows the run holds.</summary>
    public int Count { get; private set; }

    public ReadOnlySpan<DateTime> Times => _sorted.Times.AsSpan(0, Count);

    public ReadOnlySpan<CatalogPartition> Partitions => _sorted.Partitions.AsSpan(0, Count);

    public ReadOnlySpan<long> RowNumbers => _sorted.RowNumbers.AsSpan(0, Count);

    /// <summary>The <paramref name="column"/>th column's values, as the type it stores.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The replay was asked for fewer columns.</exception>
    /// <exception cref="ListMmfDataTypeException">The column stores another type.</exception>
    public ReadOnlySpan<T> Values<T>(int column)
        where T : unmanaged
    {
        if ((uint)column >= (uint)_types.Length)
        {
            throw new ArgumentOutOfRangeException(nameof(column), column, $"The replay was asked for {_types.Length} columns.");
        }

        if (_types[column].StorageType != typeof(T))
        {
            throw new ListMmfDataTypeException(_catalogPath, $"column '{_columns[column]}' holds " +
                $"{_types[column].Describe()}, not {typeof(T).Name} values.");
        }

        return MemoryMarshal.Cast<byte, T>(_sorted.Values[column].AsSpan(0, Count * _sorted.Sizes[column]));
    }

    /// <summary>Empties the run for the next.</summary>
    public void Clear()
    {
        Count = 0;
        _lastTicks = long.MinValue;
        _inOrder = true;
    }

    /// <summary>
    /// Adds rows of one partition, <paramref name="times"/> from its row <paramref name="firstRow"/> on; their values
    /// follow through <see cref="ValuesOf"/>, before the next <see cref="Add"/>.
    /// </summary>
    public void Add(CatalogPartition partition, long firstRow, ReadOnlySpan<DateTime> times)
    {
        int start = Count;
        int count = start + times.Length;
        _gathered.Reserve(count);
        times.CopyTo(_gathered.Times.AsSpan(start));
        _gathered.Partitions.AsSpan(start, times.Length).Fill(partition);
        Span<long> rows = _gathered.RowNumbers.AsSpan(start, times.Length);
        for (int i = 0; i < rows.Length; i++)
        {
            rows[i] = firstRow + i;
        }

        if (times[0].Ticks < _lastTicks)
        {
            _inOrder = false;
        }

        _lastTicks = times[^1].Ticks;
        Count = count;
    }

    /// <summary>Where the values of the <paramref name="column"/>th column of the rows last added go.</summary>
    public Span<byte> ValuesOf(int column, int rows) =>
        _gathered.Values[column].AsSpan((Count - rows) * _gathered.Sizes[column], rows * _gathered.Sizes[column]);

    /// <summary>Puts the gathered rows in order of time, rows of one time in the order they were gathered.</summary>
    public void Sort()
    {
        if (_inOrder)
        {
            (_sorted, _gathered) = (_gathered, _sorted);
            return;
        }

        int count = Count;
        EnsureKeys(count);
        ReadOnlySpan<DateTime> times = _gathered.Times.AsSpan(0, count);
        long first = long.MaxValue;
        foreach (DateTime time in times)
        {
            first = Math.Min(first, time.Ticks);
        }

        ulong differing = 0;
        ulong largest = 0;
        for (int i = 0; i < count; i++)
        {
            ulong key = (ulong)(times[i].Ticks - first);
            _keys[i] = key;
            _order[i] = i;
            differing |= key;
            largest = Math.Max(largest, key);
        }

        // Times on a grid (whole seconds or milliseconds in ticks) share their low bits: those never order anything.
        int shift = BitOperations.TrailingZeroCount(differing);
        int bits = 64 - BitOperations.LeadingZeroCount(largest >> shift);
        for (int low = shift; low < shift + bits; low += DigitBits)
        {
            SortByDigit(count, low);
        }

        _sorted.Reserve(count);
        Permute(count);
    }

    /// <summary>A stable counting sort of <see cref="_keys"/> (and <see cref="_order"/>) by the digit at bit <paramref name="low"/>.</summary>
    private void SortByDigit(int count, int low)
    {
        Span<int> counts = _counts;
        counts.Clear();
        ulong[] keys = _keys;
        for (int i = 0; i < count; i++)
        {
            counts[(int)(keys[i] >> low) & (Buckets - 1)]++;
        }

        int at = 0;
        for (int digit = 0; digit < Buckets; digit++)
        {
            (counts[digit], at) = (at, at + counts[digit]);
        }

        int[] order = _order;
        ulong[] keysTo = _keysBuffer;
        int[] orderTo = _orderBuffer;
        for (int i = 0; i < count; i++)
        {
            int to = counts[(int)(keys[i] >> low) & (Buckets - 1)]++;
            keysTo[to] = keys[i];
            orderTo[to] = order[i];
        }

        (_keys, _keysBuffer) = (keysTo, keys);
        (_order, _orderBuffer) = (orderTo, order);
    }

    /// <summary>Copies the gathered rows into <see cref="_sorted"/> in <see cref="_order"/>.</summary>
    private void Permute(int count)
    {
        ReadOnlySpan<int> order = _order.AsSpan(0, count);
        for (int i = 0; i < order.Length; i++)
        {
            int from = order[i];
            _sorted.Times[i] = _gathered.Times[from];
            _sorted.Partitions[i] = _gathered.Partitions[from];
            _sorted.RowNumbers[i] = _gathered.RowNumbers[from];
        }

        for (int column = 0; column < _types.Length; column++)
        {
            byte[] from = _gathered.Values[column];
            byte[] to = _sorted.Values[column];
            switch (_gathered.Sizes[column])
            {
                case 1: Gather<byte>(from, to, order); break;
                case 2: Gather<short>(from, to, order); break;
                case 4: Gather<int>(from, to, order); break;
                case 8: Gather<long>(from, to, order); break;
                default: GatherBytes(from, to, order, _gathered.Sizes[column]); break;
            }
        }
    }

    private static void Gather<T>(byte[] from, byte[] to, ReadOnlySpan<int> order)
        where T : unmanaged
    {
        ReadOnlySpan<T> source = MemoryMarshal.Cast<byte, T>(from.AsSpan());
        Span<T> target = MemoryMarshal.Cast<byte, T>(to.AsSpan());
        for (int i = 0; i < order.Length; i++)
        {
            target[i] = source[order[i]];
        }
    }

    private static void GatherBytes(byte[] from, byte[] to, ReadOnlySpan<int> order, int size)
    {
        for (int i = 0; i < order.Length; i++)
        {
            from.AsSpan(order[i] * size, size).CopyTo(to.AsSpan(i * size));
        }
    }

    private void EnsureKeys(int count)
    {
        if (_keys.Length < count)
        {
            int capacity = Math.Max(count, 2 * _keys.Length);
            (_keys, _keysBuffer) = (new ulong[capacity], new ulong[capacity]);
            (_order, _orderBuffer) = (new int[capacity], new int[capacity]);
        }
    }

    /// <summary>A run's rows: times, partitions, row numbers and each column's stored values, grown as needed.</summary>
    private sealed class Rows(int[] sizes)
    {
        public int[] Sizes { get; } = sizes;

        public DateTime[] Times { get; private set; } = [];

        public CatalogPartition[] Partitions { get; private set; } = [];

        public long[] RowNumbers { get; private set; } = [];

        public byte[][] Values { get; } = Array.ConvertAll(sizes, _ => Array.Empty<byte>());

        public void Reserve(int count)
        {
            if (count <= Times.Length)
            {
                return;
            }

            int capacity = Math.Max(count, 2 * Times.Length);
            DateTime[] times = Times;
            CatalogPartition[] partitions = Partitions;
            long[] rows = RowNumbers;
            Array.Resize(ref times, capacity);
            Array.Resize(ref partitions, capacity);
            Array.Resize(ref rows, capacity);
            (Times, Partitions, RowNumbers) = (times, partitions, rows);
            for (int column = 0; column < Values.Length; column++)
            {
                Array.Resize(ref Values[column], capacity * Sizes[column]);
            }
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
