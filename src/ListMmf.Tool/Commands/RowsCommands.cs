using System;
using System.CommandLine;
using System.IO;
using ListMmf.Tool.Files;

namespace ListMmf.Tool.Commands;

/// <summary><c>head</c>, <c>tail</c> and <c>slice</c>: rows of a file or a table.</summary>
internal static class RowsCommands
{
    public static Command Head(TextWriter output) => Ends("head", "Show the first rows of a ListMmf file or table.", output, fromEnd: false);

    public static Command Tail(TextWriter output) => Ends("tail", "Show the last rows of a ListMmf file or table.", output, fromEnd: true);

    public static Command Slice(TextWriter output)
    {
        var path = new Argument<string>("FILE") { Description = "A ListMmf time-series file, or a table folder." };
        var from = new Option<string>("--from") { Description = "The first time (ISO 8601 or Unix seconds, as stored), included.", Required = true };
        var to = new Option<string>("--to") { Description = "The time to stop at, excluded.", Required = true };
        var command = new Command("slice", "Show the rows with times in [--from, --to).") { path, from, to };
        command.SetAction(parse =>
        {
            using Source source = Source.Open(parse.GetValue(path)!);
            DateTime start = source.ParseTime(parse.GetValue(from)!, "--from");
            DateTime end = source.ParseTime(parse.GetValue(to)!, "--to");
            long first = source.LowerBound(start);
            long last = end > start ? Math.Max(first, source.LowerBound(end)) : first;
            RowPrinter.Print(output, source, first, last);
            output.WriteLine($"({last - first:N0} rows of {source.Count:N0})");
            return Cli.Success;
        });
        return command;
    }

    private static Command Ends(string name, string description, TextWriter output, bool fromEnd)
    {
        var path = new Argument<string>("FILE") { Description = "A ListMmf file, or a table folder." };
        var rows = new Option<long>("-n", "--rows") { Description = "How many rows.", DefaultValueFactory = _ => 10 };
        var command = new Command(name, description) { path, rows };
        command.SetAction(parse =>
        {
            long n = parse.GetValue(rows);
            if (n < 0)
            {
                throw new UsageException($"-n takes a count of rows, not {n}.");
            }

            using Source source = Source.Open(parse.GetValue(path)!);
            long count = source.Count;
            long start = fromEnd ? Math.Max(0, count - n) : 0;
            long end = fromEnd ? count : Math.Min(count, n);
            RowPrinter.Print(output, source, start, end);
            output.WriteLine($"({end - start:N0} rows of {count:N0})");
            return Cli.Success;
        });
        return command;
    }
}
