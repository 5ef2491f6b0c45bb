using System.CommandLine;
using System.IO;
using System.Linq;

namespace ListMmf.Tool.Commands;

/// <summary>
/// <c>seal FILE|TABLE...</c> and <c>unseal FILE|TABLE...</c>: a finished list, or every column of a table folder, to
/// its sealed form (compressed, read-only) and back (<see cref="SealedListMmf.Seal"/>, <see cref="TimeSeriesTable.Seal"/>
/// and their unseals), each file by an atomic replacement. A writer holding a file or the table makes the seal fail
/// with the lock's message.
/// </summary>
internal static class SealCommand
{
    public static Command Create(TextWriter output)
    {
        var paths = new Argument<string[]>("FILE") { Description = "ListMmf files or table folders.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("seal", "Replace finished ListMmf files, or every column of table folders, by their sealed " +
            "form: compressed in blocks of 1,024 items, read-only, searched in place. 'unseal' gives the appendable files back.") { paths };
        command.SetAction(parse =>
        {
            foreach (string path in parse.GetValue(paths)!)
            {
                long before = BytesOf(path);
                if (Directory.Exists(path))
                {
                    int files = TimeSeriesTable.Seal(path);
                    output.WriteLine(files > 0
                        ? $"{path}: {files} column file{(files == 1 ? "" : "s")} sealed, {before:N0} bytes to {BytesOf(path):N0}"
                        : $"{path}: sealed already");
                }
                else
                {
                    output.WriteLine(SealedListMmf.Seal(path)
                        ? $"{path}: sealed, {before:N0} bytes to {BytesOf(path):N0}"
                        : $"{path}: sealed already");
                }
            }

            return Cli.Success;
        });
        return command;
    }

    public static Command CreateUnseal(TextWriter output)
    {
        var paths = new Argument<string[]>("FILE") { Description = "Sealed ListMmf files or table folders.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("unseal", "Replace sealed ListMmf files, or the sealed columns of table folders, by the " +
            "appendable form (version 2) of the same items.") { paths };
        command.SetAction(parse =>
        {
            foreach (string path in parse.GetValue(paths)!)
            {
                if (Directory.Exists(path))
                {
                    int files = TimeSeriesTable.Unseal(path);
                    output.WriteLine(files > 0 ? $"{path}: {files} column file{(files == 1 ? "" : "s")} unsealed" : $"{path}: not sealed");
                }
                else
                {
                    output.WriteLine(SealedListMmf.Unseal(path) ? $"{path}: unsealed" : $"{path}: not sealed");
                }
            }

            return Cli.Success;
        });
        return command;
    }

    /// <summary>The bytes of a file, or of a table's column files (its manifest aside).</summary>
    private static long BytesOf(string path)
    {
        if (!Directory.Exists(path))
        {
            return new FileInfo(path).Length;
        }

        using var table = TimeSeriesTable.Open(path, FileAccess.Read);
        return table.Columns.Sum(column => new FileInfo(column.Path).Length
            + (column is TextColumn text ? new FileInfo(text.EntriesPath).Length : 0));
    }
}
