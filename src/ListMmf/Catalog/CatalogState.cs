using System;
using System.Collections.Generic;

namespace ListMmf;

/// <summary>
/// The state of many instruments at one time (<see cref="TimeSeriesCatalog.StateAt"/>): for each instrument, its
/// last recorded row of one kind at or before <see cref="Time"/>, that row's time and the values of the columns
/// asked for, read when the state was taken; an instrument with no such row has <see cref="Rows"/> -1.
/// </summary>
public sealed class CatalogState
{
    private readonly CatalogValues _values;
    private readonly CatalogPartition?[] _partitions;
    private readonly long[] _rows;
    private readonly DateTime[] _times;

    internal CatalogState(string catalog, string kind, DateTime time, string[] instruments, TimeSeriesTableSchema schema, string[] columns)
    {
        Kind = kind;
        Time = time;
        Instruments = instruments;
        _values = new CatalogValues(catalog, kind, schema, columns, instruments.Length);

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
        where T : unmanaged => _values.Values<T>(column);

    /// <inheritdoc/>
    public override string ToString() => $"CatalogState({Kind} at {Time:O}, {Instruments.Count} instruments)";

    /// <summary>Records instrument <paramref name="at"/>'s row with its time and reads its columns' values from <paramref name="table"/>.</summary>
    internal void Set(int at, CatalogPartition partition, long row, DateTime time, TimeSeriesTable? table)
    {
        _partitions[at] = partition;
        _rows[at] = row;
        _times[at] = time;
        if (_values.Count > 0)
        {
            _values.Gather(table!, new ReadOnlySpan<long>(in row), at);
        }
    }

    /// <summary>Whether the state reads any column, so that a row's table must be opened even where its time is known.</summary>
    internal bool ReadsColumns => _values.Count > 0;
}
