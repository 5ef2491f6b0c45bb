using System;
using System.IO;
using ListMmf.Sealed;

namespace ListMmf;

/// <summary>Opens a time file for reading in the form it is in: an appendable series, or the same series sealed.</summary>
public static class TimeSeriesFile
{
    /// <summary>
    /// The time file at <paramref name="path"/> (Unix seconds or DateTime ticks), read-only, appendable or sealed
    /// (<see cref="SealedListMmf.Seal"/>), with the same answers in either form. Its searches trust the order of its
    /// times; <see cref="IReadOnlyTimeSeries.Verify"/> checks the order the file records, else <paramref name="order"/>.
    /// Of <paramref name="options"/>, those of a reader apply (<see cref="ListMmfOptions.TimesAreUtc"/> for a file that
    /// records no zone, <see cref="ListMmfOptions.Backend"/>, <see cref="ListMmfOptions.PopulateOnOpen"/>).
    /// </summary>
    /// <returns>The series; dispose it to close the file.</returns>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    /// <exception cref="ListMmfDataTypeException">The file holds items that are not times.</exception>
    /// <exception cref="ListMmfFormatException">It is not a ListMmf file, or it is damaged.</exception>
    public static IReadOnlyTimeSeries OpenRead(string path, TimeSeriesOrder order = TimeSeriesOrder.AscendingOrEqual, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        string fullPath = Path.GetFullPath(path);
        DataType dataType = ListMmfFileInfo.Read(fullPath).DataType;
        Func<bool> isSealed = () => SealedListMmf.IsSealed(fullPath);
        return dataType switch
        {
            DataType.UnixSeconds => EitherForm.Open<IReadOnlyTimeSeries>(
                isSealed,
                () => ListMmfTimeSeriesDateTimeSeconds.OpenRead(fullPath, order, options),
                () => new SealedTimeSeries<int, UnixSecondsKey>(new SealedListMmf<int>(fullPath, options), order)),
            DataType.DateTime => EitherForm.Open<IReadOnlyTimeSeries>(
                isSealed,
                () => ListMmfTimeSeriesDateTime.OpenRead(fullPath, order, options),
                () => new SealedTimeSeries<long, TicksKey>(new SealedListMmf<long>(fullPath, options), order)),
            _ => throw new ListMmfDataTypeException(fullPath, $"it holds {DataTypeInfo.Of(dataType).Describe()}, not times " +
                "(UnixSeconds or DateTime), so it is not a time series."),
        };
    }
}
