namespace ListMmf;

/// <summary>The order a sorted list keeps; appends that would break it are refused.</summary>
public enum TimeSeriesOrder
{
    /// <summary>Strictly increasing: every item is greater than the one before it.</summary>
    Ascending = 0,

    /// <summary>Increasing or equal: duplicates are allowed, as in tick data with many ticks per second.</summary>
    AscendingOrEqual = 1,
}
