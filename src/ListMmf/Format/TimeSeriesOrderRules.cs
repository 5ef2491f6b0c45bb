using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf;

/// <summary>What a <see cref="TimeSeriesOrder"/> allows: the one rule every sorted list, table and import applies.</summary>
internal static class TimeSeriesOrderRules
{
    /// <summary>
    /// Whether <paramref name="next"/> may follow <paramref name="previous"/>. Written with the comparison
    /// operators, so that an unordered value such as NaN fails both orders.
    /// </summary>
    /// <param name="order">The order kept.</param>
    /// <param name="previous">The last item.</param>
    /// <param name="next">The item that would follow it.</param>
    /// <typeparam name="T">The key type.</typeparam>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool Allows<T>(this TimeSeriesOrder order, T previous, T next)
        where T : IComparisonOperators<T, T, bool> => order switch
        {
            TimeSeriesOrder.Ascending => previous < next,
            TimeSeriesOrder.AscendingOrEqual => previous <= next,
            _ => true,
        };
}
