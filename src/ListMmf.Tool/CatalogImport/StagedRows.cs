using System;
using System.IO;
using System.Numerics;

namespace ListMmf.Tool.CatalogImport;

/// <summary>
/// A file's rows held in a staging table (<see cref="ImportStaging"/>): times read whole, in the catalog's clock,
/// and values copied from the table's columns into a partition's as they are appended. Disposing removes the table.
/// </summary>
internal sealed class StagedRows : ICatalogSourceRows
{
    private readonly TimeSeriesTable? _table;
    private readonly string? _folder;

    private StagedRows(TimeSeriesTable? table, string? folder, long[] times, TimeSeriesTableSchema? schema)
    {
        _table = table;
        _folder = folder;
        Times = times;
        Schema = schema;
    }

    /// <inheritdoc/>
    public long[] Times { get; }

    /// <summary>The kind these rows would make in a new catalog: the staging table's, UTC once turned so; null for no rows.</summary>
    public TimeSeriesTableSchema? Schema { get; }

    /// <summary>A file that held no rows.</summary>
    public static StagedRows None(string? folder) => new(null, folder, [], null);

    /// <summary>The rows of the staging table in <paramref name="folder"/>, times as given, the kind as <paramref name="schema"/>.</summary>
    public static StagedRows Of(TimeSeriesTable table, string folder, long[] times, TimeSeriesTableSchema schema) =>
        new(table, folder, times, schema);

    /// <inheritdoc/>
    public void AppendTo(TimeSeriesTable table, int from, int count)
    {
        var rows = new IndexRange(from, from + count);
        foreach (TableColumnInfo column in _table!.Schema.Columns)
        {
            if (column.IsText)
            {
                var values = new string[count];
                _table.Text(column.Name).CopyTo(rows, values);
                table.Text(column.Name).AddRange(values);
            }
            else
            {
                DataTypeInfo.Of(column.DataType).Accept(new CopyColumn(_table, table, column.Name, rows));
            }
        }

        ReadOnlySpan<long> times = Times.AsSpan(from, count);
        if (table.Schema.Time.DataType == DataType.DateTime)
        {
            table.AddRows(times);
            return;
        }

        var seconds = new int[count];
        for (int i = 0; i < count; i++)
        {
            ListMmfTimeSeriesDateTimeSeconds.TryGetUnixSeconds(new DateTime(times[i]), out seconds[i]);
        }

        table.AddRows(seconds);
    }

    /// <summary>Closes the staging table and removes its folder.</summary>
    public void Dispose()
    {
        _table?.Dispose();
        if (_folder is not null && Directory.Exists(_folder))
        {
            Directory.Delete(_folder, recursive: true);
        }
    }

    /// <summary>Appends a range of one column of numbers to the same column of another table.</summary>
    private sealed record CopyColumn(TimeSeriesTable From, TimeSeriesTable To, string Name, IndexRange Rows) : IDataTypeVisitor<bool>
    {
        public bool Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            To.Column<T>(Name).AddRange(From.Column<T>(Name).AsSpan(Rows));
            return true;
        }
    }
}
