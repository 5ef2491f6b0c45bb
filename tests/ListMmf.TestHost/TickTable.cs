using System;

namespace ListMmf.TestHost;

/// <summary>
/// The four-column tick table the table tests write and check, in this process or in child processes: every value
/// is a function of the row, so any reader can tell a complete row from a partial or wrong one.
/// </summary>
public static class TickTable
{
    public static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);

    public static TimeSeriesTableSchema Schema() =>
        new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual)
            .Add<double>("price")
            .Add<int>("size")
            .Add<long>("sequence");

    /// <summary>Three ticks per second.</summary>
    public static DateTime Time(long row) => Start.AddSeconds(row / 3);

    public static double Price(long row) => 4500 + ((row % 1000) * 0.25);

    public static int Size(long row) => (int)(row % 97) + 1;

    public static long Sequence(long row) => row * 7;

    /// <summary>Creates the table in <paramref name="folder"/> with rows 0 to <paramref name="rows"/> - 1 added one by one; the caller disposes the writer.</summary>
    public static TimeSeriesTable CreateWithRows(string folder, long rows)
    {
        TimeSeriesTable table = TimeSeriesTable.Create(folder, Schema());
        for (long row = 0; row < rows; row++)
        {
            AddRow(table, row);
        }

        return table;
    }

    /// <summary>Adds one row through the column handles.</summary>
    public static void AddRow(TimeSeriesTable table, long row)
    {
        table.Column<double>("price").Add(Price(row));
        table.Column<int>("size").Add(Size(row));
        table.Column<long>("sequence").Add(Sequence(row));
        table.AddRow(Time(row));
    }

    /// <summary>Adds <paramref name="count"/> rows from <paramref name="first"/> as one batch: a span per column, then the times.</summary>
    public static void AddRows(TimeSeriesTable table, long first, int count, double[] prices, int[] sizes, long[] sequences, int[] seconds)
    {
        for (int i = 0; i < count; i++)
        {
            long row = first + i;
            prices[i] = Price(row);
            sizes[i] = Size(row);
            sequences[i] = Sequence(row);
            seconds[i] = (int)((Time(row) - DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerSecond);
        }

        table.Column<double>("price").AddRange(prices.AsSpan(0, count));
        table.Column<int>("size").AddRange(sizes.AsSpan(0, count));
        table.Column<long>("sequence").AddRange(sequences.AsSpan(0, count));
        table.AddRows(seconds.AsSpan(0, count));
    }

    /// <summary>Whether the published row holds exactly what <see cref="AddRow"/> wrote.</summary>
    public static bool IsIntact(TimeSeriesTable table, long row) =>
        table.TimeAt(row) == Time(row)
        && table.Column<double>("price")[row] == Price(row)
        && table.Column<int>("size")[row] == Size(row)
        && table.Column<long>("sequence")[row] == Sequence(row);
}
