using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading;

namespace ListMmf.TestHost;

/// <summary>
/// The table tests' child processes, over a <see cref="TickTable"/>:
/// <list type="bullet">
/// <item><c>table-write DIR ROWS SECONDS PROGRESS...</c>: creates the table, prints "created", waits for a line on standard
/// input (the readers are open), then appends ROWS rows, one at a time and in batches of varying size, so that every
/// column grows many times; at each of <see cref="Checkpoints"/> points it waits until every reader's PROGRESS file
/// shows it has seen the rows so far (for SECONDS at most), so that the readers follow the table in many pieces
/// however the two cores are shared; prints the column file lengths.</item>
/// <item><c>table-read DIR ROWS SECONDS PROGRESS</c>: opens the table (waiting for it to be created), creates its
/// PROGRESS file (a list of the row counts it has seen), prints "open", then polls the table until it has seen ROWS
/// rows, checking every value of every row it sees; prints what it counted, with the number of polls that found new
/// rows.</item>
/// <item><c>table-crash DIR ROWS</c>: creates the table, adds ROWS rows, stores values of the next row in two of
/// the three value columns, prints "staged" and waits to be killed.</item>
/// </list>
/// </summary>
public static class Tables
{
    /// <summary>Points in a table-write where the writer waits for every reader to have seen its rows.</summary>
    public const int Checkpoints = 40;

    public static int Write(string directory, long rows, string[] progressPaths, TimeSpan timeout)
    {
        var random = new Random(1);
        var prices = new double[4096];
        var sizes = new int[4096];
        var sequences = new long[4096];
        var seconds = new int[4096];
        using TimeSeriesTable table = TimeSeriesTable.Create(directory, TickTable.Schema());
        Console.WriteLine("created");
        Console.Out.Flush();
        Console.In.ReadLine();
        var clock = Stopwatch.StartNew();
        ListMmf<long>[] progress = progressPaths.Select(path => new ListMmf<long>(path, FileAccess.Read)).ToArray();
        long row = 0;
        long step = Math.Max(rows / Checkpoints, 1);
        long checkpoint = step;
        while (row < rows)
        {
            if (row >= checkpoint)
            {
                if (!AllHaveSeen(progress, row, clock, timeout))
                {
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"rows={row}: the readers did not see them within {timeout.TotalSeconds:N0} s"));
                    return 3;
                }

                checkpoint += step;
            }

            if (random.Next(2) == 0)
            {
                TickTable.AddRow(table, row++);
                continue;
            }

            int count = (int)Math.Min(random.Next(1, prices.Length), rows - row);
            TickTable.AddRows(table, row, count, prices, sizes, sequences, seconds);
            row += count;
        }

        string lengths = string.Join(",", table.Columns.Select(column => new FileInfo(column.Path).Length));
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"rows={table.RowCount} lengths={lengths}"));
        Array.ForEach(progress, list => list.Dispose());
        return 0;
    }

    public static int Read(string directory, long rows, TimeSpan timeout, string progressPath)
    {
        var clock = Stopwatch.StartNew();
        using TimeSeriesTable table = OpenWhenCreated(directory, clock, timeout);
        using var progress = new ListMmf<long>(progressPath);
        Console.WriteLine("open");
        Console.Out.Flush();
        long seen = 0, polls = 0, views = 0, partial = 0, wrong = 0;
        while (seen < rows && clock.Elapsed < timeout)
        {
            IndexRange range = table.RowsSince(seen);
            polls++;
            if (range.IsEmpty)
            {
                Thread.Yield();
                continue;
            }

            views++;
            ReadOnlySpan<double> prices = table.Column<double>("price").AsSpan(range);
            ReadOnlySpan<int> sizes = table.Column<int>("size").AsSpan(range);
            ReadOnlySpan<long> sequences = table.Column<long>("sequence").AsSpan(range);
            ReadOnlySpan<int> seconds = table.Column<int>("time").AsSpan(range);
            for (int i = 0; i < prices.Length; i++)
            {
                long row = range.Start + i;

                // A value still zero is one the writer had not stored: a partial row. Any other difference is a wrong value.
                bool unwritten = prices[i] == 0 || sizes[i] == 0 || (sequences[i] == 0 && row != 0) || seconds[i] == 0;
                bool intact = prices[i] == TickTable.Price(row) && sizes[i] == TickTable.Size(row) && sequences[i] == TickTable.Sequence(row)
                    && UnixTime(seconds[i]) == TickTable.Time(row);
                partial += !intact && unwritten ? 1 : 0;
                wrong += !intact && !unwritten ? 1 : 0;
            }

            seen = range.End;
            progress.Add(seen);
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"rows={seen} polls={polls} views={views} partial={partial} wrong={wrong}"));
        return seen >= rows ? (partial + wrong == 0 ? 0 : 1) : 2;
    }

    /// <summary>Whether every reader's last reported count reached <paramref name="rows"/> before the deadline (polled, no sleep).</summary>
    private static bool AllHaveSeen(ListMmf<long>[] progress, long rows, Stopwatch clock, TimeSpan timeout)
    {
        while (!progress.All(list => list.Count > 0 && list[list.Count - 1] >= rows))
        {
            if (clock.Elapsed > timeout)
            {
                return false;
            }

            Thread.Yield();
        }

        return true;
    }

    public static int Crash(string directory, long rows)
    {
        using TimeSeriesTable table = TimeSeriesTable.Create(directory, TickTable.Schema());
        for (long row = 0; row < rows; row++)
        {
            TickTable.AddRow(table, row);
        }

        table.Column<double>("price").Add(TickTable.Price(rows));
        table.Column<int>("size").Add(TickTable.Size(rows));
        Console.WriteLine("staged");
        Console.Out.Flush();
        Console.In.ReadToEnd();
        return 0;
    }

    private static DateTime UnixTime(int seconds) => DateTime.UnixEpoch.AddSeconds(seconds);

    /// <summary>A table has no manifest until it is created; a reader started beside its writer waits for it.</summary>
    private static TimeSeriesTable OpenWhenCreated(string directory, Stopwatch clock, TimeSpan timeout)
    {
        while (true)
        {
            try
            {
                return TimeSeriesTable.Open(directory, FileAccess.Read);
            }
            catch (FileNotFoundException) when (clock.Elapsed < timeout)
            {
                Thread.Sleep(1);
            }
        }
    }
}
