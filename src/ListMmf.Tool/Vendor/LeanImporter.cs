using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Tool.CatalogImport;

namespace ListMmf.Tool.Vendor;

/// <summary>What <c>catalog import</c> is asked to do: see <c>listmmf catalog import --help</c>.</summary>
/// <param name="Source">The folder of Lean files (searched with its subfolders).</param>
/// <param name="Catalog">The catalog's folder: created, or appended to when it holds a catalog.</param>
/// <param name="Zone">The exchange's time zone, which Lean's times count in; the catalog holds them in UTC.</param>
/// <param name="Period">A new catalog's period (a day when null); an existing catalog must have it when given.</param>
internal sealed record LeanImportRequest(string Source, string Catalog, TimeZoneInfo Zone, CatalogPeriod? Period);

/// <summary>
/// Imports a folder of Lean's per-day files into a <see cref="TimeSeriesCatalog"/> through <see cref="CatalogImporter"/>:
/// each symbol and kind a series, its days in order, each day's times turned from the exchange's clock into UTC.
/// </summary>
internal static class LeanImporter
{
    public static CatalogImportResult Run(LeanImportRequest request, Action<long, long>? progress = null)
    {
        IReadOnlyList<LeanFile> files = LeanFile.Find(request.Source);
        ThrowIfTwice(files);
        using TimeSeriesCatalog catalog = OpenOrCreate(request, files.Select(file => file.Kind).Distinct().ToArray());
        ICatalogSourceFile[] days = files.OrderBy(file => file.Day).Select(file => new LeanSource(file, request.Zone)).ToArray();
        return CatalogImporter.Run(catalog, days, progress);
    }

    /// <summary>The catalog in the request's folder, checked to have each kind the files need; or a new one of every Lean kind.</summary>
    private static TimeSeriesCatalog OpenOrCreate(LeanImportRequest request, LeanKind[] needed)
    {
        if (!File.Exists(Path.Combine(request.Catalog, TimeSeriesCatalog.ManifestFileName)))
        {
            if (Directory.Exists(request.Catalog) && Directory.EnumerateFileSystemEntries(request.Catalog).Any())
            {
                throw new DataException($"'{request.Catalog}' holds files and no catalog; import into a catalog, or a new or empty folder.");
            }

            var schema = new TimeSeriesCatalogSchema(request.Period ?? CatalogPeriod.Day);
            foreach (LeanKind kind in LeanKind.All)
            {
                schema.Add(kind.Name, kind.Schema());
            }

            return TimeSeriesCatalog.Create(request.Catalog, schema);
        }

        TimeSeriesCatalog catalog = TimeSeriesCatalog.Open(request.Catalog);
        foreach (LeanKind kind in needed)
        {
            string? problem = request.Period is { } period && catalog.Schema.Period != period
                ? $"its period is {catalog.Schema.Period}, not {period}"
                : !catalog.Schema.Kinds.Contains(kind.Name)
                ? $"it has no kind '{kind.Name}' (its kinds are {string.Join(", ", catalog.Schema.Kinds)})"
                : kind.ProblemWith(catalog.Schema.SchemaOf(kind.Name));
            if (problem is not null)
            {
                catalog.Dispose();
                throw new DataException($"'{request.Catalog}' cannot take the folder's Lean files: {problem}. Nothing was imported.");
            }
        }

        return catalog;
    }

    /// <summary>Two files of one day of a series (a zip and its CSV, or two trees) would add the day twice.</summary>
    private static void ThrowIfTwice(IReadOnlyList<LeanFile> files)
    {
        foreach (var day in files.GroupBy(file => (file.Kind, file.Symbol, file.Day)).Where(group => group.Count() > 1))
        {
            LeanFile[] twice = day.ToArray();
            throw new DataException($"'{twice[0].Path}' and '{twice[1].Path}' both hold {day.Key.Symbol}'s {day.Key.Kind.Name} " +
                $"of {day.Key.Day:yyyy-MM-dd}; leave one of them in the folder. Nothing was imported.");
        }
    }

    /// <summary>A Lean day as the import reads it: its rows, times in UTC.</summary>
    private sealed record LeanSource(LeanFile File, TimeZoneInfo Zone) : ICatalogSourceFile
    {
        public string Path => File.Path;

        public string Kind => File.Kind.Name;

        public string Symbol => File.Symbol;

        public ICatalogSourceRows Read(TimeSeriesTableSchema kind)
        {
            LeanDay day = LeanDay.Read(File);
            day.TimesToUtc(Zone);
            return day;
        }
    }
}
