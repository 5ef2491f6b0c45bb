using System;
using System.Globalization;

namespace ListMmf;

/// <summary>The periods of a catalog's partitions, in <see cref="DateTime"/> ticks: where one starts and ends, and its folder's name.</summary>
internal static class CatalogPeriods
{
    /// <summary>The start of the period that holds <paramref name="ticks"/>.</summary>
    public static long StartOf(long ticks, CatalogPeriod period)
    {
        if (period == CatalogPeriod.Day)
        {
            // Every index line is checked so: a day needs no calendar (the DateTime refuses ticks out of its range).
            return new DateTime(ticks).Ticks - (ticks % TimeSpan.TicksPerDay);
        }

        var time = new DateTime(ticks);
        return period switch
        {
            CatalogPeriod.Month => new DateTime(time.Year, time.Month, 1).Ticks,
            _ => new DateTime(time.Year, 1, 1).Ticks,
        };
    }

    /// <summary>
    /// The first tick past the period that starts at <paramref name="start"/>; past the last period, one past
    /// <see cref="DateTime.MaxValue"/>.
    /// </summary>
    public static long EndOf(long start, CatalogPeriod period)
    {
        if (period == CatalogPeriod.Day)
        {
            // The last day's end is one past DateTime.MaxValue too.
            return start + TimeSpan.TicksPerDay;
        }

        var time = new DateTime(start);
        bool last = time.Year == DateTime.MaxValue.Year && (period == CatalogPeriod.Year || (period == CatalogPeriod.Month && time.Month == 12));
        return last ? DateTime.MaxValue.Ticks + 1 : period switch
        {
            CatalogPeriod.Month => time.AddMonths(1).Ticks,
            _ => time.AddYears(1).Ticks,
        };
    }

    /// <summary>The name of the folder of the period that starts at <paramref name="start"/>.</summary>
    public static string NameOf(long start, CatalogPeriod period) => new DateTime(start).ToString(
        period switch
        {
            CatalogPeriod.Day => "yyyy-MM-dd",
            CatalogPeriod.Month => "yyyy-MM",
            _ => "yyyy",
        },
        CultureInfo.InvariantCulture);
}
