using System;
using System.Linq;

namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// A generated market for the catalog benchmark: each instrument's trades over some days, times on a grid of one
/// second through a 6.5-hour session (so that many instruments trade in the same second, and an instrument several
/// times in one), a random-walk price and a size. Every series is in time order; instrument i is the catalog's
/// ordinal i. A busy first instrument (<c>busy</c> above 1) trades that many times as often as the others, as one
/// active name among many quiet ones does.
/// </summary>
internal sealed class CatalogMarket
{
    public static readonly DateTime FirstDay = new(2024, 1, 2);

    private const int SessionSeconds = 23_400;

    public CatalogMarket(int instruments, int days, int rowsPerDay, int busy = 1, int seed = 67)
    {
        var random = new Random(seed);
        Names = new string[instruments];
        Times = new long[instruments][];
        Prices = new double[instruments][];
        Sizes = new int[instruments][];
        for (int i = 0; i < instruments; i++)
        {
            Names[i] = $"S{i:D4}";
            int rowsADay = i == 0 ? rowsPerDay * busy : rowsPerDay;
            var times = new long[days * rowsADay];
            var prices = new double[times.Length];
            var sizes = new int[times.Length];
            double price = 20 + random.Next(200);
            for (int day = 0; day < days; day++)
            {
                long open = FirstDay.AddDays(day).AddHours(9.5).Ticks;
                int[] seconds = new int[rowsADay];
                for (int r = 0; r < rowsADay; r++)
                {
                    seconds[r] = random.Next(SessionSeconds);
                }

                Array.Sort(seconds);
                for (int r = 0; r < rowsADay; r++)
                {
                    int at = (day * rowsADay) + r;
                    times[at] = open + (seconds[r] * TimeSpan.TicksPerSecond);
                    price = Math.Max(1, price + ((random.Next(21) - 10) * 0.01));
                    prices[at] = Math.Round(price, 2);
                    sizes[at] = 1 + random.Next(500);
                }
            }

            Times[i] = times;
            Prices[i] = prices;
            Sizes[i] = sizes;
        }
    }

    public string[] Names { get; }

    /// <summary>Each instrument's times, in ticks.</summary>
    public long[][] Times { get; }

    public double[][] Prices { get; }

    public int[][] Sizes { get; }

    public long Rows => Times.Sum(times => (long)times.Length);
}
