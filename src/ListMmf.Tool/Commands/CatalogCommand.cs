using System;
using System.CommandLine;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using ListMmf.Storage;
using ListMmf.Tool.Csv;
using ListMmf.Tool.CatalogImport;
using ListMmf.Tool.Files;
using ListMmf.Tool.Parquet;
using ListMmf.Tool.Vendor;
using ParquetSharp;

namespace ListMmf.Tool.Commands;

/// <summary>
/// <c>catalog ls|info|verify|seal|export|import DIR</c>: a <see cref="TimeSeriesCatalog"/>'s partitions as its index
/// records them, what it holds, a check of every partition against the index, the seal of ended periods, a
/// Hive-partitioned Parquet export, and the import of a folder of per-day files (Lean's, or CSV and Parquet).
/// </summary>
internal static class CatalogCommand
{
    public static Command Create(TextWriter output) => new("catalog", "Look inside a catalog of many instruments' tables " +
        "(TimeSeriesCatalog), check it, seal its ended periods, export it as Hive-partitioned Parquet, and import a vendor's " +
        "folder of per-day files into it.")
    {
        List(output), Info(output), Verify(output), Seal(output), Export(output), Import(output),
    };

    private static Argument<string> Folder() => new("DIR") { Description = "The catalog's folder." };

    private static Command List(TextWriter output)
    {
        Argument<string> folder = Folder();
        var kind = new Option<string>("--kind") { Description = "Only this kind's partitions." };
        var instrument = new Option<string>("--instrument") { Description = "Only this instrument's partitions." };
        var command = new Command("ls", "List the partitions the index records: kind/instrument/period, recorded rows, first and " +
            "last times, form.") { folder, kind, instrument };
        command.SetAction(parse =>
        {
            using TimeSeriesCatalog catalog = Open(parse.GetValue(folder)!);
            foreach (CatalogPartition partition in catalog.Partitions(parse.GetValue(kind), parse.GetValue(instrument)))
            {
                output.WriteLine($"{NameOf(catalog, partition)}  {partition.RowCount:N0} rows  {Span(partition)}  " +
                    $"{(partition.IsSealed ? "sealed" : "appendable")}");
            }

            return Cli.Success;
        });
        return command;
    }

    private static Command Info(TextWriter output)
    {
        Argument<string> folder = Folder();
        var command = new Command("info", "Show a catalog's period, kinds, instruments, partitions, rows, watermark, " +
            "snapshots and bytes on disk.") { folder };
        command.SetAction(parse =>
        {
            using TimeSeriesCatalog catalog = Open(parse.GetValue(folder)!);
            var partitions = catalog.Partitions();
            output.WriteLine(catalog.Path);
            output.WriteLine($"  period {catalog.Schema.Period}, {Count(catalog.Schema.Kinds.Count, "kind")}, " +
                $"{Count(catalog.Instruments.Count, "instrument")}, {partitions.Count:N0} partitions " +
                $"({partitions.Count(partition => partition.IsSealed):N0} sealed), " +
                $"{partitions.Sum(partition => partition.RowCount):N0} rows recorded");
            output.WriteLine(catalog.Watermark == DateTime.MinValue
                ? "  watermark: none recorded"
                : $"  watermark {Times.Format(catalog.Watermark, ticks: true)}: every row before it is recorded");
            foreach (string kind in catalog.Schema.Kinds)
            {
                TimeSeriesTableSchema schema = catalog.Schema.SchemaOf(kind);
                var ofKind = partitions.Where(partition => partition.Kind == kind && partition.RowCount > 0).ToArray();
                string columns = string.Join(", ", new[] { schema.Time }.Concat(schema.Columns)
                    .Select(column => $"{column.Name} {column.DataType}"));
                string span = ofKind.Length == 0 ? "no rows" : $"{ofKind.Sum(partition => partition.RowCount):N0} rows from " +
                    $"{Times.Format(ofKind.Min(partition => partition.FirstTime), ticks: true)} to " +
                        $"{Times.Format(ofKind.Max(partition => partition.LastTime), ticks: true)}";
                output.WriteLine($"  kind {kind} ({columns}): {span}");
            }

            foreach (CatalogSnapshot snapshot in catalog.Snapshots())
            {
                output.WriteLine($"  snapshot {snapshot.Name}, taken {Times.Format(snapshot.Taken, ticks: false)}Z");
            }

            long bytes = Directory.EnumerateFiles(catalog.Path, "*", SearchOption.AllDirectories).Sum(BytesOf);
            output.WriteLine($"  {bytes:N0} bytes on disk");
            return Cli.Success;
        });
        return command;
    }

