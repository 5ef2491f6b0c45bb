using System;

namespace ListMmf.TestHost;

/// <summary>
/// A tick table with a text column, for the checks of text under a crash and a power loss: every value a function of
/// the row, and the text column taking a new value every 60 rows (each a flush of its values' file before its row),
/// the rows between repeating the latest few.
/// </summary>
public static class TextTickTable
{
    public static TimeSeriesTableSchema Schema() =>
        new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual)
            .AddText("venue", DataType.UInt16)
            .Add<int>("size");

    /// <summary>The row's venue: "venue N", N = row / 60 less 0 to 2, so values first appear at every 60th row and then repeat.</summary>
    public static string Venue(long row) => "venue " + Math.Max(0, (row / 60) - (row % 3));

    public static void AddRow(TimeSeriesTable table, long row)
    {
        table.Text("venue").Add(Venue(row));
        table.Column<int>("size").Add(TickTable.Size(row));
        table.AddRow(TickTable.Time(row));
    }

    /// <summary>Whether the published row holds exactly what <see cref="AddRow"/> wrote.</summary>
    public static bool IsIntact(TimeSeriesTable table, long row) =>
        table.TimeAt(row) == TickTable.Time(row)
        && table.Text("venue")[row] == Venue(row)
        && table.Column<int>("size")[row] == TickTable.Size(row);
}
