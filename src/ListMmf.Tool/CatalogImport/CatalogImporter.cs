using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

namespace ListMmf.Tool.CatalogImport;

/// <summary>What a catalog import did.</summary>
/// <param name="Files">The files found.</param>
/// <param name="Skipped">Files whose rows the catalog held already (a rerun), so that none was added.</param>
/// <param name="Rows">The rows added.</param>
internal sealed record CatalogImportResult(int Files, int Skipped, long Rows);

/// <summary>
/// Adds files of many series' rows to a <see cref="TimeSeriesCatalog"/>, whatever reads them (a vendor's days, CSV or
/// Parquet files): each kind and symbol a series, its files in the order given, the series on every core. A file is
/// read and checked whole before any of its rows is added, and its rows added to the partition of each period they
/// fall in (a day in New York reaches into the next UTC day). The catalog's one writer is shared under a lock; each
/// series appends to its own tables outside it. Symbols new to the catalog are added in name order first, so that
/// their ordinals, and with them the replay's order of equal times, are the same whatever the threads do.
/// <para>
/// An import can be run again over the same files, or more of them: a series' rows the catalog holds already are
/// found by its last time when the import starts and the rows at that time, and skipped, so a rerun adds only what is
/// missing, a killed import included (its last file's rows added up to where it stopped). Once a series' rows are
/// being added, each next file must start at or after the last row added, and all its rows are added: files that
/// share a time at their boundary keep every row, and files that overlap are refused. A bad file stops the import,
/// named with its line; the files before it stay imported and recorded.
/// </para>
/// </summary>
internal static class CatalogImporter
{
    /// <summary>Imports <paramref name="files"/>, each series' in the order given, into <paramref name="catalog"/>, then records them.</summary>
    /// <param name="catalog">The catalog, open for writing, which holds every kind the files name.</param>
    /// <param name="files">The files; those of one kind and symbol in the order their rows follow each other.</param>
    /// <param name="progress">Told the files done so far and the files in all.</param>
    public static CatalogImportResult Run(TimeSeriesCatalog catalog, IReadOnlyList<ICatalogSourceFile> files, Action<long, long>? progress = null)
    {
        ICatalogSourceFile[][] series = files
            .GroupBy(file => (file.Kind, file.Symbol))
            .OrderBy(group => group.Key.Kind, StringComparer.Ordinal).ThenBy(group => group.Key.Symbol, StringComparer.Ordinal)
            .Select(group => group.ToArray())
            .ToArray();

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
                        ImportSeries(import, days);
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
        return new CatalogImportResult(files.Count, import.Skipped, import.Rows);
    }

    /// <summary>Adds one series' files, in order, then records and closes its partition.</summary>
    private static void ImportSeries(Progress import, ICatalogSourceFile[] days)
    {
        TimeSeriesCatalog catalog = import.Catalog;
        (string kind, string symbol) = (days[0].Kind, days[0].Symbol);
        TimeSeriesTableSchema schema = catalog.Schema.SchemaOf(kind);
        (long tail, long tailRows) = TailOf(catalog, kind, symbol);
        bool adding = false;
        foreach (ICatalogSourceFile file in days)
        {
            if (import.Stopped)
            {
                return;
            }

            using ICatalogSourceRows day = file.Read(schema);
            long[] times = day.Times;
            int from = adding ? FollowsAdded(file, times, tail) : RowsHeld(catalog, file, times, tail, tailRows);
            if (from == times.Length)
            {
                import.Done(skipped: times.Length > 0, 0);
                continue;
            }

            for (int start = from; start < times.Length;)
            {
                CatalogPeriod period = catalog.Schema.Period;
                long end = CatalogPeriods.EndOf(CatalogPeriods.StartOf(times[start], period), period);
                int stop = start + 1;
                while (stop < times.Length && times[stop] < end)
                {
                    stop++;
                }

                TimeSeriesTable table;
                lock (catalog)
                {
                    table = catalog.Partition(kind, symbol, new DateTime(times[start], TimeKindOf(schema)));
                }

                try
                {
                    day.AppendTo(table, start, stop - start);
                }
                catch (Exception exception) when (exception is not DataException)
                {
                    // A text column's codes run out, a disk fills: the file that met it is named.
                    throw new DataException($"'{file.Path}': its rows from {start:N0} cannot be added to {symbol}'s {kind}: " +
                        $"{exception.Message} The files and rows before them are imported.", exception);
                }

                start = stop;
            }

            adding = true;
            tail = times[^1];
            import.Done(skipped: false, times.Length - from);
        }

        lock (catalog)
        {
            catalog.CloseSeries(kind, symbol);
        }
    }

