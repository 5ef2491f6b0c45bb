using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace ListMmf.Tool.CatalogImport;

/// <summary>What <c>catalog import --layout</c> is asked to do: see <c>listmmf catalog import --help</c>.</summary>
/// <param name="Source">The folder of files (searched with its subfolders).</param>
/// <param name="Catalog">The catalog's folder: created, or appended to when it holds a catalog.</param>
/// <param name="Layout">Where each file's instrument and kind are named.</param>
/// <param name="Kind">The kind of files whose path names none; null for the catalog's only kind.</param>
/// <param name="Csv">How CSV files are read; null when there are none.</param>
/// <param name="ParquetTime">Parquet files' time column; null for the one their metadata names, or their only timestamp.</param>
/// <param name="Zone">The clock of times written without a zone, turned into UTC; null to keep them without one.</param>
/// <param name="Period">A new catalog's period (a day when null); an existing catalog must have it when given.</param>
/// <param name="TicksTime">For a new kind: a ticks time column (true), seconds (false), or as the first file says (null).</param>
/// <param name="Order">For a new kind: the order its times keep; null for the files' (CSV: equal times allowed).</param>
/// <param name="Sort">Whether each file's rows are sorted by time before they are added (else a file out of order is refused).</param>
/// <param name="Ranks">A new catalog's kinds in the rank a replay orders rows of equal time by; null for name order.</param>
internal sealed record TableFolderImportRequest(
    string Source,
    string Catalog,
    SourceLayout Layout,
    string? Kind,
    CsvColumns? Csv,
    string? ParquetTime,
    TimeZoneInfo? Zone,
    CatalogPeriod? Period,
    bool? TicksTime,
    TimeSeriesOrder? Order,
    bool Sort = false,
    string[]? Ranks = null);

/// <summary>
/// Imports a folder of CSV and Parquet files, one instrument's rows each, into a <see cref="TimeSeriesCatalog"/>
/// through <see cref="CatalogImporter"/>: a file's rows checked as <c>listmmf import</c> checks them
/// (<see cref="ImportStaging"/>), each kind and instrument a series, its files in the order of their paths. A new
/// catalog's kinds take their columns from each kind's first file with rows.
/// </summary>
internal static class TableFolderImporter
{
    public static CatalogImportResult Run(TableFolderImportRequest request, Action<long, long>? progress = null)
    {
        using var staging = new ImportStaging(request.Csv, request.ParquetTime, request.Zone, request.TicksTime, request.Order, request.Sort);
        bool exists = File.Exists(Path.Combine(request.Catalog, TimeSeriesCatalog.ManifestFileName));
        string? onlyKind = request.Kind;
        if (onlyKind is null && exists)
        {
            using var existing = TimeSeriesCatalog.Open(request.Catalog, FileAccess.Read);
            onlyKind = existing.Schema.Kinds.Count == 1 ? existing.Schema.Kinds[0] : null;
        }

        IReadOnlyList<TableFile> files = request.Layout.Find(request.Source, onlyKind, staging);
        using TimeSeriesCatalog catalog = exists ? Open(request, files) : Create(request, files);
        return CatalogImporter.Run(catalog, files, progress);
    }

    /// <summary>The catalog, checked to have the period asked for and every kind the files name.</summary>
    private static TimeSeriesCatalog Open(TableFolderImportRequest request, IReadOnlyList<TableFile> files)
    {
        TimeSeriesCatalog catalog = TimeSeriesCatalog.Open(request.Catalog);
        if (request.Ranks is { } ranks && !ranks.SequenceEqual(catalog.Schema.Kinds))
        {
            string kinds = string.Join(",", catalog.Schema.Kinds);
            catalog.Dispose();
            throw new DataException($"'{request.Catalog}' ranks its kinds {kinds}, not {string.Join(",", ranks)}; a catalog's " +
                "kinds are ranked when it is created. Nothing was imported.");
        }

        string? missing = files.Select(file => file.Kind).FirstOrDefault(kind => !catalog.Schema.Kinds.Contains(kind));
        string? problem = request.Period is { } period && catalog.Schema.Period != period ? $"its period is {catalog.Schema.Period}, not {period}"
            : missing is not null ? $"it has no kind '{missing}' (its kinds are {string.Join(", ", catalog.Schema.Kinds)})"
            : null;
        if (problem is null)
        {
            return catalog;
        }

        catalog.Dispose();
        throw new DataException($"'{request.Catalog}' cannot take the folder's files: {problem}. Nothing was imported.");
    }

    /// <summary>
    /// A new catalog with a kind for each the files name, ranked as the request says or in name order, as its first
    /// file with rows makes it.
    /// </summary>
    private static TimeSeriesCatalog Create(TableFolderImportRequest request, IReadOnlyList<TableFile> files)
    {
        if (Directory.Exists(request.Catalog) && Directory.EnumerateFileSystemEntries(request.Catalog).Any())
        {
            throw new DataException($"'{request.Catalog}' holds files and no catalog; import into a catalog, or a new or empty folder.");
        }

        var schema = new TimeSeriesCatalogSchema(request.Period ?? CatalogPeriod.Day);
        IGrouping<string, TableFile>[] kinds = files.GroupBy(file => file.Kind).OrderBy(group => group.Key, StringComparer.Ordinal).ToArray();
        if (request.Ranks is { } ranks)
        {
            string? unranked = kinds.Select(kind => kind.Key).FirstOrDefault(kind => !ranks.Contains(kind));
            string? absent = ranks.FirstOrDefault(rank => kinds.All(kind => kind.Key != rank));
            if (unranked is not null || absent is not null || ranks.Distinct().Count() != ranks.Length)
            {
                throw new UsageException($"--kinds {string.Join(',', ranks)}: name each kind the folder's files hold once " +
                    $"({string.Join(", ", kinds.Select(kind => kind.Key))}).");
            }

            kinds = [.. kinds.OrderBy(kind => Array.IndexOf(ranks, kind.Key))];
        }

        foreach (IGrouping<string, TableFile> kind in kinds)
        {
            TimeSeriesTableSchema? first = null;
            foreach (TableFile file in kind)
            {
                using StagedRows rows = file.Staging.Read(file, kind: null);
                if ((first = rows.Schema) is not null)
                {
                    break;
                }
            }

            try
            {
                schema.Add(kind.Key, first ?? throw new DataException($"No file of the kind '{kind.Key}' holds a row, so its columns are " +
                    "unknown; import files with rows first. Nothing was imported."));
            }
            catch (ArgumentException exception)
            {
                throw new DataException($"'{kind.First().Path}': '{kind.Key}' cannot be a kind: {exception.Message} Nothing was imported.",
                    exception);
            }
        }

        return TimeSeriesCatalog.Create(request.Catalog, schema);
    }
}
