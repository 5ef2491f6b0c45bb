using System;
using System.Globalization;

namespace ListMmf;

/// <summary>
/// How a time is shown in a message, by the library, its tool and ListMmf.Arrow alike: ISO-like and in the invariant
/// culture, so that a message reads the same on every machine (a custom format's ':' is otherwise the current
/// culture's time separator). A time of <see cref="DateTimeKind.Utc"/> ends with Z, so that a UTC time is never read
/// as a clock time of no zone.
/// </summary>
internal static class TimeText
{
    /// <summary>To the 100 ns tick: <c>2024-01-02 09:30:00.1234567</c>, or <c>2024-01-02 09:30:00.1234567Z</c>.</summary>
    public static string Ticks(DateTime time) => time.ToString("yyyy-MM-dd HH:mm:ss.fffffff", CultureInfo.InvariantCulture) + Zone(time);

    /// <summary>To the tick, from raw DateTime ticks.</summary>
    public static string Ticks(long ticks) => Ticks(new DateTime(ticks));

    /// <summary>To the second: <c>2024-01-02 09:30:00</c>, or <c>2024-01-02 09:30:00Z</c>.</summary>
    public static string Seconds(DateTime time) => time.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) + Zone(time);

    private static string Zone(DateTime time) => time.Kind == DateTimeKind.Utc ? "Z" : "";
}
