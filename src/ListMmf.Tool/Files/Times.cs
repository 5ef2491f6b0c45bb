using System;
using System.Globalization;

namespace ListMmf.Tool.Files;

/// <summary>How the tool reads times from the command line and shows stored times.</summary>
internal static class Times
{
    /// <summary>
    /// A time given on the command line: ISO 8601 (<c>2024-01-02T09:30:00</c>, a space for the T, a fraction of a
    /// second). Times are as stored, with no time zone; a time with an offset or Z is converted to UTC.
    /// </summary>
    public static DateTime Parse(string text, string option) =>
        DateTime.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out DateTime time)
            ? DateTime.SpecifyKind(time, DateTimeKind.Unspecified)
            : throw new UsageException($"{option} '{text}' is not a time; give one as 2024-01-02T09:30:00 (a fraction of a second allowed).");

    /// <summary>A stored time: to the second for a seconds series, to the tick for a ticks series.</summary>
    public static string Format(DateTime time, bool ticks) =>
        time.ToString(ticks ? "yyyy-MM-dd HH:mm:ss.fffffff" : "yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture);
}
