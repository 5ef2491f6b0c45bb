using System;
using System.Linq;

namespace ListMmf.Tool.CatalogImport;

/// <summary>Times read off a zone's clock (an exchange's), turned into UTC.</summary>
internal static class ZoneClock
{
    /// <summary>
    /// Turns <paramref name="times"/> (DateTime ticks, in order) from the clock of <paramref name="zone"/> into UTC, in
    /// place: by one offset when the first and last time share it, or row by row across a change of the clocks, where
    /// a time the clocks show twice is taken at its first (daylight) offset, as Lean takes it, and a time they skip is
    /// refused.
    /// </summary>
    /// <returns>Null; or the first row refused and why (its text follows the row in a message), the times then half turned.</returns>
    public static (int Row, string Problem)? ToUtc(Span<long> times, TimeZoneInfo zone)
    {
        if (times.IsEmpty)
        {
            return null;
        }

        TimeSpan first = zone.GetUtcOffset(new DateTime(times[0], DateTimeKind.Unspecified));
        TimeSpan last = zone.GetUtcOffset(new DateTime(times[^1], DateTimeKind.Unspecified));
        if (first == last && !zone.IsAmbiguousTime(new DateTime(times[0])) && !zone.IsAmbiguousTime(new DateTime(times[^1])))
        {
            for (int row = 0; row < times.Length; row++)
            {
                times[row] -= first.Ticks;
            }

            return null;
        }

        for (int row = 0; row < times.Length; row++)
        {
            var local = new DateTime(times[row], DateTimeKind.Unspecified);
            if (zone.IsInvalidTime(local))
            {
                return (row, $"its time {local:yyyy-MM-dd HH:mm:ss.fff} is one the clocks of {zone.Id} skip that day");
            }

            TimeSpan offset = zone.IsAmbiguousTime(local) ? zone.GetAmbiguousTimeOffsets(local).Max() : zone.GetUtcOffset(local);
            times[row] -= offset.Ticks;
            if (row > 0 && times[row] < times[row - 1])
            {
                return (row, $"its time {local:yyyy-MM-dd HH:mm:ss.fff} comes before the row above's in UTC, where the clocks of " +
                    $"{zone.Id} went back");
            }
        }

        return null;
    }
}
