using System;

namespace ListMmf.Sealed;

/// <summary>
/// How a block's integers pack: frame of reference, or deltas where the values do not ascend and the deltas pack
/// narrower; a block whose values ascend keeps frame of reference, so that a search reads any value in place.
/// </summary>
/// <param name="Width">The bits of each packed offset.</param>
/// <param name="Deltas">Whether the offsets are of the deltas.</param>
/// <param name="Base">What every offset is added to: the smallest value, or the smallest delta.</param>
internal readonly record struct PackPlan(int Width, bool Deltas, long Base)
{
    /// <summary>The plan for <paramref name="values"/>, read as signed or unsigned integers.</summary>
    public static PackPlan Of(ReadOnlySpan<long> values, bool signed) => Of(BlockStatistics.Of(values, signed), values.Length);

    /// <summary>The plan for <paramref name="count"/> values of <paramref name="statistics"/>.</summary>
    public static PackPlan Of(BlockStatistics statistics, int count)
    {
        int width = BitPacking.WidthOf((ulong)(statistics.Max - statistics.Min));
        int deltaWidth = count == 1 ? 0 : BitPacking.WidthOf((ulong)(statistics.MaxDelta - statistics.MinDelta));
        return !statistics.Ascending && deltaWidth < width
            ? new PackPlan(deltaWidth, Deltas: true, statistics.MinDelta)
            : new PackPlan(width, Deltas: false, statistics.Min);
    }
}
