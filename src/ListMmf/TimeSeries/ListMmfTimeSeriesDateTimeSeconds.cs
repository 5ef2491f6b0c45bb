using System;
using System.IO;

namespace ListMmf;

/// <summary>
/// A time series of Int32 Unix seconds (data-type code 13, <see cref="DataType.UnixSeconds"/>), the timestamp
/// files of ListMmf 1.x: 1901-12-13 to 2038-01-19 at one-second resolution, with
/// <see cref="int.MinValue"/> standing for <see cref="DateTime.MinValue"/> as that library stores it.
/// </summary>
/// <example>
/// <code>
/// var mmfTimestamps = new ListMmfTimeSeriesDateTimeSeconds(filePath, TimeSeriesOrder.Ascending);
/// var index = mmfTimestamps.LowerBound(searchTime); // searchTime is a DateTime
/// </code>
/// </example>
public sealed class ListMmfTimeSeriesDateTimeSeconds : TimeSeriesMmf<int>
{
    /// <summary>
    /// Opens the series at <paramref name="path"/>: for writing (creating it if missing) by default, or read-only
    /// with <see cref="FileAccess.Read"/> for reader processes.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file is not a UnixSeconds file.</exception>
    public ListMmfTimeSeriesDateTimeSeconds(
        string path,
        TimeSeriesOrder order,
        FileAccess access = FileAccess.ReadWrite,
        ListMmfOptions? options = null)
        : base(path, order, access, options, DataType.UnixSeconds)
    {
    }

    /// <summary>
    /// Opens the existing series at <paramref name="path"/> for reading. It never creates a file: a missing one is a
    /// <see cref="FileNotFoundException"/>, so a mistyped path is not mistaken for an empty series.
    /// </summary>
    /// <exception cref="FileNotFoundException">The file, or its directory, does not exist.</exception>
    public static ListMmfTimeSeriesDateTimeSeconds OpenRead(
        string path, TimeSeriesOrder order = TimeSeriesOrder.AscendingOrEqual, ListMmfOptions? options = null) =>
        new(path, order, FileAccess.Read, options);

    /// <summary>
    /// The time that <paramref name="unixSeconds"/> stands for: seconds since 1970-01-01 00:00:00, no time zone
    /// applied; <see cref="int.MinValue"/> stands for <see cref="DateTime.MinValue"/>, as in ListMmf 1.x.
    /// </summary>
    public static DateTime ToDateTime(int unixSeconds) => UnixTime.FromSeconds(unixSeconds);

    /// <summary>
    /// The Unix seconds that stand for <paramref name="time"/> exactly: <see cref="int.MinValue"/> for
    /// <see cref="DateTime.MinValue"/>; false for a time with a fraction of a second or outside 1901-12-13 20:45:53 to
    /// 2038-01-19 03:14:07, which a seconds series cannot hold.
    /// </summary>
    public static bool TryGetUnixSeconds(DateTime time, out int unixSeconds) => UnixSecondsKey.TryExact(time, out unixSeconds);
}
