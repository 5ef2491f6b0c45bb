using System.CommandLine;
using System.IO;

namespace ListMmf.Tool.Commands;

/// <summary>
/// <c>seal FILE...</c> and <c>unseal FILE...</c>: a finished list to its sealed form (compressed, read-only) and back
/// (<see cref="SealedListMmf.Seal"/>, <see cref="SealedListMmf.Unseal"/>), each by an atomic replacement. A writer
/// holding a file makes its seal fail with the lock's message.
/// </summary>
internal static class SealCommand
{
    public static Command Create(TextWriter output)
    {
        var paths = new Argument<string[]>("FILE") { Description = "ListMmf files.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("seal", "Replace finished ListMmf files by their sealed form: compressed in blocks of 1,024 " +
            "items, read-only, searched in place. 'unseal' gives the appendable file back.") { paths };
        command.SetAction(parse =>
        {
            foreach (string path in parse.GetValue(paths)!)
            {
                ThrowIfTable(path);
                long before = new FileInfo(path).Length;
                output.WriteLine(SealedListMmf.Seal(path)
                    ? $"{path}: sealed, {before:N0} bytes to {new FileInfo(path).Length:N0}"
                    : $"{path}: sealed already");
            }

            return Cli.Success;
        });
        return command;
    }

    public static Command CreateUnseal(TextWriter output)
    {
        var paths = new Argument<string[]>("FILE") { Description = "Sealed ListMmf files.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("unseal", "Replace sealed ListMmf files by the appendable form (version 2) of the same items.") { paths };
        command.SetAction(parse =>
        {
            foreach (string path in parse.GetValue(paths)!)
            {
                ThrowIfTable(path);
                output.WriteLine(SealedListMmf.Unseal(path) ? $"{path}: unsealed" : $"{path}: not sealed");
            }

            return Cli.Success;
        });
        return command;
    }

    /// <summary>A table's columns are sealed together or not at all: a table with some sealed columns could not be opened.</summary>
    private static void ThrowIfTable(string path)
    {
        if (Directory.Exists(path))
        {
            throw new DataException($"'{path}' is a table folder; tables are not sealed yet (their readers open appendable " +
                "columns only): seal single files.");
        }
    }
}
