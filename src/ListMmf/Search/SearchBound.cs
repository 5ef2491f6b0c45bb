using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>Which bound of a value a search finds in a sorted sequence.</summary>
internal enum SearchBound
{
    /// <summary>The first item not less than the value, as C++'s <c>std::lower_bound</c>.</summary>
    Lower,

    /// <summary>The first item greater than the value, as C++'s <c>std::upper_bound</c>.</summary>
    Upper,
}

/// <summary>The comparison every search makes against its <see cref="SearchBound"/>.</summary>
internal static class SearchBounds
{
    /// <summary>Whether <paramref name="item"/> comes before the bound of <paramref name="value"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool Before<T>(T item, T value, SearchBound bound)
        where T : IComparisonOperators<T, T, bool> => bound == SearchBound.Upper ? item <= value : item < value;
}
