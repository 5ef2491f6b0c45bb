using System;
using System.CommandLine;
using System.IO;
using ListMmf.Tool.Csv;
using ListMmf.Tool.Files;

namespace ListMmf.Tool.Commands;

/// <summary><c>export csv DIR|FILE [--from T --to T] [--time-format F] [--out FILE]</c>.</summary>
internal static class ExportCommand
{
    public static Command Create(TextWriter output)
    {
        var path = new Argument<string>("SOURCE") { Description = "A table folder or a ListMmf file." };
        var from = new Option<string?>("--from") { Description = "The first time (ISO 8601, as stored), included." };
        var to = new Option<string?>("--to") { Description = "The time to stop at, excluded." };
        var timeFormat = new Option<string>("--time-format") { Description = "How times are written: iso (the default), unix, unixms or unixns.", DefaultValueFactory = _ => "iso" };
        timeFormat.AcceptOnlyFromAmong("iso", "unix", "unixms", "unixns");
        var target = new Option<string?>("--out") { Description = "The CSV file to write (replaced); standard output when absent." };
        var command = new Command("csv", "Export a table or a file as CSV, exactly: numbers in their shortest round-trip form, times as asked.")
        {
            path, from, to, timeFormat, target,
        };
        command.SetAction(parse =>
        {
            DateTime? start = parse.GetValue(from) is { } f ? Times.Parse(f, "--from") : null;
            DateTime? end = parse.GetValue(to) is { } t ? Times.Parse(t, "--to") : null;
            TimeFormat format = TimeFormat.Parse(parse.GetValue(timeFormat)!);
            using Source source = Source.Open(parse.GetValue(path)!);
            string? file = parse.GetValue(target);
            string temporary = file is null ? "" : $"{Path.GetFullPath(file)}.{Guid.NewGuid():N}.tmp";
            try
            {
                using (Stream stream = file is null ? Console.OpenStandardOutput() : new FileStream(temporary, FileMode.CreateNew, FileAccess.Write))
                {
                    CsvExporter.Run(source, stream, start, end, format);
                }

                if (file is not null)
                {
                    // Whole or not at all: a failed export leaves no partial CSV under the name asked for.
                    File.Move(temporary, file, overwrite: true);
                }
            }
            finally
            {
                if (file is not null)
                {
                    File.Delete(temporary);
                }
            }

            return Cli.Success;
        });

        return new Command("export", "Take data out.") { command };
    }
}
