using System;
using System.Globalization;

namespace ListMmf.Tool.Files;

/// <summary>How the tool reads times from the command line and shows stored times.</summary>
internal static class Times
{
    /// <summary>A date, with a time of day to the minute, second or 100 ns, then an offset or Z (K) if any.</summary>
    private static readonly string[] Formats =
    [
        "yyyy-MM-ddK", "yyyy-MM-dd'T'HH:mmK", "yyyy-MM-dd'T'HH:mm:ssK", "yyyy-MM-dd'T'HH:mm:ss.FFFFFFFK",
        "yyyy-MM-dd HH:mmK", "yyyy-MM-dd HH:mm:ssK", "yyyy-MM-dd HH:mm:ss.FFFFFFFK",
    ];

    /// <summary>
    /// A time given on the command line: a date and time of day (<c>2024-01-02T09:30:00</c>, a space for the T, a
    /// fraction of a second), taken as stored (as UTC for times recorded as UTC); or Unix seconds
    /// (<c>1704187800</c>), the stored time they count to. A time with an offset or Z is converted to UTC, for times
    /// recorded as UTC only: other times have no zone to convert to.
    /// </summary>
    /// <exception cref="UsageException">Not a time in these forms, or an offset given for times not recorded as UTC.</exception>
    public static DateTime Parse(string text, string option, bool timesAreUtc)
    {
        if (long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long seconds))
        {
            return seconds >= UnixSecondsMin && seconds <= UnixSecondsMax
                ? AsStored(DateTime.UnixEpoch.AddSeconds(seconds), timesAreUtc)
                : throw new UsageException($"{option} '{text}' is outside the Unix seconds a DateTime can hold.");
        }

        if (!DateTime.TryParseExact(text, Formats, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal, out DateTime time))
        {
            throw new UsageException($"{option} '{text}' is not a time; give a date and time as 2024-01-02T09:30:00 (a " +
                "fraction of a second allowed), or Unix seconds.");
        }

        if (time.Kind == DateTimeKind.Utc && !timesAreUtc)
        {
            throw new UsageException($"{option} '{text}' has a time zone, but the times searched are clock times of no " +
                "recorded zone; give the time as stored, without an offset or Z.");
        }

        return AsStored(time, timesAreUtc);
    }

    /// <summary>A time of the kind the times searched take: Utc for times recorded as UTC, else Unspecified.</summary>
    private static DateTime AsStored(DateTime time, bool timesAreUtc) =>
        DateTime.SpecifyKind(time, timesAreUtc ? DateTimeKind.Utc : DateTimeKind.Unspecified);

    /// <summary>A stored time: to the second for a seconds series, to the tick for a ticks series.</summary>
    public static string Format(DateTime time, bool ticks) => ticks ? TimeText.Ticks(time) : TimeText.Seconds(time);

    private static long UnixSecondsMin => (DateTime.MinValue - DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerSecond;

    private static long UnixSecondsMax => (DateTime.MaxValue - DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerSecond;
}
