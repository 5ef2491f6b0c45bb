using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace ListMmf.Tool.Files;

/// <summary>
/// What the row commands read: a single file (one column) or a table folder (its time column and value columns),
/// with the time searches when it has times.
/// </summary>
internal sealed class Source : IDisposable
{
    private readonly TimeSeriesTable? _table;
    private readonly IDisposable? _series;
    private readonly Func<DateTime, long>? _lowerBound;
    private readonly Func<DateTime, long>? _upperBound;

    private Source(
        string path,
        IReadOnlyList<ColumnView> columns,
        TimeSeriesTable? table,
        IDisposable? series,
        Func<DateTime, long>? lowerBound,
        Func<DateTime, long>? upperBound)
    {
        Path = path;
        Columns = columns;
        _table = table;
        _series = series;
        _lowerBound = lowerBound;
        _upperBound = upperBound;
    }

    public string Path { get; }

    public IReadOnlyList<ColumnView> Columns { get; }

    /// <summary>The rows: a table's published rows, a file's count.</summary>
    public long Count => _table?.RowCount ?? Columns[0].Count;

    /// <summary>Opens a table folder (it has a manifest) or a single ListMmf file, read-only.</summary>
    public static Source Open(string path)
    {
        string fullPath = System.IO.Path.GetFullPath(path);
        if (Directory.Exists(fullPath))
        {
            var table = TimeSeriesTable.Open(fullPath, FileAccess.Read);
            try
            {
                var columns = table.Columns.Select(column => ColumnView.Open(column.Path, column.Name, column.DataType)).ToList();
                return new Source(fullPath, columns, table, null, table.LowerBound, table.UpperBound);
            }
            catch
            {
                table.Dispose();
                throw;
            }
        }

        ListMmfFileInfo info = ListMmfFileInfo.Read(fullPath);
        ColumnView column = ColumnView.Open(fullPath, System.IO.Path.GetFileName(fullPath), info.DataType);
        try
        {
            // The searches of a time file trust its order; `verify` checks it.
            return info.DataType switch
            {
                DataType.UnixSeconds => WithSeries(
                    fullPath,
                    column,
                    ListMmfTimeSeriesDateTimeSeconds.OpenRead(fullPath, TimeSeriesOrder.AscendingOrEqual)),
                DataType.DateTime => WithSeries(fullPath, column, ListMmfTimeSeriesDateTime.OpenRead(fullPath, TimeSeriesOrder.AscendingOrEqual)),
                _ => new Source(fullPath, [column], null, null, null, null),
            };
        }
        catch
        {
            column.Dispose();
            throw;
        }
    }

    public long LowerBound(DateTime time) => (_lowerBound ?? throw NoTimes())(time);

    public long UpperBound(DateTime time) => (_upperBound ?? throw NoTimes())(time);

    public void Dispose()
    {
        foreach (ColumnView column in Columns)
        {
            column.Dispose();
        }

        _series?.Dispose();
        _table?.Dispose();
    }

    private static Source WithSeries<TKey>(string path, ColumnView column, TimeSeriesMmf<TKey> series)
        where TKey : unmanaged, System.Numerics.IComparisonOperators<TKey, TKey, bool> =>
        new(path, [column], null, series, series.LowerBound, series.UpperBound);

    private DataException NoTimes() =>
        new($"'{Path}' holds {Columns[0].DataType} items, not times; searches by time need a time series (UnixSeconds or DateTime) or a table.");
}
