using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf;

/// <summary>What a <see cref="TimeSeriesOrder"/> allows, for every sorted list type.</summary>
internal static class TimeSeriesOrderRules
{
    /// <summary>
    /// Whether <paramref name="next"/> may follow <paramref name="previous"/>. Written with the comparison
    /// operators, so that an unordered value such as NaN fails both orders.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool Allows<T>(this TimeSeriesOrder order, T previous, T next)
        where T : IComparisonOperators<T, T, bool> => order switch
        {
            TimeSeriesOrder.Ascending => previous < next,
            TimeSeriesOrder.AscendingOrEqual => previous <= next,
            _ => true,
        };
}