    private static DateTimeKind TimeKindOf(TimeSeriesTableSchema schema) => schema.TimesAreUtc ? DateTimeKind.Utc : DateTimeKind.Unspecified;

    /// <summary>
    /// How many of a file's first rows (at <paramref name="times"/>) the catalog holds already, the series ending at
    /// <paramref name="tail"/> with <paramref name="tailRows"/> rows at that time (0 for an empty series): all of a
    /// file before the tail (checked to be there: a file added to the folder later cannot go before the series' end),
    /// none of a file after it, and of the file that holds it, the rows up to the tail's last.
    /// </summary>
    private static int RowsHeld(TimeSeriesCatalog catalog, ICatalogSourceFile file, long[] times, long tail, long tailRows)
    {
        if (tailRows == 0 || times.Length == 0 || times[0] > tail)
        {
            return 0;
        }

        if (times[^1] < tail)
        {
            long held = RecordedRows(catalog, file, times[0], times[^1] + 1);
            return held == times.Length
                ? times.Length
                : throw new DataException($"'{file.Path}' holds {times.Length:N0} rows of {file.Symbol}'s {file.Kind} " +
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
            atTail = after < 0 ? times.Length - first : after;
        }

        return atTail >= tailRows
            ? first + (int)tailRows
            : throw new DataException($"'{catalog.Path}' holds {tailRows:N0} rows of {file.Symbol}'s {file.Kind} at " +
                $"{TimeText.Ticks(new DateTime(tail, DateTimeKind.Utc))}, its last, and '{file.Path}' holds {atTail:N0} at that time: " +
                "the catalog holds other rows than this folder's. Nothing of the file was imported.");
    }

    /// <summary>
    /// 0, all of a file's rows, once rows of its series are being added: the file must start at or after
    /// <paramref name="last"/>, the last row added (the kind's order then decides whether an equal time may follow).
    /// </summary>
    private static int FollowsAdded(ICatalogSourceFile file, long[] times, long last) =>
        times.Length == 0 || times[0] >= last
            ? 0
            : throw new DataException($"'{file.Path}' starts at {TimeText.Ticks(new DateTime(times[0]))}, before the last row of " +
                $"{file.Symbol}'s {file.Kind} added from the files before it ({TimeText.Ticks(new DateTime(last))}): a series' " +
                "files must follow each other in time (their paths, numbers compared as numbers, give their order). The files " +
                "before it are imported; nothing of this file was.");

    /// <summary>The rows the catalog records of the file's series with times in [<paramref name="from"/>, <paramref name="to"/>) ticks.</summary>
    private static long RecordedRows(TimeSeriesCatalog catalog, ICatalogSourceFile file, long from, long to)
    {
        lock (catalog)
        {
            DateTimeKind kind = TimeKindOf(catalog.Schema.SchemaOf(file.Kind));
            long rows = 0;
            foreach (CatalogPartition partition in catalog.Find(file.Kind, file.Symbol, new DateTime(from, kind), new DateTime(to, kind)))
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
            DateTimeKind timeKind = TimeKindOf(catalog.Schema.SchemaOf(kind));
            IReadOnlyList<CatalogPartition> partitions = catalog.Partitions(kind, symbol);
            for (int i = partitions.Count - 1; i >= 0; i--)
            {
                // The latest through the writer (it adopts rows a killed writer left), earlier ones as recorded; so is
                // one whose period the watermark passed, before which every row is recorded.
                CatalogPartition partition = partitions[i];
                bool latest = i == partitions.Count - 1 && !partition.IsSealed && partition.PeriodEnd > catalog.Watermark;
                DateTime start = partition.PeriodStart > catalog.Watermark ? partition.PeriodStart : catalog.Watermark;
                TimeSeriesTable table = latest
                    ? catalog.Partition(kind, symbol, DateTime.SpecifyKind(start, timeKind))
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
