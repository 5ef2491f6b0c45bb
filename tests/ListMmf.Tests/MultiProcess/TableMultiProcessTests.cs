using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using ListMmf.TestHost;
using Xunit;
using Xunit.Abstractions;

namespace ListMmf.Tests.MultiProcess;

/// <summary>
/// A writer process appends a million rows to a four-column table while three reader processes poll it and check
/// every value of every row they see; and a writer killed in the middle of a row. Runs alone: its four processes
/// take both cores. The figures go to the test output and to LISTMMF_STRESS_REPORT (CI prints it).
/// </summary>
[Collection(nameof(LiveReaderStressTests))]
public sealed class TableMultiProcessTests : IDisposable
{
    private const long Rows = 1_000_000;
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(10);
    private readonly TempDirectory _directory = new();
    private readonly ITestOutputHelper _output;

    public TableMultiProcessTests(ITestOutputHelper output) => _output = output;

    public void Dispose() => _directory.Dispose();

    private string Folder => _directory.File("ticks");

    [Fact]
    public void ReadersOfATableBeingWrittenNeverSeeAPartialOrWrongRow()
    {
        string rows = Rows.ToString(CultureInfo.InvariantCulture);
        string seconds = Deadline.TotalSeconds.ToString(CultureInfo.InvariantCulture);
        string[] progress = Enumerable.Range(0, 3).Select(reader => _directory.File($"progress-{reader}.bt")).ToArray();
        using var writer = ChildProcess.Start(["table-write", Folder, rows, seconds, .. progress]);
        Assert.Equal("created", writer.ReadLine());
        var readers = progress.Select(path => ChildProcess.Start("table-read", Folder, rows, seconds, path)).ToList();
        try
        {
            // Every reader has the table open and is polling before the first row is added.
            Assert.All(readers, reader => Assert.Equal("open", reader.ReadLine()));
            writer.WriteLine("go");

            // The writer waits at each checkpoint until every reader has seen its rows, so an exit code of 0 means the
            // readers followed the table live, in at least one piece between two checkpoints.
            int writerExit = writer.WaitForExit(Deadline);
            string writerLine = writer.ReadLine() ?? "";
            Assert.True(writerExit == 0, $"writer exited with {writerExit}: {writerLine} {writer.ErrorText()}");
            string report = $"table stress, {Rows:N0} rows, 4 columns: writer {writerLine}";
            long partial = 0, wrong = 0, checkedRows = 0, views = 0;
            foreach (ChildProcess reader in readers)
            {
                int exit = reader.WaitForExit(Deadline);
                string line = reader.ReadLine() ?? "";
                report += $"{Environment.NewLine}  reader {line}";
                Assert.True(exit == 0, $"reader exited with {exit}: {line} {reader.ErrorText()}");
                partial += StressReport.Figure(line, "partial");
                wrong += StressReport.Figure(line, "wrong");
                checkedRows += StressReport.Figure(line, "rows");
                views += StressReport.Figure(line, "views");
            }

            report += $"{Environment.NewLine}  total: {checkedRows:N0} rows checked by 3 readers in {views:N0} polls that found new rows, {partial} partial, {wrong} wrong";
            StressReport.Publish(_output, report);
            Assert.Equal(3 * Rows, checkedRows);
            Assert.Equal(0, partial);
            Assert.Equal(0, wrong);

            // 64 KiB to 8 MiB: every value column doubled at least seven times under the readers.
            long[] lengths = Regex.Match(writerLine, @"lengths=([\d,]+)").Groups[1].Value.Split(',').Select(long.Parse).ToArray();
            Assert.All(lengths.Skip(1).Where((_, i) => i != 1), length => Assert.True(length >= 8 << 20, $"a column grew only to {length:N0} bytes"));
        }
        finally
        {
            readers.ForEach(reader => reader.Dispose());
        }
    }

    [Fact]
    public void AKilledWritersNextOpenTrimsTheColumnsToThePublishedRows()
    {
        KillWriterWithAStagedRow(5000);

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder);

        Assert.Equal(5000, table.RowCount);
        Assert.Equal(2, table.Repairs.Count);
        Assert.All(table.Repairs, line => Assert.Contains("1 value past the 5,000 published rows", line));
        Assert.True(TickTable.IsIntact(table, 4999));
        TickTable.AddRow(table, 5000);
        Assert.True(TickTable.IsIntact(table, 5000));
    }

    [Fact]
    public void AReaderAfterAKilledWriterSeesOnlyThePublishedRows()
    {
        KillWriterWithAStagedRow(5000);

        using TimeSeriesTable reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        using var price = new ListMmf<double>(Path.Combine(Folder, "price.mmf"), FileAccess.Read);

        Assert.Equal(5000, reader.RowCount);
        Assert.Equal(5001, price.Count);
        Assert.Throws<ArgumentOutOfRangeException>(() => reader.Column<double>("price")[5000]);
    }

    private void KillWriterWithAStagedRow(long rows)
    {
        using var writer = ChildProcess.Start("table-crash", Folder, rows.ToString(CultureInfo.InvariantCulture));
        Assert.Equal("staged", writer.ReadLine());
        writer.Kill();
    }
}
