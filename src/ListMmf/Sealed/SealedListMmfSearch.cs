using System;
using System.Numerics;
using ListMmf.Search;

namespace ListMmf;

/// <summary>The searches of a sorted sealed list: the directory's first items, then one block, read in place where its codec allows.</summary>
public static class SealedListMmfSearch
{
    /// <summary>
    /// The first index whose item is not less than <paramref name="value"/>, in a list sorted ascending; Count where
    /// there is none.
    /// </summary>
    public static long LowerBound<T>(this SealedListMmf<T> list, T value)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        ArgumentNullException.ThrowIfNull(list);
        return list.Bound(value, SearchBound.Lower);
    }

    /// <summary>
    /// The first index whose item is greater than <paramref name="value"/>, in a list sorted ascending; Count where
    /// there is none.
    /// </summary>
    public static long UpperBound<T>(this SealedListMmf<T> list, T value)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        ArgumentNullException.ThrowIfNull(list);
        return list.Bound(value, SearchBound.Upper);
    }

    /// <summary>
    /// The first index whose time is at or after <paramref name="time"/>, in a sealed UnixSeconds series
    /// (<see cref="ListMmfTimeSeriesDateTimeSeconds"/> sealed); Count where there is none. The same answer, by the
    /// same conversion, as <see cref="TimeSeriesMmf{TKey}.LowerBound(DateTime)"/> gives before the seal.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file holds Int32 items that are not UnixSeconds times.</exception>
    /// <exception cref="ArgumentException">A Local time where the file's times are not UTC, or an Unspecified one where they are.</exception>
    public static long LowerBound(this SealedListMmf<int> seconds, DateTime time)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        return TimeBound<int, UnixSecondsKey>(seconds, time, SearchBound.Lower);
    }

    /// <summary>
    /// The first index whose time is after <paramref name="time"/>, in a sealed UnixSeconds series; Count where there
    /// is none.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file holds Int32 items that are not UnixSeconds times.</exception>
    /// <exception cref="ArgumentException">A Local time where the file's times are not UTC, or an Unspecified one where they are.</exception>
    public static long UpperBound(this SealedListMmf<int> seconds, DateTime time)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        return TimeBound<int, UnixSecondsKey>(seconds, time, SearchBound.Upper);
    }

    /// <summary>
    /// The first index whose time is at or after <paramref name="time"/>, in a sealed series of DateTime ticks
    /// (<see cref="ListMmfTimeSeriesDateTime"/> sealed); Count where there is none.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file holds Int64 items that are not DateTime ticks.</exception>
    /// <exception cref="ArgumentException">A Local time where the file's times are not UTC, or an Unspecified one where they are.</exception>
    public static long LowerBound(this SealedListMmf<long> ticks, DateTime time)
    {
        ArgumentNullException.ThrowIfNull(ticks);
        return TimeBound<long, TicksKey>(ticks, time, SearchBound.Lower);
    }

    /// <summary>
    /// The first index whose time is after <paramref name="time"/>, in a sealed series of DateTime ticks; Count where
    /// there is none.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file holds Int64 items that are not DateTime ticks.</exception>
    /// <exception cref="ArgumentException">A Local time where the file's times are not UTC, or an Unspecified one where they are.</exception>
    public static long UpperBound(this SealedListMmf<long> ticks, DateTime time)
    {
        ArgumentNullException.ThrowIfNull(ticks);
        return TimeBound<long, TicksKey>(ticks, time, SearchBound.Upper);
    }

    /// <summary>The bound of <paramref name="time"/>, converted to a key as the appendable series convert it.</summary>
    internal static long TimeBound<TKey, TTimeKey>(SealedListMmf<TKey> list, DateTime time, SearchBound bound)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
        where TTimeKey : ITimeKey<TKey>
    {
        if (list.DataType != TTimeKey.DataType)
        {
            throw new ListMmfDataTypeException(list.Path, $"it holds {DataTypeInfo.Of(list.DataType).Describe()}, not " +
                $"{TTimeKey.DataType} times, so it is not searched by time.");
        }

        DateTime stored = StoredTimes.Of(time, list.TimesAreUtc, list.Path);
        bool exists = bound == SearchBound.Lower ? TTimeKey.TryAtOrAfter(stored, out TKey key) : TTimeKey.TryAfter(stored, out key);
        return exists ? list.Bound(key, SearchBound.Lower) : list.Count;
    }
}
