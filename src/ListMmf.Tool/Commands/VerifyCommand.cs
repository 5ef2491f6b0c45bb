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
                    else if (SealedListMmf.IsSealed(path))
                    {
                        VerifySealed(output, path);
                    }
                    else
                    {
                        VerifyFile(output, path, ListMmfFileInfo.Read(path).DataType, ListMmfDescription.Read(path)?.Order);
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
    /// Each column file as <see cref="VerifyFile"/> or <see cref="VerifySealed"/> checks it, the time column in the
    /// table's own order (a sealed one through the table, as its file records no order); opening the table has checked
    /// that every value column holds its rows.
    /// </summary>
    private static void VerifyTable(TextWriter output, string path)
    {
        using var table = TimeSeriesTable.Open(path, FileAccess.Read);
        foreach (TableColumn column in table.Columns)
        {
            if (column.IsSealed)
            {
                VerifySealed(output, column.Path);
            }
            else
            {
                VerifyFile(output, column.Path, column.DataType, table.Schema.Order);
            }
        }

        if (table.Columns[0].IsSealed)
        {
            table.Verify();
        }

        output.WriteLine($"OK     {table.Path}: table of {table.RowCount:N0} rows, {table.Columns.Count} columns");
    }

    /// <summary>
    /// The header, every item read through the file, the time order (<paramref name="order"/>: the table's, or the
    /// one the file's description records; non-decreasing is asked of a file that records none), and the XXH3 of the
    /// items. A struct file without a description has only its header checked: nothing records its item size.
    /// </summary>
    private static void VerifyFile(TextWriter output, string path, DataType dataType, TimeSeriesOrder? order)
    {
        if (dataType == DataType.AnyStruct && ListMmfDescription.Read(path) is null)
        {
            ListMmfFileInfo info = ListMmfFileInfo.Read(path);
            output.WriteLine($"OK     {path}: header of {info.Count:N0} AnyStruct items; the items were not read, as the file " +
                $"records no item size (it has no {ListMmfDescription.FileSuffix} description)");
            return;
        }

        using ColumnView column = ColumnView.Open(path, path, dataType);
        ProgressBar.Run($"verifying {Path.GetFileName(path)}", show: new FileInfo(path).Length > ProgressBar.LargeFileBytes, report =>
        {
            IProgress<double>? progress = report is null ? null : new ActionProgress(fraction => report((long)(fraction * 1000), 1000));
            switch (dataType)
            {
                case DataType.UnixSeconds:
                    using (var series = ListMmfTimeSeriesDateTimeSeconds.OpenRead(path, order ?? TimeSeriesOrder.AscendingOrEqual))
                    {
                        series.Verify(progress);
                    }

                    break;
                case DataType.DateTime:
                    using (var series = ListMmfTimeSeriesDateTime.OpenRead(path, order ?? TimeSeriesOrder.AscendingOrEqual))
                    {
                        series.Verify(progress);
                    }

                    break;
                default:
                    column.Verify(progress);
                    break;
            }

            return 0;
        });

        output.WriteLine($"OK     {path}: {column.Count:N0} {dataType} items, {column.Fingerprint}");
    }

    /// <summary>
    /// A sealed file: its header and directory (checked at the open), every block's checksum and decoding, and the XXH3
    /// of the decoded items, the fingerprint the file had before it was sealed.
    /// </summary>
    private static void VerifySealed(TextWriter output, string path)
    {
        DataType dataType = ListMmfFileInfo.Read(path).DataType;
        using ColumnView column = ColumnView.Open(path, path, dataType);
        ProgressBar.Run($"verifying {Path.GetFileName(path)}", show: new FileInfo(path).Length > ProgressBar.LargeFileBytes, report =>
        {
            column.Verify(report is null ? null : new ActionProgress(fraction => report((long)(fraction * 1000), 1000)));
            return 0;
        });
        output.WriteLine($"OK     {path}: {column.Count:N0} {dataType} items, sealed, every block's checksum, {column.Fingerprint}");
    }

    /// <summary>Reports on the calling thread (<see cref="Progress{T}"/> would post to the thread pool).</summary>
    private sealed class ActionProgress(Action<double> report) : IProgress<double>
    {
        public void Report(double value) => report(value);
    }
}
