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
    private readonly IDisposable? _owned;
    private readonly Func<DateTime, long>? _lowerBound;
    private readonly Func<DateTime, long>? _upperBound;

    private Source(
        string path,
        IReadOnlyList<ColumnView> columns,
        TimeSeriesTable? table,
        IDisposable? owned,
        Func<DateTime, long>? lowerBound,
        Func<DateTime, long>? upperBound,
        bool timesAreUtc = false)
    {
        Path = path;
        Columns = columns;
        _table = table;
        _owned = owned;
        TimesAreUtc = timesAreUtc;
        _lowerBound = lowerBound;
        _upperBound = upperBound;
    }

    public string Path { get; }

    public IReadOnlyList<ColumnView> Columns { get; }

    /// <summary>Whether the times are recorded as UTC, so that a time given with an offset can be converted to them.</summary>
    public bool TimesAreUtc { get; }

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
                var columns = table.Columns.Select(column => column is TextColumn text
                    ? new TextColumnView(text)
                    : ColumnView.Of(table, column)).ToList();
                return new Source(fullPath, columns, table, null, table.LowerBound, table.UpperBound, table.Schema.TimesAreUtc);
            }
            catch
            {
                table.Dispose();
                throw;
            }
        }

        ListMmfFileInfo info = ListMmfFileInfo.Read(fullPath);
        if (info.DataType == DataType.AnyStruct)
        {
            StructFile items = StructFile.Open(fullPath);
            List<ColumnView> fields = items.Description.Fields.Count == 0
                ? [new StructColumnView(items, field: null, ownsFile: false)]
                : items.Description.Fields.Select(field => (ColumnView)new StructColumnView(items, field, ownsFile: false)).ToList();
            return new Source(fullPath, fields, null, items, null, null);
        }

        if (info.IsSealed)
        {
            return OpenSealed(fullPath, info.DataType);
        }

        ColumnView column = ColumnView.Open(fullPath, System.IO.Path.GetFileName(fullPath), info.DataType, TimesAreUtcIn(fullPath));
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

    /// <summary>A time given on the command line for these times; see <see cref="Times.Parse"/>.</summary>
    public DateTime ParseTime(string text, string option) => Times.Parse(text, option, TimesAreUtc);

    public long LowerBound(DateTime time) => (_lowerBound ?? throw NoTimes())(time);

    public long UpperBound(DateTime time) => (_upperBound ?? throw NoTimes())(time);

    public void Dispose()
    {
        foreach (ColumnView column in Columns)
        {
            column.Dispose();
        }

        _owned?.Dispose();
        _table?.Dispose();
    }

    /// <summary>A sealed file: its items, and the time searches of a sealed time series (the library's, by the same rules).</summary>
    private static Source OpenSealed(string path, DataType dataType)
    {
        ColumnView column = ColumnView.Open(path, System.IO.Path.GetFileName(path), dataType, TimesAreUtcIn(path));
        IDisposable? times = null;
        try
        {
            switch (dataType)
            {
                case DataType.UnixSeconds:
                    var seconds = new SealedListMmf<int>(path);
                    times = seconds;
                    return new Source(path, [column], null, seconds, seconds.LowerBound, seconds.UpperBound, seconds.TimesAreUtc);
                case DataType.DateTime:
                    var ticks = new SealedListMmf<long>(path);
                    times = ticks;
                    return new Source(path, [column], null, ticks, ticks.LowerBound, ticks.UpperBound, ticks.TimesAreUtc);
                default:
                    return new Source(path, [column], null, null, null, null);
            }
        }
        catch
        {
            times?.Dispose();
            column.Dispose();
            throw;
        }
    }

    private static Source WithSeries<TKey>(string path, ColumnView column, TimeSeriesMmf<TKey> series)
        where TKey : unmanaged, System.Numerics.IComparisonOperators<TKey, TKey, bool> =>
        new(path, [column], null, series, series.LowerBound, series.UpperBound, series.TimesAreUtc);

    /// <summary>Whether a single file's description records its times as UTC (a file of no description: not).</summary>
    internal static bool TimesAreUtcIn(string path) => ListMmfDescription.Read(path)?.TimesAreUtc == true;

    private DataException NoTimes() =>
        new($"'{Path}' holds {Columns[0].DataType} items, not times; searches by time need a time series (UnixSeconds or DateTime) or a table.");
}
