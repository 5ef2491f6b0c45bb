using System;
using System.CommandLine;
using System.Globalization;
using System.IO;
using ListMmf.Tool.Files;

namespace ListMmf.Tool.Commands;

/// <summary><c>info FILE...</c>: what a file's header says, and its first and last items.</summary>
internal static class InfoCommand
{
    public static Command Create(TextWriter output)
    {
        var paths = new Argument<string[]>("FILE") { Description = "ListMmf files or table folders.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("info", "Show the version, type, count, capacity and length of ListMmf files, with " +
            "their first and last items.") { paths };
        command.SetAction(parse =>
        {
            foreach (string path in parse.GetValue(paths)!)
            {
                if (Directory.Exists(path))
                {
                    Table(output, path);
                }
                else
                {
                    File(output, ListMmfFileInfo.Read(path));
                }
            }

            return Cli.Success;
        });
        return command;
    }

    private static void File(TextWriter output, ListMmfFileInfo info)
    {
        output.WriteLine(info.Path);
        string format = info.Version == 1 ? " (ListMmf 1.x's format)" : "";
        output.WriteLine($"  version {info.Version}{format}, data type {info.DataType} (code {(int)info.DataType}), " +
            $"{(info.ItemSize > 0 ? $"{info.ItemSize} bytes per item" : "item size not recorded")}");
        if (info.IsSealed)
        {
            long raw = info.Count * info.ItemSize;
            output.WriteLine($"  sealed (read-only, compressed in blocks of 1,024 items): count {info.Count:N0}, file " +
                $"{info.FileLength:N0} bytes for {raw:N0} raw bytes ({(double)info.FileLength / Math.Max(1, info.Count):N3} bytes per item)");
        }
        else
        {
            output.WriteLine($"  count {info.Count:N0}, capacity " +
                $"{(info.Capacity >= 0 ? info.Capacity.ToString("N0", CultureInfo.InvariantCulture) : "unknown")}, file {info.FileLength:N0} bytes");
        }

        if (info.Version == 2)
        {
            output.WriteLine($"  durable count {info.DurableCount:N0} (what a power loss keeps), items from byte {info.ItemsOffset:N0}");
        }

        ListMmfDescription? description = ListMmfDescription.Read(info.Path);
        if (description is not null)
        {
            output.WriteLine($"  described as {description.ItemType}, {description.ItemSize} bytes per item" +
                (description.Order is { } order ? $", {order}, times {(description.TimesAreUtc ? "UTC" : "of no recorded zone")}" : ""));
            foreach (ListMmfField field in description.Fields)
            {
                output.WriteLine($"  field {field.Name}: {field.Type}, {field.Size} bytes at offset {field.Offset}");
            }
        }

        bool unshown = (info.DataType == DataType.AnyStruct && description is null) || (info.IsSealed && !DataTypeInfo.Of(info.DataType).IsNumber);
        if (info.Count == 0 || unshown)
        {
            return;
        }

        using ColumnView column = ColumnView.Open(info.Path, info.Path, info.DataType, description?.TimesAreUtc == true);

        // The header's count as read above (a writer may have added since); a bit file's header counts words.
        long count = info.DataType == DataType.Bit ? column.Count : Math.Min(column.Count, info.Count);
        output.WriteLine($"  first {column.Format(0)}, last {column.Format(count - 1)}");
        if (column.IsTime && count > 1)
        {
            double days = (column.TimeAt(count - 1) - column.TimeAt(0)).TotalDays;
            output.WriteLine(days > 0 ? $"  {count / days:N1} items per day over {days:N2} days" : "  every item at the same time");
        }
    }

    private static void Table(TextWriter output, string path)
    {
        using var table = TimeSeriesTable.Open(path, FileAccess.Read);
        output.WriteLine(table.Path);
        output.WriteLine($"  table of {table.RowCount:N0} rows, {table.Schema.Order}, time column " +
            $"'{table.Schema.Time.Name}' ({table.Schema.Time.DataType})");
        foreach (TableColumn column in table.Columns)
        {
            string stored = column is TextColumn text
                ? $"Text ({column.DataType} codes, {text.EntryCount:N0} distinct values), " +
                    $"{System.IO.Path.GetFileName(column.Path)} and {System.IO.Path.GetFileName(text.EntriesPath)}"
                : $"{column.DataType}, {System.IO.Path.GetFileName(column.Path)}";
            output.WriteLine($"  column {column.Name}: {stored}" +
                (column.IsSealed ? $", sealed ({new FileInfo(column.Path).Length:N0} bytes)" : ""));
        }

        if (table.RowCount > 0)
        {
            bool ticks = table.Schema.Time.DataType == DataType.DateTime;
            output.WriteLine($"  first {Times.Format(table.TimeAt(0), ticks)}, last {Times.Format(table.TimeAt(table.RowCount - 1), ticks)}");
        }
    }
}