    private static Command Verify(TextWriter output)
    {
        Argument<string> folder = Folder();
        var command = new Command("verify", "Check every line of the index and its checkpoint, and every partition the index " +
            "records: its table as 'verify' checks one, holding the rows recorded, with the recorded first and last times; exit " +
            "code 1 on any problem.") { folder };
        command.SetAction(parse =>
        {
            using TimeSeriesCatalog catalog = Open(parse.GetValue(folder)!);
            int failed = 0;
            bool indexHolds = true;
            try
            {
                catalog.VerifyIndex();
            }
            catch (ListMmfFormatException exception)
            {
                output.WriteLine($"FAILED {catalog.Path}: {exception.Message.ReplaceLineEndings(" ")}");
                indexHolds = false;
            }

            var partitions = catalog.Partitions();
            foreach (CatalogPartition partition in partitions)
            {
                try
                {
                    output.WriteLine($"OK     {NameOf(catalog, partition)}: {VerifyPartition(catalog, partition)}");
                }
                catch (Exception exception) when (exception is IOException or DataException or UnauthorizedAccessException)
                {
                    output.WriteLine($"FAILED {NameOf(catalog, partition)}: {exception.Message.ReplaceLineEndings(" ")}");
                    failed++;
                }
            }

            output.WriteLine(failed == 0 && indexHolds
                ? $"OK     {catalog.Path}: {partitions.Count:N0} partitions hold the rows the index records"
                : $"FAILED {catalog.Path}: {failed:N0} of {partitions.Count:N0} partitions{(indexHolds ? "" : ", and the index")}");
            return failed == 0 && indexHolds ? Cli.Success : Cli.BadData;
        });
        return command;
    }

    private static Command Seal(TextWriter output)
    {
        Argument<string> folder = Folder();
        var before = new Option<string>("--before")
        {
            Description = "Seal the periods ending at or before this time (2024-01-02, or a date and time); default: now, " +
                "every period that has ended.",
        };
        var command = new Command("seal", "Seal every recorded partition of an ended period (compressed, read-only, searched " +
            "in place), as the catalog's writer; readers follow each partition into its sealed form.") { folder, before };
        command.SetAction(parse =>
        {
            using TimeSeriesCatalog catalog = TimeSeriesCatalog.Open(parse.GetValue(folder)!);
            bool utc = catalog.Schema.Kinds.All(kind => catalog.Schema.SchemaOf(kind).TimesAreUtc);
            // Not past now: a period not yet over is the one a live writer appends to.
            DateTime now = utc ? DateTime.UtcNow : DateTime.SpecifyKind(DateTime.Now, DateTimeKind.Unspecified);
            DateTime end = parse.GetValue(before) is { } text ? Times.Parse(text, "--before", utc) : now;
            int sealedCount = catalog.Seal(end);
            output.WriteLine($"{catalog.Path}: {sealedCount:N0} partition{(sealedCount == 1 ? "" : "s")} sealed");
            return Cli.Success;
        });
        return command;
    }

