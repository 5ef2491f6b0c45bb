namespace ListMmf;

/// <summary>
/// The span of time each partition of a <see cref="TimeSeriesCatalog"/> holds of one instrument's rows, chosen when
/// the catalog is created: a partition is an ordinary <see cref="TimeSeriesTable"/> in a folder named after its period.
/// </summary>
public enum CatalogPeriod
{
    /// <summary>One partition a calendar day (folders named <c>yyyy-MM-dd</c>).</summary>
    Day,

    /// <summary>One partition a calendar month (folders named <c>yyyy-MM</c>).</summary>
    Month,

    /// <summary>One partition a calendar year (folders named <c>yyyy</c>).</summary>
    Year,
}
