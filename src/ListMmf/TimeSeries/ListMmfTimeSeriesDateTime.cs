using System;
using System.IO;

namespace ListMmf;

/// <summary>
/// A time series of <see cref="DateTime"/> ticks stored as Int64 (data-type code 12, <see cref="DataType.DateTime"/>):
/// 100-nanosecond resolution over DateTime's whole range, with no year-2038 limit.
/// </summary>
public sealed class ListMmfTimeSeriesDateTime : TimeSeriesMmf<long>
{
    /// <summary>
    /// Opens the series at <paramref name="path"/>: for writing (creating it if missing) by default, or read-only
    /// with <see cref="FileAccess.Read"/> for reader processes.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file is not a DateTime-ticks file.</exception>
    public ListMmfTimeSeriesDateTime(string path, TimeSeriesOrder order, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
        : base(path, order, access, options, DataType.DateTime)
    {
    }

    /// <summary>
    /// Opens the existing series at <paramref name="path"/> for reading. It never creates a file: a missing one is a
    /// <see cref="FileNotFoundException"/>, so a mistyped path is not mistaken for an empty series.
    /// </summary>
    /// <exception cref="FileNotFoundException">The file, or its directory, does not exist.</exception>
    public static ListMmfTimeSeriesDateTime OpenRead(
        string path, TimeSeriesOrder order = TimeSeriesOrder.AscendingOrEqual, ListMmfOptions? options = null) =>
        new(path, order, FileAccess.Read, options);
}
