using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text.Json;

namespace ListMmf.TestHost;

/// <summary>
/// <c>tick-days DIR</c>: a folder of tick tables as a team spreads them over machines, one per instrument and day
/// (DIR/tables/SYMBOL-yyyy-MM-dd, <see cref="Symbols"/> × <see cref="Days"/>), and DIR/expected.json with each table's
/// tick count and VWAP computed here, for a distributed engine to match. Prices are quarter points and sizes whole, so
/// every price × size and every sum of them is exact in a double whatever the order of the additions: the VWAPs
/// match to the bit.
/// </summary>
public static class TickDays
{
    public const int Days = 6;

    public static readonly string[] Symbols = ["ES", "NQ", "CL", "GC"];

    public static readonly DateTime FirstDay = new(2024, 1, 2);

    public static int Write(string directory)
    {
        var figures = new SortedDictionary<string, DayFigures>(StringComparer.Ordinal);
        var random = new Random(20261125);
        for (int s = 0; s < Symbols.Length; s++)
        {
            for (int day = 0; day < Days; day++)
            {
                DateTime date = FirstDay.AddDays(day);
                string name = $"{Symbols[s]}-{date:yyyy-MM-dd}";
                int ticks = random.Next(20_000, 60_000);
                double pv = 0;
                long volume = 0;
                using TimeSeriesTable table = TimeSeriesTable.Create(Path.Combine(directory, "tables", name), TickTable.Schema());
                DateTime open = date.AddHours(14.5);
                double price = 1000 * (s + 2);
                for (int i = 0; i < ticks; i++)
                {
                    price += (random.Next(5) - 2) * 0.25;
                    int size = random.Next(1, 50);
                    table.Column<double>("price").Add(price);
                    table.Column<int>("size").Add(size);
                    table.Column<long>("sequence").Add(i);
                    table.AddRow(open.AddSeconds(i / 4));
                    pv += price * size;
                    volume += size;
                }

                table.Flush();
                figures[name] = new DayFigures(date.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture), ticks, pv / volume);
            }
        }

        File.WriteAllText(Path.Combine(directory, "expected.json"), JsonSerializer.Serialize(figures));
        Console.WriteLine($"wrote {figures.Count} tables ({Symbols.Length} symbols x {Days} days) into {Path.Combine(directory, "tables")}");
        return 0;
    }

    /// <summary>What one table's day comes to.</summary>
    /// <param name="Day">The day, yyyy-MM-dd.</param>
    /// <param name="Ticks">Its rows.</param>
    /// <param name="Vwap">sum(price × size) / sum(size).</param>
    public sealed record DayFigures(string Day, int Ticks, double Vwap);
}
