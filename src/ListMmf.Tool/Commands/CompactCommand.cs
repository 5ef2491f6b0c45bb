using System;
using System.CommandLine;
using System.IO;
using ListMmf.Tool.Files;

namespace ListMmf.Tool.Commands;

/// <summary>
/// <c>compact FILE...</c>: gives the unused space at the end of ListMmf files and table folders back to the file
/// system (<see cref="ListMmf{T}.TrimExcess"/>), for files that are complete. Readers keep working; a writer holding
/// a file makes its compaction fail with the lock's message.
/// </summary>
internal static class CompactCommand
{
    public static Command Create(TextWriter output)
    {
        var paths = new Argument<string[]>("FILE") { Description = "ListMmf files or table folders.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("compact", "Give the unused space at the end of ListMmf files back: each file then " +
            "takes what its items take, rounded up to 64 KiB. Appending later grows it again.") { paths };
        command.SetAction(parse =>
        {
            foreach (string path in parse.GetValue(paths)!)
            {
                long before = Lengths(path);
                if (Directory.Exists(path))
                {
                    using var table = TimeSeriesTable.Open(path);
                    table.TrimExcess();
                    table.Flush();
                }
                else
                {
                    Trim(path, ListMmfFileInfo.Read(path));
                }

                output.WriteLine($"{path}: {before:N0} -> {Lengths(path):N0} bytes");
            }

            return Cli.Success;
        });
        return command;
    }

    /// <summary>Trims one file through a list of an item type of its item size: trimming needs nothing but the size.</summary>
    private static void Trim(string path, ListMmfFileInfo info)
    {
        switch (info.ItemSize)
        {
            case 1: Trim<byte>(path); break;
            case 2: Trim<short>(path); break;
            case 3: Trim<Raw3>(path); break;
            case 4: Trim<int>(path); break;
            case 5: Trim<Raw5>(path); break;
            case 6: Trim<Raw6>(path); break;
            case 7: Trim<Raw7>(path); break;
            case 8: Trim<long>(path); break;
            case 16: Trim<Int128>(path); break;
            default:
                throw new DataException(info.DataType == DataType.Bit
                    ? $"'{path}' holds bits, which compact does not trim; call TrimExcess on the list in code."
                    : $"'{path}' holds {info.DataType} items, whose size the header does not record; " +
                        "call TrimExcess on the ListMmf of its struct in code.");
        }
    }

    private static void Trim<T>(string path)
        where T : unmanaged
    {
        using var list = new ListMmf<T>(path);
        list.TrimExcess();
        list.Flush();
    }

    /// <summary>The lengths of the file, or of the files in the folder.</summary>
    private static long Lengths(string path)
    {
        if (!Directory.Exists(path))
        {
            return new FileInfo(path).Length;
        }

        long total = 0;
        foreach (FileInfo file in new DirectoryInfo(path).EnumerateFiles())
        {
            total += file.Length;
        }

        return total;
    }
}
