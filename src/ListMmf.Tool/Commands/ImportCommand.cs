using System;
using System.Collections.Generic;
using System.CommandLine;
using System.Diagnostics;
using System.IO;
using System.Linq;
using ListMmf.Tool.Csv;
using ListMmf.Tool.Import;
using ListMmf.Tool.Parquet;

namespace ListMmf.Tool.Commands;

/// <summary><c>import csv CSV --out DIR --time COLUMN[:FORMAT] --column NAME:TYPE ...</c> and <c>import parquet FILE --out DIR</c>.</summary>
internal static class ImportCommand
{
    public static Command Create(TextWriter output)
    {
        var csv = new Argument<string>("CSV") { Description = "The CSV file, with a header line; gzip is recognised by its first bytes." };
        var folder = new Option<string>("--out") { Description = "The table folder: created, or appended to if it holds a table.", Required = true };
        var time = new Option<string>("--time")
        {
            Description = "The time column, COLUMN[:FORMAT]. FORMAT: unix (seconds), unixms, unixns, iso, or a .NET " +
                "custom format such as 'yyyyMMdd HHmmss'. Without one, a column of integers is Unix seconds and anything else ISO 8601.",
            Required = true,
        };
        var columns = new Option<string[]>("--column")
        {
            Description = $"A value column, NAME:TYPE, with TYPE {ColumnSink.TypeNames}; or text (values that repeat, " +
                "as codes of 2 bytes: 65,536 distinct values), text8 (1 byte: 256) or text32. Repeat for each column.",
            Required = true,
            AllowMultipleArgumentsPerToken = true,
        };
        Option<string?> timeType = TimeTypeOption("Default: seconds for unix, ticks for the other formats.");
        Option<string?> order = OrderOption("ascending (times strictly increasing)");

        var command = new Command("csv", "Import CSV rows into a table: one ListMmf file per column, rows published " +
            "only when every column holds them.")
        {
            csv, folder, time, columns, timeType, order,
        };
        command.SetAction(parse =>
        {
            string timeSpec = parse.GetValue(time)!;
            int colon = timeSpec.IndexOf(':', StringComparison.Ordinal);
            var request = new ImportRequest(
                parse.GetValue(csv)!,
                Path.GetFullPath(parse.GetValue(folder)!),
                colon < 0 ? timeSpec : timeSpec[..colon],
                colon < 0 ? null : TimeFormat.Parse(timeSpec[(colon + 1)..]),
                parse.GetValue(columns)!.Select(ParseColumn).ToList(),
                IsTicks(parse.GetValue(timeType)),
                Order(parse.GetValue(order)));
            CheckNames(request.TimeColumn, request.Columns);
            if (!File.Exists(request.Csv))
            {
                throw new DataException($"'{request.Csv}' does not exist.");
            }

            var clock = Stopwatch.StartNew();
            long rows = ProgressBar.Run("importing", show: true, progress => CsvImporter.Run(request, progress));
            Report(output, rows, request.Output, clock.Elapsed.TotalSeconds);
            return Cli.Success;
        });

        return new Command("import", "Bring data in.") { command, Parquet(output) };
    }

    private static Command Parquet(TextWriter output)
    {
        var file = new Argument<string>("PARQUET")
        {
            Description = "The Parquet file: one timestamp column and columns of numbers and strings, no nulls.",
        };
        var folder = new Option<string>("--out") { Description = "The table folder: created, or appended to if it holds a table.", Required = true };
        var time = new Option<string?>("--time") { Description = "The time column. Default: the one a listmmf export " +
            "names, else the file's only timestamp column." };
        Option<string?> timeType = TimeTypeOption("Default: seconds for a file exported from a seconds table, else ticks.");
        Option<string?> order = OrderOption("the order a listmmf export records, else ascending (times strictly increasing)");
        var command = new Command("parquet", "Import a Parquet file's rows into a table, a row group at a time; every " +
            "other column becomes a value column of its own type.")
        {
            file, folder, time, timeType, order,
        };
        command.SetAction(parse =>
        {
            var request = new ParquetImportRequest(
                Path.GetFullPath(parse.GetValue(file)!),
                Path.GetFullPath(parse.GetValue(folder)!),
                parse.GetValue(time),
                IsTicks(parse.GetValue(timeType)),
                Order(parse.GetValue(order)));
            if (!File.Exists(request.Parquet))
            {
                throw new DataException($"'{request.Parquet}' does not exist.");
            }

            var clock = Stopwatch.StartNew();
            long rows = ProgressBar.Run("importing", show: true, progress => ParquetImporter.Run(request, progress));
            Report(output, rows, request.Output, clock.Elapsed.TotalSeconds);
            return Cli.Success;
        });
        return command;
    }

    internal static Option<string?> TimeTypeOption(string byDefault)
    {
        var option = new Option<string?>("--time-type") { Description = $"For a new table: seconds (Int32 Unix " +
            $"seconds) or ticks (Int64 DateTime ticks). {byDefault}" };
        option.AcceptOnlyFromAmong("seconds", "ticks");
        return option;
    }

    internal static Option<string?> OrderOption(string byDefault)
    {
        var option = new Option<string?>("--order") { Description = $"For a new table: ascending or " +
            $"ascending-or-equal (equal times allowed). Default: {byDefault}." };
        option.AcceptOnlyFromAmong("ascending", "ascending-or-equal");
        return option;
    }

    internal static bool? IsTicks(string? timeType) => timeType is null ? null : timeType == "ticks";

    internal static TimeSeriesOrder? Order(string? order) => order switch
    {
        "ascending" => TimeSeriesOrder.Ascending,
        "ascending-or-equal" => TimeSeriesOrder.AscendingOrEqual,
        _ => null,
    };

    private static void Report(TextWriter output, long rows, string table, double seconds) =>
        output.WriteLine($"imported {rows:N0} rows into '{table}' in {seconds:N2} s ({(seconds > 0 ? rows / seconds : 0):N0} rows/s)");

    /// <summary>
    /// The columns become file names: a name that cannot be one, or a repeated name, is a usage error found before
    /// anything is read.
    /// </summary>
    internal static void CheckNames(string timeColumn, IEnumerable<(string Name, string Type)> columns)
    {
        try
        {
            var schema = new TimeSeriesTableSchema(timeColumn);
            foreach ((string name, string type) in columns)
            {
                ColumnSink.ColumnOf(name, type).AddTo(schema);
            }
        }
        catch (ArgumentException exception)
        {
            throw new UsageException(exception.Message);
        }
    }

    internal static (string Name, string Type) ParseColumn(string spec)
    {
        int colon = spec.LastIndexOf(':');
        return colon > 0 && colon < spec.Length - 1
            ? (spec[..colon], spec[(colon + 1)..])
            : throw new UsageException($"--column '{spec}': give a column as NAME:TYPE, for example price:double.");
    }
}
