namespace ListMmf;

/// <summary>
/// The order a sorted list keeps; appends that would break it are refused. Numbered as ListMmf 1.x
/// numbers it (None 0, Ascending 1, AscendingOrEqual 2), so that a stored value means the same order in both.
/// </summary>
public enum TimeSeriesOrder
{
    /// <summary>
    /// No order is enforced: appends are not checked and <c>Verify</c> checks the file but not the order. The
    /// searches still assume the items are sorted: use them only when the caller guarantees it.
    /// </summary>
    None = 0,

    /// <summary>Strictly increasing: every item is greater than the one before it.</summary>
    Ascending = 1,

    /// <summary>Increasing or equal: duplicates are allowed, as in tick data with many ticks per second.</summary>
    AscendingOrEqual = 2,
}