    private static Command Export(TextWriter output)
    {
        Argument<string> folder = Folder();
        var target = new Option<string>("--out") { Description = "The folder to write, new or empty.", Required = true };
        var kind = new Option<string>("--kind") { Description = "Only this kind's partitions." };
        var instrument = new Option<string>("--instrument") { Description = "Only this instrument's partitions." };
        Option<string> compression = ExportCommand.CompressionOption();
        Option<string> level = ExportCommand.LevelOption();
        var command = new Command("export", "Export the recorded rows as Hive-partitioned Parquet, one file a partition at " +
            "KIND/symbol=INSTRUMENT/date=yyyy-MM-dd/data.parquet (month=yyyy-MM or year=yyyy for those periods), which DuckDB, " +
            "Polars and Spark read with partition pruning; partitions exported on every core.")
        {
            folder, target, kind, instrument, compression, level,
        };
        command.SetAction(parse =>
        {
            using TimeSeriesCatalog catalog = Open(parse.GetValue(folder)!);
            string root = Path.GetFullPath(parse.GetValue(target)!);
            if (Directory.Exists(root) && Directory.EnumerateFileSystemEntries(root).Any())
            {
                throw new DataException($"'{root}' is not empty; export a catalog into a new or empty folder.");
            }

            CatalogPartition[] partitions = catalog.Partitions(parse.GetValue(kind), parse.GetValue(instrument))
                .Where(partition => partition.RowCount > 0).ToArray();
            (Compression codec, System.IO.Compression.CompressionLevel strength) =
                (ExportCommand.CodecOf(parse.GetValue(compression)!), ExportCommand.LevelOf(parse.GetValue(level)!));
            long rows = 0;
            var clock = Stopwatch.StartNew();
            EveryCore.For(partitions.Length, at =>
            {
                CatalogPartition partition = partitions[at];
                string file = Path.Combine(root, partition.Kind, $"symbol={partition.Instrument}",
                    HivePeriod(catalog.Schema.Period, partition.PeriodStart), "data.parquet");
                DurableFile.CreateDirectory(Path.GetDirectoryName(file)!);

                // The rows the index records, not those a writer appended since.
                var request = new ParquetExportRequest(partition.Path, file, codec, strength, 0, null, null, partition.RowCount);
                using OutputFile parquet = OutputFile.Create(file, partition.Path, overwrite: false,
                    "Export into a new or empty folder.");
                Interlocked.Add(ref rows, ParquetExporter.Run(request, parquet.Stream));
                parquet.Publish();
            });

            output.WriteLine($"exported {rows:N0} rows of {partitions.Length:N0} partitions to '{root}' in " +
                $"{clock.Elapsed.TotalSeconds:N2} s");
            return Cli.Success;
        });
        return command;
    }

