using System;
using System.Numerics;
using ListMmf.Search;
using ListMmf.Sealed;

namespace ListMmf;

/// <summary>The searches of a sorted sealed list: the directory's first items, then one block, read in place where its codec allows.</summary>
public static class SealedListMmfSearch
{
    /// <summary>
    /// The first index whose item is not less than <paramref name="value"/>, in a list sorted ascending; Count where
    /// there is none.
    /// </summary>
    public static long LowerBound<T>(this SealedListMmf<T> list, T value)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        Keys(list).Bound(value, SearchBound.Lower);

    /// <summary>
    /// The first index whose item is greater than <paramref name="value"/>, in a list sorted ascending; Count where
    /// there is none.
    /// </summary>
    public static long UpperBound<T>(this SealedListMmf<T> list, T value)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        Keys(list).Bound(value, SearchBound.Upper);

    /// <summary>As <see cref="LowerBound{T}(SealedListMmf{T}, T)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public static long LowerBound<T>(this SealedListMmf<T> list, T value, long first, long last)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        Keys(list).Bound(value, first, last, SearchBound.Lower);

    /// <summary>As <see cref="UpperBound{T}(SealedListMmf{T}, T)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public static long UpperBound<T>(this SealedListMmf<T> list, T value, long first, long last)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        Keys(list).Bound(value, first, last, SearchBound.Upper);

    /// <summary>The <see cref="LowerBound{T}(SealedListMmf{T}, T)"/> of each of <paramref name="values"/>, into <paramref name="results"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public static void LowerBound<T>(this SealedListMmf<T> list, ReadOnlySpan<T> values, Span<long> results)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        Keys(list).Bounds(values, results, SearchBound.Lower, long.MaxValue);

    /// <summary>The <see cref="UpperBound{T}(SealedListMmf{T}, T)"/> of each of <paramref name="values"/>, into <paramref name="results"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public static void UpperBound<T>(this SealedListMmf<T> list, ReadOnlySpan<T> values, Span<long> results)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        Keys(list).Bounds(values, results, SearchBound.Upper, long.MaxValue);

    /// <summary>The index of the last item at or before <paramref name="value"/>, or -1 where every item is after it.</summary>
    public static long LastAtOrBefore<T>(this SealedListMmf<T> list, T value)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        Keys(list).Bound(value, SearchBound.Upper) - 1;

    /// <summary>
    /// The ASOF join of <paramref name="values"/> to the list: for each value, the index of the last item at or
    /// before it, or -1 where every item is after it, into <paramref name="results"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="values"/>.</exception>
    public static void LastAtOrBefore<T>(this SealedListMmf<T> list, ReadOnlySpan<T> values, Span<long> results)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        SortedQueries.LastAtOrBefore(Keys(list), values, results);

    /// <summary>The indices of the items equal to <paramref name="value"/>; empty where it would be inserted.</summary>
    public static IndexRange EqualRange<T>(this SealedListMmf<T> list, T value)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        SortedQueries.EqualRange(Keys(list), value, 0, list.Count);

    /// <summary>As <see cref="EqualRange{T}(SealedListMmf{T}, T)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public static IndexRange EqualRange<T>(this SealedListMmf<T> list, T value, long first, long last)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        SortedQueries.EqualRange(Keys(list), value, first, last);

    /// <summary>
    /// The index of an item equal to <paramref name="value"/> (the first, if there are several), or the bitwise
    /// complement of the index where it would be inserted, as <see cref="Array.BinarySearch(Array, object)"/> does.
    /// </summary>
    public static long BinarySearch<T>(this SealedListMmf<T> list, T value)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        SortedQueries.BinarySearch(Keys(list), value, 0, list.Count);

    /// <summary>As <see cref="BinarySearch{T}(SealedListMmf{T}, T)"/>, within <c>[first, last)</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not <c>0 &lt;= first &lt;= last &lt;= Count</c>.</exception>
    public static long BinarySearch<T>(this SealedListMmf<T> list, T value, long first, long last)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        SortedQueries.BinarySearch(Keys(list), value, first, last);

    /// <summary>
    /// The indices of the items in <c>[from, to)</c>: from the first not less than <paramref name="from"/> to the
    /// first not less than <paramref name="to"/>.
    /// </summary>
    public static IndexRange FindRange<T>(this SealedListMmf<T> list, T from, T to)
        where T : unmanaged, IComparisonOperators<T, T, bool> =>
        SortedQueries.FindRange(Keys(list), from, to);

    /// <summary>
    /// The first index whose time is at or after <paramref name="time"/>, in a sealed UnixSeconds series
    /// (<see cref="ListMmfTimeSeriesDateTimeSeconds"/> sealed); Count where there is none. The same answer, by the
    /// same conversion, as <see cref="TimeSeriesMmf{TKey}.LowerBound(DateTime)"/> gives before the seal.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file holds Int32 items that are not UnixSeconds times.</exception>
    /// <exception cref="ArgumentException">A Local time where the file's times are not UTC, or an Unspecified one where they are.</exception>
    internal static long LowerBound(this SealedListMmf<int> seconds, DateTime time)
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
    internal static long UpperBound(this SealedListMmf<int> seconds, DateTime time)
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
    internal static long LowerBound(this SealedListMmf<long> ticks, DateTime time)
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
    internal static long UpperBound(this SealedListMmf<long> ticks, DateTime time)
    {
        ArgumentNullException.ThrowIfNull(ticks);
        return TimeBound<long, TicksKey>(ticks, time, SearchBound.Upper);
    }

    /// <summary>The bound of <paramref name="time"/>, by the DateTime layer every form of times shares.</summary>
    private static long TimeBound<TKey, TTimeKey>(SealedListMmf<TKey> list, DateTime time, SearchBound bound)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
        where TTimeKey : ITimeKey<TKey>
    {
        if (list.DataType != TTimeKey.DataType)
        {
            throw new ListMmfDataTypeException(list.Path, $"it holds {DataTypeInfo.Of(list.DataType).Describe()}, not " +
                $"{TTimeKey.DataType} times, so it is not searched by time.");
        }

        return new TimeQueries<TKey, TTimeKey, SealedSortedKeys<TKey>>(new(list), list, list.TimesAreUtc).Bound(time, bound);
    }

    /// <summary>The list as the keys contract the sorted queries are written over; a null list refused.</summary>
    private static SealedSortedKeys<T> Keys<T>(SealedListMmf<T> list)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        ArgumentNullException.ThrowIfNull(list);
        return new SealedSortedKeys<T>(list);
    }
}
