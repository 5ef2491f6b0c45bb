using System.CommandLine;
using System.IO;

namespace ListMmf.Tool.Commands;

/// <summary>
/// <c>upgrade FILE|TABLE...</c>: converts version 1 (ListMmf 1.x) files, and the column files of tables, to version 2
/// (<see cref="ListMmfFileInfo.Upgrade"/>, <see cref="TimeSeriesTable.Upgrade"/>), each by an atomic replacement that
/// live readers follow. A writer holding a file makes its upgrade fail with the lock's message.
/// </summary>
internal static class UpgradeCommand
{
    public static Command Create(TextWriter output)
    {
        var paths = new Argument<string[]>("FILE") { Description = "ListMmf files or table folders.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("upgrade", "Convert version 1 files (ListMmf 1.x's format) to version 2, whose header " +
            "keeps a durable count and the file's description. Readers of ListMmf 1.x cannot read the result.") { paths };
        command.SetAction(parse =>
        {
            foreach (string path in parse.GetValue(paths)!)
            {
                if (Directory.Exists(path))
                {
                    output.WriteLine($"{path}: {TimeSeriesTable.Upgrade(path)} column files converted to version 2");
                }
                else
                {
                    output.WriteLine(ListMmfFileInfo.Upgrade(path) ? $"{path}: converted to version 2" : $"{path}: version 2 already");
                }
            }

            return Cli.Success;
        });
        return command;
    }
}
