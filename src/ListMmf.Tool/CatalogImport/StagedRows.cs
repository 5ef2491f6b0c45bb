using System;
using System.Numerics;

namespace ListMmf.Tool.CatalogImport;

/// <summary>
/// A file's rows held in a staging table (<see cref="ImportStaging"/>): times read whole, in the catalog's clock,
/// and values copied from the table's columns into a partition's as they are appended, in the table's order or, for
/// a file sorted by time, gathered in the sorted order. Disposing removes the table.
/// </summary>
internal sealed class StagedRows : ICatalogSourceRows
{
    private readonly TimeSeriesTable? _table;
    private readonly string? _folder;
    private readonly int[]? _sorted;

    private StagedRows(TimeSeriesTable? table, string? folder, long[] times, int[]? sorted, TimeSeriesTableSchema? schema)
    {
        _table = table;
        _folder = folder;
        _sorted = sorted;
        Times = times;
        Schema = schema;
    }

    /// <inheritdoc/>
    public long[] Times { get; }

    /// <summary>The kind these rows would make in a new catalog: the staging table's, UTC once turned so; null for no rows.</summary>
    public TimeSeriesTableSchema? Schema { get; }

    /// <summary>A file that held no rows.</summary>
    public static StagedRows None(string? folder) => new(null, folder, [], null, null);

    /// <summary>
    /// The rows of the staging table in <paramref name="folder"/>, times as given, the kind as <paramref name="schema"/>;
    /// row i is the table's row <paramref name="sorted"/>[i] (the table's row i when null).
    /// </summary>
    public static StagedRows Of(TimeSeriesTable table, string folder, long[] times, int[]? sorted, TimeSeriesTableSchema schema) =>
        new(table, folder, times, sorted, schema);

    /// <inheritdoc/>
    public void AppendTo(TimeSeriesTable table, int from, int count)
    {
        var rows = new IndexRange(from, from + count);
        long[]? gathered = _sorted is null ? null : Array.ConvertAll(_sorted[from..(from + count)], row => (long)row);
        foreach (TableColumnInfo column in _table!.Schema.Columns)
        {
            if (column.IsText)
            {
                TextColumn text = _table.Text(column.Name);
                var values = new string[count];
                if (gathered is null)
                {
                    text.CopyTo(rows, values);
                }
                else
                {
                    for (int i = 0; i < count; i++)
                    {
                        values[i] = text[gathered[i]];
                    }
                }

                table.Text(column.Name).AddRange(values);
            }
            else
            {
                DataTypeInfo.Of(column.DataType).Accept(new CopyColumn(_table, table, column.Name, rows, gathered));
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
        if (_folder is not null)
        {
            ImportStaging.Remove(_folder);
        }
    }

    /// <summary>
    /// Appends a range of one column of numbers to the same column of another table: the rows in the range, or
    /// the rows <paramref name="Gathered"/> names.
    /// </summary>
    private sealed record CopyColumn(TimeSeriesTable From, TimeSeriesTable To, string Name, IndexRange Rows, long[]? Gathered)
        : IDataTypeVisitor<bool>
    {
        public bool Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            TableColumn<T> from = From.Column<T>(Name);
            if (Gathered is null)
            {
                To.Column<T>(Name).AddRange(from.AsSpan(Rows));
                return true;
            }

            var values = new T[Gathered.Length];
            from.Gather(Gathered, values);
            To.Column<T>(Name).AddRange(values);
            return true;
        }
    }
}
