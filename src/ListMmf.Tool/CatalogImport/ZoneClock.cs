using System;
using System.Linq;

namespace ListMmf.Tool.CatalogImport;

/// <summary>Times read off a zone's clock (an exchange's), turned into UTC.</summary>
internal static class ZoneClock
{
    /// <summary>
    /// Turns <paramref name="times"/> (DateTime ticks, in order) from the clock of <paramref name="zone"/> into UTC, in
    /// place: a day's rows at most by one offset when its first and last time share it, the rows of a day the clocks
    /// change one by one, where a time the clocks show twice is taken at its first (daylight) offset, as Lean takes
    /// it, and a time they skip is refused. A longer span is cut into days, so that the clocks' changes between its
    /// ends are met.
    /// </summary>
    /// <returns>Null; or the first row refused and why (its text follows the row in a message), the times then half turned.</returns>
    public static (int Row, string Problem)? ToUtc(Span<long> times, TimeZoneInfo zone)
    {
        int start = 0;
        while (start < times.Length)
        {
            // A day of rows: the clocks change at most once in it, so one offset at both ends holds throughout.
            long dayEnd = times[start] + TimeSpan.TicksPerDay;
            int end = times[start..].IndexOfAnyInRange(dayEnd, long.MaxValue);
            end = end < 0 ? times.Length : start + end;
            if (ToUtc(times, start, end, zone) is { } refused)
            {
                return refused;
            }

            start = end;
        }

        return null;
    }

    /// <summary>Rows <paramref name="start"/> to <paramref name="end"/>, less than a day apart, into UTC.</summary>
    private static (int Row, string Problem)? ToUtc(Span<long> times, int start, int end, TimeZoneInfo zone)
    {
        var first = new DateTime(times[start], DateTimeKind.Unspecified);
        var last = new DateTime(times[end - 1], DateTimeKind.Unspecified);
        TimeSpan offset = zone.GetUtcOffset(first);
        if (offset == zone.GetUtcOffset(last) && !zone.IsAmbiguousTime(first) && !zone.IsAmbiguousTime(last))
        {
            foreach (ref long time in times[start..end])
            {
                time -= offset.Ticks;
            }

            return null;
        }

        for (int row = start; row < end; row++)
        {
            var local = new DateTime(times[row], DateTimeKind.Unspecified);
            if (zone.IsInvalidTime(local))
            {
                return (row, $"its time {local:yyyy-MM-dd HH:mm:ss.fff} is one the clocks of {zone.Id} skip that day");
            }

            TimeSpan at = zone.IsAmbiguousTime(local) ? zone.GetAmbiguousTimeOffsets(local).Max() : zone.GetUtcOffset(local);
            times[row] -= at.Ticks;
            if (row > 0 && times[row] < times[row - 1])
            {
                return (row, $"its time {local:yyyy-MM-dd HH:mm:ss.fff} comes before the row above's in UTC, where the clocks of " +
                    $"{zone.Id} went back");
            }
        }

        return null;
    }
}
