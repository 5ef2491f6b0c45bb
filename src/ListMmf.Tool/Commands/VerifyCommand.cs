using System;
using System.CommandLine;
using System.IO;
using ListMmf.Tool.Files;

namespace ListMmf.Tool.Commands;

/// <summary>
/// <c>verify FILE...</c>: the header, every item readable through the file, the order of time series (the first
/// violation with its index and both times), and the XXH3 of the items. Exit code 1 if any file has a problem.
/// </summary>
internal static class VerifyCommand
{
    public static Command Create(TextWriter output)
    {
        var paths = new Argument<string[]>("FILE") { Description = "ListMmf files or table folders.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("verify", "Check ListMmf files: header, readable items, time order, and the XXH3 of " +
            "the items; exit code 1 on any problem.") { paths };
        command.SetAction(parse =>
        {
            int result = Cli.Success;
            foreach (string path in parse.GetValue(paths)!)
            {
                try
                {
                    if (Directory.Exists(path))
                    {
                        VerifyTable(output, path);
                    }
                    else
                    {
                        DataType dataType = ListMmfFileInfo.Read(path).DataType;
                        TimeSeriesOrder? order = DataTypeInfo.Of(dataType).IsTime
                            ? ListMmfDescription.Read(path)?.Order ?? TimeSeriesOrder.AscendingOrEqual
                            : null;
                        VerifyColumn(output, path, dataType, order);
                    }
                }
                catch (Exception exception) when (exception is IOException or DataException)
                {
                    output.WriteLine($"FAILED {path}: {exception.Message.ReplaceLineEndings(" ")}");
                    result = Cli.BadData;
                }
            }

            return result;
        });
        return command;
    }

    /// <summary>
    /// Each column file as <see cref="VerifyColumn"/> checks it, the time column in the table's own order and the
    /// value columns in none (a DateTime value is a value, not a key); opening the table has checked that every value
    /// column holds its rows.
    /// </summary>
    internal static void VerifyTable(TextWriter output, string path)
    {
        using var table = TimeSeriesTable.Open(path, FileAccess.Read);
        for (int i = 0; i < table.Columns.Count; i++)
        {
            TableColumn column = table.Columns[i];
            VerifyColumn(output, column.Path, column.DataType, i == 0 ? table.Schema.Order : null);
            if (column is TextColumn text)
            {
                VerifyColumn(output, text.EntriesPath, DataType.Byte, order: null);
                VerifyText(output, table, text);
            }
        }

        output.WriteLine($"OK     {table.Path}: table of {table.RowCount:N0} rows, {table.Columns.Count} columns");
    }

    /// <summary>
    /// A file in either form: the header (and a sealed file's directory), every item read through the file (every
    /// block's checksum and decoding), the time order where <paramref name="order"/> is given, and the XXH3 of the
    /// items, which a seal keeps. A struct file without a description has only its header checked: nothing records
    /// its item size.
    /// </summary>
    private static void VerifyColumn(TextWriter output, string path, DataType dataType, TimeSeriesOrder? order)
    {
        if (dataType == DataType.AnyStruct && ListMmfDescription.Read(path) is null)
        {
            ListMmfFileInfo info = ListMmfFileInfo.Read(path);
            output.WriteLine($"OK     {path}: header of {info.Count:N0} AnyStruct items; the items were not read, as the file " +
                $"records no item size (it has no {ListMmfDescription.FileSuffix} description)");
            return;
        }

        bool isSealed = SealedListMmf.IsSealed(path);
        using ColumnView column = ColumnView.Open(path, path, dataType);
        ProgressBar.Run($"verifying {Path.GetFileName(path)}", show: new FileInfo(path).Length > ProgressBar.LargeFileBytes, report =>
        {
            IProgress<double>? progress = report is null ? null : new ActionProgress(fraction => report((long)(fraction * 1000), 1000));
            if (order is { } kept)
            {
                using IReadOnlyTimeSeries times = TimeSeriesFile.OpenRead(path, kept);
                times.Verify(progress);
            }
            else
            {
                column.Verify(progress);
            }

            return 0;
        });

        string form = isSealed ? ", sealed, every block's checksum" : "";
        output.WriteLine($"OK     {path}: {column.Count:N0} {dataType} items{form}, {column.Fingerprint}");
    }

    /// <summary>Every row of a text column read as its value, which refuses a damaged value or a code no value has.</summary>
    private static void VerifyText(TextWriter output, TimeSeriesTable table, TextColumn text)
    {
        var values = new string[1 << 16];
        for (long start = 0; start < table.RowCount; start += values.Length)
        {
            var rows = new IndexRange(start, Math.Min(table.RowCount, start + values.Length));
            text.CopyTo(rows, values);
        }

        output.WriteLine($"OK     {text.Path}: text column '{text.Name}', every row's code one of its {text.EntryCount:N0} values");
    }

    /// <summary>Reports on the calling thread (<see cref="Progress{T}"/> would post to the thread pool).</summary>
    private sealed class ActionProgress(Action<double> report) : IProgress<double>
    {
        public void Report(double value) => report(value);
    }
}