    private static Command Import(TextWriter output)
    {
        Argument<string> folder = Folder();
        var source = new Argument<string>("SOURCE")
        {
            Description = "The folder of per-day (or per-period) files, searched with its subfolders. By default QuantConnect Lean's: " +
                "zips as Lean ships them (one CSV inside, named yyyyMMdd_symbol_Trade_Tick.csv, _Quote_Tick or _minute_trade), or " +
                "those CSVs, plain or gzip. With --layout, CSV (plain or gzip) and Parquet files of one instrument each.",
        };
        var layout = new Option<string?>("--layout")
        {
            Description = "Where each file's instrument is named: 'hive' ([KIND/]symbol=SYMBOL/date=.../FILE, as 'catalog export', " +
                "DuckDB and Polars write it), or a pattern of the path under SOURCE with {symbol}, {kind} and * (any text within a " +
                "name), such as '{symbol}/*.csv.gz'. Default: Lean's files.",
        };
        var kind = new Option<string?>("--kind")
        {
            Description = "With --layout: the kind of files whose path names none (default: the catalog's only kind).",
        };
        var time = new Option<string?>("--time")
        {
            Description = "With --layout: the time column, COLUMN[:FORMAT] for CSV files (as 'import csv' takes it), COLUMN for " +
                "Parquet files (default: the one a listmmf export names, else the only timestamp column).",
        };
        var columns = new Option<string[]>("--column")
        {
            Description = "With --layout, for CSV files: a value column, NAME:TYPE, as 'import csv' takes it. Repeat for each column.",
            AllowMultipleArgumentsPerToken = true,
        };
        var zone = new Option<string?>("--zone")
        {
            Description = "The time zone times written without one count in (an exchange's): they are stored in UTC. Default: " +
                "America/New_York for Lean's files; with --layout, none (times without a zone are kept so).",
        };
        var period = new Option<string?>("--period") { Description = "A new catalog's period (default: day); an existing catalog must have it." };
        period.AcceptOnlyFromAmong("day", "month", "year");
        var sort = new Option<bool>("--sort")
        {
            Description = "With --layout: sort each file's rows by time (equal times keep the file's order) before adding them, for " +
                "files an engine wrote in no set order, such as DuckDB's COPY ... PARTITION_BY. Without it such a file is refused.",
        };
        var ranks = new Option<string?>("--kinds")
        {
            Description = "With --layout, for a new catalog: its kinds, comma-separated, in the rank a replay gives rows of equal " +
                "time (trade,quote puts a trade before a quote at one time). Default: name order.",
        };
        Option<string?> timeType = ImportCommand.TimeTypeOption("Default: as the first file says.");
        Option<string?> order = ImportCommand.OrderOption("a Parquet file's recorded order, else ascending-or-equal");
        var command = new Command("import", "Import a folder of per-day files into the catalog, its series on every core, each " +
            "file checked whole before its rows are added. Lean's files make the kinds trade, quote and trade_minute; other files " +
            "(--layout) a kind a folder or --kind, with the columns of its first file. Run again over the same or a larger folder, " +
            "it adds only the rows the catalog lacks.")
        {
            folder, source, layout, kind, time, columns, zone, period, timeType, order, sort, ranks,
        };
        command.SetAction(parse =>
        {
            string catalog = Path.GetFullPath(parse.GetValue(folder)!);
            string from = Path.GetFullPath(parse.GetValue(source)!);
            CatalogPeriod? periodOf = parse.GetValue(period) is { } given ? Enum.Parse<CatalogPeriod>(given, ignoreCase: true) : null;
            var clock = Stopwatch.StartNew();
            CatalogImportResult result;
            if (parse.GetValue(layout) is not { } pattern)
            {
                if (parse.GetValue(kind) is not null || parse.GetValue(time) is not null || parse.GetValue(columns) is { Length: > 0 } ||
                    parse.GetValue(timeType) is not null || parse.GetValue(order) is not null || parse.GetValue(sort) ||
                    parse.GetValue(ranks) is not null)
                {
                    throw new UsageException("--kind, --kinds, --time, --column, --time-type, --order and --sort describe other files " +
                        "than Lean's: give --layout.");
                }

                var request = new LeanImportRequest(from, catalog, ZoneNamed(parse.GetValue(zone) ?? "America/New_York"), periodOf);
                result = ProgressBar.Run("importing", show: true, progress => LeanImporter.Run(request, progress));
            }
            else
            {
                var request = new TableFolderImportRequest(from, catalog, SourceLayout.Parse(pattern), parse.GetValue(kind),
                    CsvColumnsOf(parse.GetValue(time), parse.GetValue(columns) ?? []), ParquetTimeOf(parse.GetValue(time)),
                    parse.GetValue(zone) is { } named ? ZoneNamed(named) : null, periodOf,
                    ImportCommand.IsTicks(parse.GetValue(timeType)), ImportCommand.Order(parse.GetValue(order)), parse.GetValue(sort),
                    parse.GetValue(ranks)?.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries));
                result = ProgressBar.Run("importing", show: true, progress => TableFolderImporter.Run(request, progress));
            }

            double seconds = clock.Elapsed.TotalSeconds;
            output.WriteLine($"imported {result.Rows:N0} rows from {result.Files:N0} files into '{catalog}' in {seconds:N2} s " +
                $"({(seconds > 0 ? result.Rows / seconds : 0):N0} rows/s){(result.Skipped > 0 ? $"; {result.Skipped:N0} files the " +
                    "catalog held already" : "")}");
            return Cli.Success;
        });
        return command;
    }

    /// <summary>How CSV files are read, from <c>--time COLUMN[:FORMAT]</c> and the <c>--column</c>s; null without columns (no CSV).</summary>
    private static CsvColumns? CsvColumnsOf(string? time, string[] columns)
    {
        if (columns.Length == 0)
        {
            return null;
        }

        string spec = time ?? throw new UsageException("--column describes CSV files: name their time column with --time COLUMN[:FORMAT].");
        int colon = spec.IndexOf(':', StringComparison.Ordinal);
        var csv = new CsvColumns(colon < 0 ? spec : spec[..colon], colon < 0 ? null : TimeFormat.Parse(spec[(colon + 1)..]),
            columns.Select(ImportCommand.ParseColumn).ToList());
        ImportCommand.CheckNames(csv.TimeColumn, csv.Columns);
        return csv;
    }

    /// <summary>A Parquet file's time column: <c>--time</c>'s column, without a CSV format.</summary>
    private static string? ParquetTimeOf(string? time) => time is null ? null : time.Split(':')[0];

    /// <summary>
    /// The time zone <paramref name="name"/> names: as the system knows it, or an IANA name through its Windows name
    /// (which needs the ICU data that Windows 10 and later ship).
    /// </summary>
    private static TimeZoneInfo ZoneNamed(string name) =>
        TimeZoneInfo.TryFindSystemTimeZoneById(name, out TimeZoneInfo? zone)
            || (TimeZoneInfo.TryConvertIanaIdToWindowsId(name, out string? windows) && TimeZoneInfo.TryFindSystemTimeZoneById(windows, out zone))
            ? zone
            : throw new UsageException($"--zone '{name}' is no time zone this machine knows: give an IANA name such as " +
                "America/New_York, or on Windows without ICU data its Windows name, such as 'Eastern Standard Time'.");

    /// <summary>A partition's period as a Hive folder: <c>date=yyyy-MM-dd</c>, <c>month=yyyy-MM</c> or <c>year=yyyy</c>.</summary>
    private static string HivePeriod(CatalogPeriod period, DateTime start) => period switch
    {
        CatalogPeriod.Day => $"date={start:yyyy-MM-dd}",
        CatalogPeriod.Month => $"month={start:yyyy-MM}",
        _ => $"year={start:yyyy}",
    };

    /// <summary>What a partition's check found: the table verified, its rows and times those the index records.</summary>
    private static string VerifyPartition(TimeSeriesCatalog catalog, CatalogPartition partition)
    {
        using (TimeSeriesTable table = catalog.OpenPartition(partition))
        {
            long last = partition.RowCount - 1;
            if (partition.RowCount > 0 && (table.TimeAt(0) != partition.FirstTime || table.TimeAt(last) != partition.LastTime))
            {
                throw new DataException($"the index records rows from {Times.Format(partition.FirstTime, ticks: true)} to " +
                    $"{Times.Format(partition.LastTime, ticks: true)}, but the table's rows {partition.RowCount:N0} recorded run from " +
                    $"{Times.Format(table.TimeAt(0), ticks: true)} to {Times.Format(table.TimeAt(last), ticks: true)}");
            }
        }

        VerifyCommand.VerifyTable(TextWriter.Null, partition.Path);
        return $"{partition.RowCount:N0} rows recorded, table verified{(partition.IsSealed ? ", sealed" : "")}";
    }

    /// <summary>A file's length, 0 for one a writer removed since it was listed (a seal's temporary file).</summary>
    private static long BytesOf(string file)
    {
        var info = new FileInfo(file);
        return info.Exists ? info.Length : 0;
    }

    private static string Count(int count, string what) => $"{count:N0} {what}{(count == 1 ? "" : "s")}";

    private static TimeSeriesCatalog Open(string folder) => TimeSeriesCatalog.Open(folder, FileAccess.Read);

    private static string NameOf(TimeSeriesCatalog catalog, CatalogPartition partition) =>
        Path.GetRelativePath(catalog.Path, partition.Path).Replace('\\', '/');

    private static string Span(CatalogPartition partition) => partition.RowCount == 0
        ? "no rows"
        : $"{Times.Format(partition.FirstTime, ticks: true)} to {Times.Format(partition.LastTime, ticks: true)}";
}
