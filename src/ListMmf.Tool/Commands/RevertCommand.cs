using System.CommandLine;
using System.IO;

namespace ListMmf.Tool.Commands;

/// <summary>
/// <c>revert-to-flush FILE|TABLE...</c>: sets version 2 files, and the column files of tables, back to their last
/// flush (<see cref="ListMmfFileInfo.RevertToLastFlush"/>, <see cref="TimeSeriesTable.RevertToLastFlush"/>), for when
/// the page cache was lost without a reboot. A writer holding a file makes it fail with the lock's message.
/// </summary>
internal static class RevertCommand
{
    public static Command Create(TextWriter output)
    {
        var paths = new Argument<string[]>("FILE") { Description = "ListMmf files or table folders.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("revert-to-flush", "Set files back to their last flush, after their page cache was lost " +
            "without a reboot (a disk detached and attached again, a disk snapshot restored): the items published since " +
            "may not have reached the disk, and readers of the same boot would read them as zeros.") { paths };
        command.SetAction(parse =>
        {
            foreach (string path in parse.GetValue(paths)!)
            {
                output.WriteLine(Directory.Exists(path)
                    ? $"{path}: {TimeSeriesTable.RevertToLastFlush(path):N0} rows, as last flushed"
                    : $"{path}: {ListMmfFileInfo.RevertToLastFlush(path):N0} items, as last flushed");
            }

            return Cli.Success;
        });
        return command;
    }
}
