using System;
using System.IO;

namespace ListMmf.Search;

/// <summary>
/// The order rule every sorted list keeps (<see cref="SortedListMmf{T}"/>, <see cref="KeyedListMmf{TRow, TKey, TSelector}"/>,
/// and the time series through their keys): a new file records the order it was created in; appends keep the
/// stricter of the order asked for and the recorded one, so that a file opened later with a weaker order (or
/// <see cref="TimeSeriesOrder.None"/>) never takes an item its recorded order forbids; <c>Verify</c> checks the
/// recorded order, else the one asked for.
/// </summary>
internal readonly struct SortedOrder
{
    private SortedOrder(TimeSeriesOrder asked, TimeSeriesOrder? recorded)
    {
        Asked = asked;
        Recorded = recorded;
        Verified = recorded ?? asked;
        Append = Strictness(Verified) > Strictness(asked) ? Verified : asked;
    }

    /// <summary>The order the list was opened with.</summary>
    public TimeSeriesOrder Asked { get; }

    /// <summary>The order the file records, or null for a file that records none (written by ListMmf 1.x).</summary>
    public TimeSeriesOrder? Recorded { get; }

    /// <summary>The order <c>Verify</c> checks: the recorded one, else the one asked for.</summary>
    public TimeSeriesOrder Verified { get; }

    /// <summary>The order appends keep: the stricter of the one asked for and the recorded one.</summary>
    public TimeSeriesOrder Append { get; }

    /// <summary>The rule for a file that records no order, read in <paramref name="asked"/> order (a table's column).</summary>
    public static SortedOrder Unrecorded(TimeSeriesOrder asked) => new(asked, null);

    /// <summary>The rule for a file that records <paramref name="recorded"/> (or none), read in <paramref name="asked"/> order.</summary>
    public static SortedOrder Of(TimeSeriesOrder asked, TimeSeriesOrder? recorded) => new(asked, recorded);

    /// <summary>The rule for a list opened in <paramref name="asked"/> order over <paramref name="list"/>'s file.</summary>
    public static SortedOrder Of<T>(ListMmf<T> list, TimeSeriesOrder asked)
        where T : unmanaged => new(asked, list.Description?.Order);

    /// <summary>
    /// Opens the file of a sorted list of <typeparamref name="T"/>: a new one records <paramref name="order"/> and
    /// whether its times are UTC in its description (<see cref="ListMmfDescription"/>), which later opens read.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="order"/> is not a defined order; no file was touched.</exception>
    public static ListMmf<T> Open<T>(
        string path,
        TimeSeriesOrder order,
        FileAccess access,
        ListMmfOptions? options,
        DataType dataType,
        bool requireDataType)
        where T : unmanaged
    {
        // Before the file is created: a new file records the order.
        if (!Enum.IsDefined(order))
        {
            throw new ArgumentOutOfRangeException(nameof(order), order, "Unknown order.");
        }

        options ??= ListMmfOptions.Default;
        ListMmfDescription? description = options.Described ? ListMmfDescription.ForSorted<T>(order, options.TimesAreUtc) : null;
        return new ListMmf<T>(path, access, options, dataType, requireDataType, description);
    }

    /// <summary>
    /// The refusal of a stored item at <paramref name="index"/> (shown as <paramref name="item"/>) that does not
    /// follow the one before it (<paramref name="previous"/>) in <see cref="Verified"/> order.
    /// </summary>
    public ListMmfOrderException Corrupt(string path, string what, long index, string item, string previous) => new(
        path,
        $"the stored {what} at index {index:N0} ({item}) does not follow the one before it ({previous}) in {Verified} " +
            $"order; the file is corrupt" + (Recorded is null ? ", or was written in a weaker order (a file that records none)." : "."),
        index);

    private static int Strictness(TimeSeriesOrder order) => order switch
    {
        TimeSeriesOrder.Ascending => 2,
        TimeSeriesOrder.AscendingOrEqual => 1,
        _ => 0,
    };
}
