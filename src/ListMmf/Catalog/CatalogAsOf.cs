using System;

namespace ListMmf;

/// <summary>
/// An ASOF join of one instrument's two kinds (<see cref="TimeSeriesCatalog.AsOf"/>): for each recorded row of the
/// left kind in the range, in time order, its time and values, and the last recorded row of the right kind at or
/// before that time, with its time and values.
/// </summary>
public sealed class CatalogAsOf
{
    private readonly DateTime[] _times;
    private readonly DateTime[] _matchedTimes;
    private readonly bool[] _matched;
    private readonly CatalogValues _left;
    private readonly CatalogValues _right;

    internal CatalogAsOf(string instrument, DateTime[] times, DateTime[] matchedTimes, bool[] matched, CatalogValues left, CatalogValues right)
    {
        Instrument = instrument;
        _times = times;
        _matchedTimes = matchedTimes;
        _matched = matched;
        _left = left;
        _right = right;
    }

    /// <summary>The instrument joined.</summary>
    public string Instrument { get; }

    /// <summary>How many left rows the join holds.</summary>
    public int Count => _times.Length;

    /// <summary>Each left row's time, in time order.</summary>
    public ReadOnlySpan<DateTime> Times => _times;

    /// <summary>Whether each left row has a right row at or before its time.</summary>
    public ReadOnlySpan<bool> Matched => _matched;

    /// <summary>The time of each left row's right row; <see cref="DateTime.MinValue"/> where it has none.</summary>
    public ReadOnlySpan<DateTime> MatchedTimes => _matchedTimes;

    /// <summary>Each left row's value of the <paramref name="column"/>th of the left columns asked for.</summary>
    /// <typeparam name="T">The column's type, as <see cref="TimeSeriesTable.Column{T}"/> takes it.</typeparam>
    /// <exception cref="ArgumentOutOfRangeException">Fewer left columns were asked for.</exception>
    /// <exception cref="ListMmfDataTypeException">The column holds another type.</exception>
    public ReadOnlySpan<T> LeftValues<T>(int column)
        where T : unmanaged => _left.Values<T>(column);

    /// <summary>
    /// Each left row's right row's value of the <paramref name="column"/>th of the right columns asked for; the type's
    /// default where it has none (<see cref="Matched"/>).
    /// </summary>
    /// <typeparam name="T">The column's type, as <see cref="TimeSeriesTable.Column{T}"/> takes it.</typeparam>
    /// <exception cref="ArgumentOutOfRangeException">Fewer right columns were asked for.</exception>
    /// <exception cref="ListMmfDataTypeException">The column holds another type.</exception>
    public ReadOnlySpan<T> RightValues<T>(int column)
        where T : unmanaged => _right.Values<T>(column);

    /// <inheritdoc/>
    public override string ToString() => $"CatalogAsOf({Instrument}, {Count:N0} rows)";
}
