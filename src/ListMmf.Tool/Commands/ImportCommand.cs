using System;
using System.CommandLine;
using System.Diagnostics;
using System.IO;
using System.Linq;
using ListMmf.Tool.Csv;

namespace ListMmf.Tool.Commands;

/// <summary><c>import csv CSV --out DIR --time COLUMN[:FORMAT] --column NAME:TYPE ...</c>.</summary>
internal static class ImportCommand
{
    public static Command Create(TextWriter output)
    {
        var csv = new Argument<string>("CSV") { Description = "The CSV file, with a header line; gzip is recognised by its first bytes." };
        var folder = new Option<string>("--out") { Description = "The table folder: created, or appended to if it holds a table.", Required = true };
        var time = new Option<string>("--time")
        {
            Description = "The time column, COLUMN[:FORMAT]. FORMAT: unix (seconds), unixms, unixns, iso, or a .NET custom format such as 'yyyyMMdd HHmmss'. Without one, a column of integers is Unix seconds and anything else ISO 8601.",
            Required = true,
        };
        var columns = new Option<string[]>("--column")
        {
            Description = "A value column, NAME:TYPE, with TYPE double, float, long, int, short, sbyte, ulong, uint, ushort or byte. Repeat for each column.",
            Required = true,
            AllowMultipleArgumentsPerToken = true,
        };
        var timeType = new Option<string?>("--time-type") { Description = "For a new table: seconds (Int32 Unix seconds) or ticks (Int64 DateTime ticks). Default: seconds for unix, ticks for the other formats." };
        timeType.AcceptOnlyFromAmong("seconds", "ticks");
        var order = new Option<string?>("--order") { Description = "For a new table: ascending (times strictly increasing, the default) or ascending-or-equal (equal times allowed)." };
        order.AcceptOnlyFromAmong("ascending", "ascending-or-equal");

        var command = new Command("csv", "Import CSV rows into a table: one ListMmf file per column, rows published only when every column holds them.")
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
                parse.GetValue(timeType) is { } kind ? kind == "ticks" : null,
                parse.GetValue(order) switch
                {
                    "ascending" => TimeSeriesOrder.Ascending,
                    "ascending-or-equal" => TimeSeriesOrder.AscendingOrEqual,
                    _ => null,
                });
            CheckNames(request);
            if (!File.Exists(request.Csv))
            {
                throw new DataException($"'{request.Csv}' does not exist.");
            }

            var clock = Stopwatch.StartNew();
            long rows = ProgressBar.Run("importing", show: true, progress => CsvImporter.Run(request, progress));
            double seconds = clock.Elapsed.TotalSeconds;
            output.WriteLine($"imported {rows:N0} rows into '{request.Output}' in {seconds:N2} s ({(seconds > 0 ? rows / seconds : 0):N0} rows/s)");
            return Cli.Success;
        });

        return new Command("import", "Bring data in.") { command };
    }

    /// <summary>The columns become file names: a name that cannot be one, or a repeated name, is a usage error found before anything is read.</summary>
    private static void CheckNames(ImportRequest request)
    {
        try
        {
            var schema = new TimeSeriesTableSchema(request.TimeColumn);
            foreach ((string name, string type) in request.Columns)
            {
                schema.Add(name, ColumnSink.DataTypeOf(name, type));
            }
        }
        catch (ArgumentException exception)
        {
            throw new UsageException(exception.Message);
        }
    }

    private static (string Name, string Type) ParseColumn(string spec)
    {
        int colon = spec.LastIndexOf(':');
        return colon > 0 && colon < spec.Length - 1
            ? (spec[..colon], spec[(colon + 1)..])
            : throw new UsageException($"--column '{spec}': give a column as NAME:TYPE, for example price:double.");
    }
}
