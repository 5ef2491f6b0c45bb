using System;
using System.CommandLine;
using System.IO;
using System.Linq;

namespace ListMmf.Tool.Commands;

/// <summary>
/// The command tree and the exit codes: 0 success, 1 bad data (a file that is not what it should be, a CSV row that
/// does not parse, an I/O failure), 2 bad usage. Errors are one line on standard error, starting with "listmmf:".
/// </summary>
internal static class Cli
{
    public const int Success = 0;
    public const int BadData = 1;
    public const int BadUsage = 2;

    public static int Run(string[] args, TextWriter output, TextWriter error)
    {
        var root = new RootCommand("Look inside ListMmf files and tables, and move CSV ticks in and out of them.")
        {
            InfoCommand.Create(output),
            VerifyCommand.Create(output),
            RowsCommands.Head(output),
            RowsCommands.Tail(output),
            RowsCommands.Slice(output),
            SearchCommand.Create(output),
            ImportCommand.Create(output),
            ExportCommand.Create(output),
            CompactCommand.Create(output),
            UpgradeCommand.Create(output),
            RevertCommand.Create(output),
            SealCommand.Create(output),
            SealCommand.CreateUnseal(output),
            CatalogCommand.Create(output),
        };

        ParseResult parse = root.Parse(args);
        if (parse.Errors.Count > 0)
        {
            error.WriteLine($"listmmf: {OneLine(string.Join(" ", parse.Errors.Select(e => e.Message)))} (see listmmf --help)");
            return BadUsage;
        }

        try
        {
            return parse.Invoke(new InvocationConfiguration { Output = output, Error = error, EnableDefaultExceptionHandler = false });
        }
        catch (UsageException exception)
        {
            error.WriteLine($"listmmf: {exception.Message}");
            return BadUsage;
        }
        catch (Exception exception) when (exception is DataException or IOException or InvalidDataException
            or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            error.WriteLine($"listmmf: {OneLine(exception.Message)}");
            return BadData;
        }
    }

    private static string OneLine(string message) => string.Join(
        " ",
        message.Split(['\r', '\n', '\t'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
}
