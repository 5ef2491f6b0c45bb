using System;
using System.IO;
using System.Linq;
using Xunit;
using static ListMmf.TestHost.Program;

namespace ListMmf.Tests.MultiProcess;

/// <summary>
/// A reader open while another process seals its list or table, unseals it, and a writer appends: every item the
/// reader reads is right throughout, and it sees the appends.
/// </summary>
public sealed class SealMultiProcessTests : IDisposable
{
    private const int Items = 100_000;
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(2);
    private static readonly DateTime Start = new(2024, 1, 2, 14, 30, 0, DateTimeKind.Utc);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void AListReaderReadsEveryItemRightWhileAnotherProcessSealsUnsealsAndAppends()
    {
        string path = _directory.File("values.bt");
        using (var writer = new ListMmf<long>(path))
        {
            for (long i = 0; i < Items; i++)
            {
                writer.Add(ValueAt(i));
            }
        }

        using var reader = new ListMmf<long>(path, FileAccess.Read);
        Assert.Equal(Items, CheckedItems(reader));

        Assert.Equal("1", RunChild("seal", path));
        Assert.Equal(Items, CheckedItems(reader));

        Assert.Equal("1", RunChild("unseal", path));
        Assert.Equal(Items, CheckedItems(reader));
        RunChild("flush", path);

        Polling.Until(() => reader.Count == Items + 10_000, "the reader to see the appended items", Deadline);
        Assert.Equal(Items + 10_000, CheckedItems(reader));
    }

    [Fact]
    public void ASealedListReaderReadsEveryItemRightWhileAnotherProcessUnsealsAppendsAndSealsAgain()
    {
        string path = _directory.File("values.bt");
        using (var writer = new ListMmf<long>(path))
        {
            for (long i = 0; i < Items; i++)
            {
                writer.Add(ValueAt(i));
            }
        }

        Assert.Equal("1", RunChild("seal", path));
        using var reader = new SealedListMmf<long>(path);
        Assert.Equal(Items, CheckedItems(reader));

        Assert.Equal("1", RunChild("unseal", path));
        RunChild("flush", path);
        Polling.Until(() => reader.Count == Items + 10_000, "the sealed reader to see the items appended after the unseal", Deadline);
        Assert.Equal(Items + 10_000, CheckedItems(reader));

        Assert.Equal("1", RunChild("seal", path));
        Assert.Equal(Items + 10_000, CheckedItems(reader));
    }

    [Fact]
    public void ATableReaderAnswersAsBeforeWhileAnotherProcessSealsAndUnsealsAndSeesTheNextRow()
    {
        string folder = _directory.File("ticks");
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual) { TimesAreUtc = true }
            .Add<long>("value");
        using (var writer = TimeSeriesTable.Create(folder, schema))
        {
            for (int row = 0; row < Items; row++)
            {
                writer.Column<long>("value").Add(ValueAt(row));
                writer.AddRow(Start.AddSeconds(row / 3));
            }
        }

        using var reader = TimeSeriesTable.Open(folder, FileAccess.Read);
        string before = Answers(reader);

        Assert.Equal("2", RunChild("seal", folder));
        Assert.Equal(before, Answers(reader));
        Assert.Equal("2", RunChild("unseal", folder));
        Assert.Equal(before, Answers(reader));
        using (var writer = TimeSeriesTable.Open(folder))
        {
            writer.Column<long>("value").Add(ValueAt(Items));
            writer.AddRow(Start.AddDays(1));
        }

        Polling.Until(() => reader.RowCount == Items + 1, "the reader to see the appended row", Deadline);
        Assert.Equal(ValueAt(Items), reader.Column<long>("value")[Items]);
        Assert.Equal(Items, reader.LowerBound(Start.AddDays(1)));
    }

    /// <summary>Checks every item against <see cref="ValueAt"/>, returning how many were right; fails at the first wrong one.</summary>
    private static long CheckedItems(IReadOnlyListMmf<long> list)
    {
        long count = list.Count;
        for (long i = 0; i < count; i++)
        {
            Assert.True(list[i] == ValueAt(i), $"item {i:N0} is {list[i]}, not {ValueAt(i)}");
        }

        return count;
    }

    /// <summary>The table's rows, a value sum, and searches over its whole time range, as one text to compare.</summary>
    private static string Answers(TimeSeriesTable table)
    {
        long[] values = new long[(int)table.RowCount];
        table.Column<long>("value").CopyTo(new IndexRange(0, values.Length), values);
        long sum = values.Aggregate(0L, (total, value) => unchecked(total + value));
        string searches = string.Join(' ', Enumerable.Range(-1, 200).Select(i => Start.AddSeconds(i * 173))
            .Select(time => $"{table.LowerBound(time)}/{table.LastAtOrBefore(time)}"));
        return $"{table.RowCount} {sum} {table.TimeAt(table.RowCount - 1):O} {table.Column<long>("value")[Items - 1]} {searches}";
    }

    /// <summary>Runs a child to its end, requires exit code 0, and returns its first line.</summary>
    private static string RunChild(params string[] args)
    {
        using var child = ChildProcess.Start(args);
        int exit = child.WaitForExit(Deadline);
        string line = child.ReadLine() ?? "";
        Assert.True(exit == 0, $"'{string.Join(' ', args)}' exited with {exit}: {line} {child.ErrorText()}");
        return line;
    }
}
