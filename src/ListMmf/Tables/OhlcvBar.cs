using System;

namespace ListMmf;

/// <summary>
/// One bar of <see cref="TimeSeriesTable.Bars"/>: the rows whose times fall in
/// <c>[<see cref="Start"/>, Start + interval)</c>, summarised as open, high, low, close and volume.
/// </summary>
/// <param name="Start">
/// The bar's first instant, a multiple of the interval counted from <see cref="DateTime.MinValue"/> (so minutes, hours
/// and days begin at midnight, and weeks on Mondays); its kind is the table's.
/// </param>
/// <param name="Rows">The rows the bar summarises: at least one, consecutive.</param>
/// <param name="Open">The price of the bar's first row.</param>
/// <param name="High">The greatest price; NaN prices are passed over, so it is NaN only when every price is.</param>
/// <param name="Low">The least price; NaN prices are passed over, so it is NaN only when every price is.</param>
/// <param name="Close">The price of the bar's last row.</param>
/// <param name="Volume">The sum of the volumes (exact for integer volumes while the sum stays below 2^53).</param>
/// <param name="Turnover">The sum of price times volume over the rows.</param>
public readonly record struct OhlcvBar(
    DateTime Start, IndexRange Rows, double Open, double High, double Low, double Close, double Volume, double Turnover)
{
    /// <summary>The number of rows in the bar.</summary>
    public long Count => Rows.Length;

    /// <summary>The volume-weighted average price: <see cref="Turnover"/> / <see cref="Volume"/> (NaN when the volume is 0).</summary>
    public double Vwap => Volume == 0 ? double.NaN : Turnover / Volume;

    /// <summary>This bar followed by <paramref name="next"/>, its rows' continuation in the same bar.</summary>
    internal OhlcvBar Then(OhlcvBar next) =>
        new(Start, new IndexRange(Rows.Start, next.Rows.End), Open, double.MaxNumber(High, next.High), double.MinNumber(Low, next.Low),
            next.Close, Volume + next.Volume, Turnover + next.Turnover);
}
