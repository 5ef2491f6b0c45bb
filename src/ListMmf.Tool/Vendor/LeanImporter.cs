using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

namespace ListMmf.Tool.Vendor;

/// <summary>What <c>catalog import</c> is asked to do: see <c>listmmf catalog import --help</c>.</summary>
/// <param name="Source">The folder of Lean files (searched with its subfolders).</param>
/// <param name="Catalog">The catalog's folder: created, or appended to when it holds a catalog.</param>
/// <param name="Zone">The exchange's time zone, which Lean's times count in; the catalog holds them in UTC.</param>
/// <param name="Period">A new catalog's period (a day when null); an existing catalog must have it when given.</param>
internal sealed record LeanImportRequest(string Source, string Catalog, TimeZoneInfo Zone, CatalogPeriod? Period);

/// <summary>What an import did.</summary>
/// <param name="Files">The Lean files found.</param>
/// <param name="Skipped">Files whose rows the catalog held already (a rerun), so that none was added.</param>
/// <param name="Rows">The rows added.</param>
internal sealed record LeanImportResult(int Files, int Skipped, long Rows);

/// <summary>
/// Imports a folder of Lean's per-day files into a <see cref="TimeSeriesCatalog"/>: each symbol and kind a series,
/// its days in order, the series on every core. A file is read and checked whole before any of its rows is added,
/// its times turned into UTC and its rows added to the partition of each period they fall in (a day in New York
/// reaches into the next UTC day). The catalog's one writer is shared under a lock; each series appends to its own
/// tables outside it. Symbols new to the catalog are added in name order first, so that their ordinals, and with
/// them the replay's order of equal times, are the same whatever the threads do.
/// <para>
/// An import can be run again over the same folder, or one holding more days: a series' rows the catalog holds
/// already are found by its last time and the rows at that time, and skipped, so a rerun adds only what is missing,
/// a killed import included (its last file's rows added up to where it stopped). A bad file stops the import, named
/// with its line; the files before it stay imported and recorded.
/// </para>
/// </summary>
internal static class LeanImporter
{
    public static LeanImportResult Run(LeanImportRequest request, Action<long, long>? progress = null)
    {
        IReadOnlyList<LeanFile> files = LeanFile.Find(request.Source);
        LeanFile[][] series = files
            .GroupBy(file => (file.Kind, file.Symbol))
            .OrderBy(group => group.Key.Kind.Name, StringComparer.Ordinal).ThenBy(group => group.Key.Symbol, StringComparer.Ordinal)
            .Select(group => group.OrderBy(file => file.Day).ToArray())
            .ToArray();
        ThrowIfTwice(series);
        using TimeSeriesCatalog catalog = OpenOrCreate(request, files.Select(file => file.Kind).Distinct().ToArray());
        // Symbols new to the catalog get their ordinals in name order, whichever series a thread reaches first.
        catalog.AddInstruments(files.Select(file => file.Symbol).Distinct().Order(StringComparer.Ordinal));
        var import = new Progress(catalog, files.Count, progress);
        ExceptionDispatchInfo? failure = null;
        try
        {
            Parallel.ForEach(series, new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount },
                days =>
                {
                    try
                    {
                        ImportSeries(import, days, request.Zone);
                    }
                    catch
                    {
                        import.Stop();
                        throw;
                    }
                });
        }
        catch (AggregateException failed)
        {
            // The first failure met, with its own type; the other series stopped at their next file.
            failure = ExceptionDispatchInfo.Capture(failed.InnerExceptions[0]);
        }

        // What was added is recorded, a failure's files before it included; a failure to record does not hide the first.
        try
        {
            lock (catalog)
            {
                catalog.Flush();
            }
        }
        catch (Exception) when (failure is not null)
        {
        }

