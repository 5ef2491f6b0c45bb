using System;
using System.CommandLine;
using System.Diagnostics;
using System.IO;
using ListMmf.Storage;
using ListMmf.Tool.Csv;
using ListMmf.Tool.Files;
using ListMmf.Tool.Parquet;
using ParquetSharp;

namespace ListMmf.Tool.Commands;

/// <summary><c>export csv DIR|FILE [--from T --to T] [--time-format F] [--out FILE]</c> and <c>export parquet DIR --out FILE</c>.</summary>
internal static class ExportCommand
{
    /// <summary>What a refusal of an existing output tells the user to do.</summary>
    private const string ReplaceHint = "Pass --force to replace it.";

    public static Command Create(TextWriter output)
    {
        var path = new Argument<string>("SOURCE") { Description = "A table folder or a ListMmf file." };
        var from = new Option<string?>("--from") { Description = "The first time (ISO 8601 or Unix seconds, as stored), included." };
        var to = new Option<string?>("--to") { Description = "The time to stop at, excluded." };
        var timeFormat = new Option<string>("--time-format") { Description = "How times are written: iso (the " +
            "default), unix, unixms or unixns.", DefaultValueFactory = _ => "iso" };
        timeFormat.AcceptOnlyFromAmong("iso", "unix", "unixms", "unixns");
        var target = new Option<string?>("--out") { Description = "The CSV file to write; standard output when absent." };
        Option<bool> force = Force();
        var command = new Command("csv", "Export a table or a file as CSV, exactly: numbers in their shortest round-trip form, times as asked.")
        {
            path, from, to, timeFormat, target, force,
        };
        command.SetAction(parse =>
        {
            TimeFormat format = TimeFormat.Parse(parse.GetValue(timeFormat)!);
            using Source source = Source.Open(parse.GetValue(path)!);
            DateTime? start = parse.GetValue(from) is { } f ? source.ParseTime(f, "--from") : null;
            DateTime? end = parse.GetValue(to) is { } t ? source.ParseTime(t, "--to") : null;
            string? file = parse.GetValue(target);
            if (file is null)
            {
                using Stream standardOutput = Console.OpenStandardOutput();
                CsvExporter.Run(source, standardOutput, start, end, format);
            }
            else
            {
                using OutputFile csv = OutputFile.Create(file, source.Path, parse.GetValue(force), ReplaceHint);
                CsvExporter.Run(source, csv.Stream, start, end, format);
                csv.Publish();
            }

            return Cli.Success;
        });

        return new Command("export", "Take data out.") { command, Parquet(output) };
    }

    private static Command Parquet(TextWriter output)
    {
        var table = new Argument<string>("TABLE") { Description = "A table folder." };
        var from = new Option<string?>("--from") { Description = "The first time (ISO 8601 or Unix seconds, as stored), included." };
        var to = new Option<string?>("--to") { Description = "The time to stop at, excluded." };
        var target = new Option<string>("--out") { Description = "The Parquet file to write.", Required = true };
        Option<bool> force = Force();
        Option<string> compression = CompressionOption();
        Option<string> level = LevelOption();
        var rowGroup = new Option<int>("--row-group-rows") { Description = $"Rows per row group. Default: " +
            $"{ParquetExporter.DefaultRowGroupRows:N0}, as pyarrow writes them." };
        rowGroup.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int>() < 0)
            {
                result.AddError("--row-group-rows must be positive.");
            }
        });
        var command = new Command("parquet", "Export a table as a Parquet file: times as timestamps (milliseconds for " +
            "a seconds table, nanoseconds for ticks), values as their own types, a row group at a time.")
        {
            table, from, to, target, force, compression, level, rowGroup,
        };
        command.SetAction(parse =>
        {
            string folder = Path.GetFullPath(parse.GetValue(table)!);
            if (!File.Exists(Path.Combine(folder, TimeSeriesTable.ManifestFileName)))
            {
                throw new DataException($"'{folder}' is not a table folder (it has no {TimeSeriesTable.ManifestFileName}).");
            }

            bool utc;
            using (var schema = TimeSeriesTable.Open(folder, FileAccess.Read))
            {
                utc = schema.Schema.TimesAreUtc;
            }

            var request = new ParquetExportRequest(
                folder,
                Path.GetFullPath(parse.GetValue(target)!),
                CodecOf(parse.GetValue(compression)!),
                LevelOf(parse.GetValue(level)!),
                parse.GetValue(rowGroup),
                parse.GetValue(from) is { } f ? Times.Parse(f, "--from", utc) : null,
                parse.GetValue(to) is { } t ? Times.Parse(t, "--to", utc) : null);

            var clock = Stopwatch.StartNew();
            long rows;
            using (OutputFile parquet = OutputFile.Create(request.Output, folder, parse.GetValue(force), ReplaceHint))
            {
                rows = ProgressBar.Run("exporting", show: true, progress => ParquetExporter.Run(request, parquet.Stream, progress));
                parquet.Publish();
            }

            double seconds = clock.Elapsed.TotalSeconds;
            output.WriteLine($"exported {rows:N0} rows to '{request.Output}' in {seconds:N2} s ({(seconds > 0 ? rows / seconds : 0):N0} rows/s)");
            return Cli.Success;
        });
        return command;
    }

    /// <summary>The <c>--compression</c> option Parquet exports take.</summary>
    internal static Option<string> CompressionOption()
    {
        var compression = new Option<string>("--compression") { Description = "The codec: snappy (the default), zstd, " +
            "gzip, lz4 or none.", DefaultValueFactory = _ => "snappy" };
        compression.AcceptOnlyFromAmong("snappy", "zstd", "gzip", "lz4", "none");
        return compression;
    }

    /// <summary>The <c>--compression-level</c> option Parquet exports take.</summary>
    internal static Option<string> LevelOption()
    {
        var level = new Option<string>("--compression-level")
        {
            Description = "fastest (the default), optimal or smallest: zstd levels 1, 3 and 19, gzip 1, 6 and 9; snappy and lz4 have one.",
            DefaultValueFactory = _ => "fastest",
        };
        level.AcceptOnlyFromAmong("fastest", "optimal", "smallest");
        return level;
    }

    internal static Compression CodecOf(string name) => name switch
    {
        "zstd" => Compression.Zstd,
        "gzip" => Compression.Gzip,
        "lz4" => Compression.Lz4,
        "none" => Compression.Uncompressed,
        _ => Compression.Snappy,
    };

    internal static System.IO.Compression.CompressionLevel LevelOf(string name) => name switch
    {
        "optimal" => System.IO.Compression.CompressionLevel.Optimal,
        "smallest" => System.IO.Compression.CompressionLevel.SmallestSize,
        _ => System.IO.Compression.CompressionLevel.Fastest,
    };

    private static Option<bool> Force() =>
        new("--force") { Description = "Replace the output file when it exists (it is refused otherwise)." };
}
