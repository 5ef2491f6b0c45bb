namespace ListMmf.Tool.CatalogImport;

/// <summary>A CSV or Parquet file of one series' rows, found in a folder by its <see cref="SourceLayout"/>.</summary>
/// <param name="Path">The file.</param>
/// <param name="Kind">The catalog kind its rows become.</param>
/// <param name="Symbol">The instrument whose rows it holds.</param>
/// <param name="IsParquet">Whether it is Parquet (else CSV, plain or gzip).</param>
/// <param name="Staging">Where it is read.</param>
internal sealed record TableFile(string Path, string Kind, string Symbol, bool IsParquet, ImportStaging Staging) : ICatalogSourceFile
{
    /// <inheritdoc/>
    public ICatalogSourceRows Read(TimeSeriesTableSchema kind) => Staging.Read(this, kind);

    public override string ToString() => $"{Symbol} {Kind} ('{Path}')";
}
