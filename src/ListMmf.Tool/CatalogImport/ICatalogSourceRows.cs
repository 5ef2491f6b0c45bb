using System;

namespace ListMmf.Tool.CatalogImport;

/// <summary>The rows of an <see cref="ICatalogSourceFile"/>, read whole and checked, ready to be appended to partitions.</summary>
internal interface ICatalogSourceRows : IDisposable
{
    /// <summary>Each row's time as DateTime ticks of the catalog's clock, in the kind's order.</summary>
    long[] Times { get; }

    /// <summary>
    /// Appends rows <paramref name="from"/> to <paramref name="from"/> + <paramref name="count"/> to
    /// <paramref name="table"/>: every value column, then the times, which publish them.
    /// </summary>
    void AppendTo(TimeSeriesTable table, int from, int count);
}
