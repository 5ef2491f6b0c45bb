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
}