        failure?.Throw();
        return new LeanImportResult(files.Count, import.Skipped, import.Rows);
    }

    /// <summary>Adds one series' days, in order, then records and closes its partition.</summary>
    private static void ImportSeries(Progress import, LeanFile[] days, TimeZoneInfo zone)
    {
        TimeSeriesCatalog catalog = import.Catalog;
        (string kind, string symbol) = (days[0].Kind.Name, days[0].Symbol);
        (long tail, long tailRows) = TailOf(catalog, kind, symbol);
        foreach (LeanFile file in days)
        {
            if (import.Stopped)
            {
                return;
            }

            LeanDay day = LeanDay.Read(file);
            day.TimesToUtc(zone);
            long[] times = day.Times;
            int from = RowsHeld(catalog, day, tail, tailRows);
            if (from == day.Rows)
            {
                import.Done(skipped: day.Rows > 0, 0);
                continue;
            }

            for (int start = from; start < day.Rows;)
            {
                CatalogPeriod period = catalog.Schema.Period;
                long end = CatalogPeriods.EndOf(CatalogPeriods.StartOf(times[start], period), period);
                int stop = start + 1;
                while (stop < day.Rows && times[stop] < end)
                {
                    stop++;
                }

                TimeSeriesTable table;
                lock (catalog)
                {
                    table = catalog.Partition(kind, symbol, new DateTime(times[start], DateTimeKind.Utc));
                }

                day.AppendTo(table, start, stop - start);
                start = stop;
            }

            tail = times[^1];
            tailRows = times.AsSpan().Length - times.AsSpan().LastIndexOfAnyExcept(tail) - 1;
            import.Done(skipped: false, day.Rows - from);
        }

        lock (catalog)
        {
            catalog.CloseSeries(kind, symbol);
        }
    }

    /// <summary>
    /// How many of <paramref name="day"/>'s first rows the catalog holds already, the series ending at
    /// <paramref name="tail"/> with <paramref name="tailRows"/> rows at that time (0 for an empty series): all of a day
    /// before the tail (checked to be there: a day added to the folder later cannot go before the series' end), none
    /// of a day after it, and of the day that holds it, the rows up to the tail's last.
    /// </summary>
    private static int RowsHeld(TimeSeriesCatalog catalog, LeanDay day, long tail, long tailRows)
    {
        long[] times = day.Times;
        if (tailRows == 0 || day.Rows == 0 || times[0] > tail)
        {
            return 0;
        }

        if (times[^1] < tail)
        {
            long held = RecordedRows(catalog, day.File, times[0], times[^1] + 1);
            return held == day.Rows
                ? day.Rows
                : throw new DataException($"'{day.File.Path}' holds {day.Rows:N0} rows of {day.File.Symbol}'s {day.File.Kind.Name} " +
                    $"before the catalog's last one ({TimeText.Ticks(new DateTime(tail, DateTimeKind.Utc))}), and the catalog " +
                    $"holds {held:N0} rows in that day's times: " +
                    "a series only grows in time order, so a day missing before its end cannot be added (import the folder into " +
                    "a new catalog). Nothing of the file was imported.");
        }

        int first = times.AsSpan().IndexOf(tail);
        int atTail = 0;
        if (first >= 0)
        {
            int after = times.AsSpan(first).IndexOfAnyExcept(tail);
            atTail = after < 0 ? day.Rows - first : after;
        }

        return atTail >= tailRows
            ? first + (int)tailRows
            : throw new DataException($"'{catalog.Path}' holds {tailRows:N0} rows of {day.File.Symbol}'s {day.File.Kind.Name} at " +
                $"{TimeText.Ticks(new DateTime(tail, DateTimeKind.Utc))}, its last, and '{day.File.Path}' holds {atTail:N0} at that time: " +
                "the catalog holds other rows than this folder's. Nothing of the file was imported.");
    }

    /// <summary>The rows the catalog records of the file's series with times in [<paramref name="from"/>, <paramref name="to"/>) ticks.</summary>
    private static long RecordedRows(TimeSeriesCatalog catalog, LeanFile file, long from, long to)
    {
        lock (catalog)
        {
            long rows = 0;
            foreach (CatalogPartition partition in catalog.Find(file.Kind.Name, file.Symbol, new DateTime(from, DateTimeKind.Utc),
                new DateTime(to, DateTimeKind.Utc)))
            {
                using TimeSeriesTable table = catalog.OpenPartition(partition);
                rows += partition.RecordedRows(table, from, to).Length;
            }

            return rows;
        }
    }

    /// <summary>
    /// The series' last time and how many rows it holds at that time, from its tables as they are (a killed import
    /// may have left rows its index does not record yet); (0, 0) for a series without rows.
    /// </summary>
    private static (long Tail, long Rows) TailOf(TimeSeriesCatalog catalog, string kind, string symbol)
    {
        lock (catalog)
        {
            IReadOnlyList<CatalogPartition> partitions = catalog.Partitions(kind, symbol);
            for (int i = partitions.Count - 1; i >= 0; i--)
            {
                // The latest through the writer (it adopts rows a killed writer left), earlier ones as recorded; so is
                // one whose period the watermark passed, before which every row is recorded.
                CatalogPartition partition = partitions[i];
                bool latest = i == partitions.Count - 1 && !partition.IsSealed && partition.PeriodEnd > catalog.Watermark;
                DateTime start = partition.PeriodStart > catalog.Watermark ? partition.PeriodStart : catalog.Watermark;
                TimeSeriesTable table = latest
                    ? catalog.Partition(kind, symbol, DateTime.SpecifyKind(start, DateTimeKind.Utc))
                    : catalog.OpenPartition(partition);
                try
                {
                    long rows = latest ? table.RowCount : partition.RowCount;
                    if (rows == 0)
                    {
                        continue;
                    }

                    DateTime tail = table.TimeAt(rows - 1);
                    long atTail = 1;
                    while (atTail < rows && table.TimeAt(rows - 1 - atTail) == tail)
                    {
                        atTail++;
                    }

                    return (tail.Ticks, atTail);
                }
                finally
                {
                    if (!latest)
                    {
                        table.Dispose();
                    }
                }
            }

            return (0, 0);
        }
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
    private static void ThrowIfTwice(LeanFile[][] series)
    {
        foreach (LeanFile[] days in series)
        {
            for (int i = 1; i < days.Length; i++)
            {
                if (days[i].Day == days[i - 1].Day)
                {
                    throw new DataException($"'{days[i - 1].Path}' and '{days[i].Path}' both hold {days[i].Symbol}'s {days[i].Kind.Name} " +
                        $"of {days[i].Day:yyyy-MM-dd}; leave one of them in the folder. Nothing was imported.");
                }
            }
        }
    }

    /// <summary>The import's shared state: the catalog (its lock guards every call to it), and the counts so far.</summary>
    private sealed class Progress(TimeSeriesCatalog catalog, int files, Action<long, long>? report)
    {
        private int _done;
        private int _skipped;
        private long _rows;
        private bool _stopped;

        public TimeSeriesCatalog Catalog { get; } = catalog;

        public int Skipped => _skipped;

        public long Rows => Interlocked.Read(ref _rows);

        /// <summary>Whether a series failed: the others stop before their next file.</summary>
        public bool Stopped => Volatile.Read(ref _stopped);

        public void Stop() => Volatile.Write(ref _stopped, true);

        public void Done(bool skipped, long rows)
        {
            if (skipped)
            {
                Interlocked.Increment(ref _skipped);
            }

            Interlocked.Add(ref _rows, rows);
            report?.Invoke(Interlocked.Increment(ref _done), files);
        }
    }
}
