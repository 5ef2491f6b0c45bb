using System;
using System.CommandLine;
using System.IO;
using ListMmf.Tool.Files;

namespace ListMmf.Tool.Commands;

/// <summary><c>search FILE TIME</c>: LowerBound, UpperBound and EqualRange of a time, with the rows around them.</summary>
internal static class SearchCommand
{
    private const int Around = 2;

    public static Command Create(TextWriter output)
    {
        var path = new Argument<string>("FILE") { Description = "A ListMmf time-series file, or a table folder." };
        var time = new Argument<string>("TIME") { Description = "The time to search for (ISO 8601 or Unix seconds, as stored)." };
        var command = new Command("search", "Show where a time falls: LowerBound, UpperBound and EqualRange, with the " +
            "rows around them.") { path, time };
        command.SetAction(parse =>
        {
            using Source source = Source.Open(parse.GetValue(path)!);
            DateTime target = source.ParseTime(parse.GetValue(time)!, "TIME");
            long lower = source.LowerBound(target);
            long upper = Math.Max(lower, source.UpperBound(target));
            long count = source.Count;
            output.WriteLine($"{Times.Format(target, ticks: target.Ticks % TimeSpan.TicksPerSecond != 0)} in '{source.Path}' ({count:N0} rows)");
            output.WriteLine($"LowerBound {lower:N0}  UpperBound {upper:N0}  EqualRange [{lower:N0}, {upper:N0}): {upper - lower:N0} equal");
            // Each row is marked L (LowerBound), U (UpperBound) and = (equal to the time).
            RowPrinter.Print(output, source, Math.Max(0, lower - Around), Math.Min(count, upper + Around), row =>
                $"{(row == lower ? 'L' : ' ')}{(row == upper ? 'U' : ' ')}{(row >= lower && row < upper ? '=' : ' ')}");
            if (upper == count)
            {
                output.WriteLine(lower == count ? "LU  at the end: every row is before the time" : " U  at the end: no row is after the time");
            }

            return Cli.Success;
        });
        return command;
    }
}
