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

    /// <summary>The times searched: a table's time column or a time file, in either form; null where there are none.</summary>
    private readonly IReadOnlyTimeSeries? _times;

    private Source(string path, IReadOnlyList<ColumnView> columns, TimeSeriesTable? table, IDisposable? owned, IReadOnlyTimeSeries? times)
    {
        Path = path;
        Columns = columns;
        _table = table;
        _owned = owned;
        _times = times;
    }

    public string Path { get; }

    public IReadOnlyList<ColumnView> Columns { get; }

    /// <summary>Whether the times are recorded as UTC, so that a time given with an offset can be converted to them.</summary>
    public bool TimesAreUtc => _times?.TimesAreUtc == true;

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
                return new Source(fullPath, columns, table, null, table.Times);
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
            return new Source(fullPath, fields, null, items, null);
        }

        // The searches of a time file trust its order; `verify` checks it.
        IReadOnlyTimeSeries? times = DataTypeInfo.Of(info.DataType).IsTime ? TimeSeriesFile.OpenRead(fullPath) : null;
        try
        {
            ColumnView column = ColumnView.Open(fullPath, System.IO.Path.GetFileName(fullPath), info.DataType, times?.TimesAreUtc == true);
            return new Source(fullPath, [column], null, times, times);
        }
        catch
        {
            times?.Dispose();
            throw;
        }
    }

    /// <summary>A time given on the command line for these times; see <see cref="Times.Parse"/>.</summary>
    public DateTime ParseTime(string text, string option) => Times.Parse(text, option, TimesAreUtc);

    public long LowerBound(DateTime time) => (_times ?? throw NoTimes()).LowerBound(time);

    public long UpperBound(DateTime time) => (_times ?? throw NoTimes()).UpperBound(time);

    public void Dispose()
    {
        foreach (ColumnView column in Columns)
        {
            column.Dispose();
        }

        _owned?.Dispose();
        _table?.Dispose();
    }

    private DataException NoTimes() =>
        new($"'{Path}' holds {Columns[0].DataType} items, not times; searches by time need a time series (UnixSeconds or DateTime) or a table.");
}
