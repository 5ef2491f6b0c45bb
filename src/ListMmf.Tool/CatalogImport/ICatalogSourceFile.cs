namespace ListMmf.Tool.CatalogImport;

/// <summary>
/// A file of one series' rows that <see cref="CatalogImporter"/> adds to a catalog: a vendor's day, or a table file
/// (CSV or Parquet) found by a layout.
/// </summary>
internal interface ICatalogSourceFile
{
    /// <summary>The file, named in every message.</summary>
    string Path { get; }

    /// <summary>The catalog kind its rows become.</summary>
    string Kind { get; }

    /// <summary>The instrument whose rows it holds.</summary>
    string Symbol { get; }

    /// <summary>
    /// Reads and checks every row, its times turned into the catalog's clock (UTC where the kind's times are).
    /// </summary>
    /// <param name="kind">The catalog's schema of <see cref="Kind"/>, which the rows must fit.</param>
    /// <exception cref="DataException">The file is damaged, a row is refused, or the rows do not fit the kind (the file named).</exception>
    ICatalogSourceRows Read(TimeSeriesTableSchema kind);
}
