using System;
using System.Globalization;

namespace ListMmf;

/// <summary>
/// How a time is shown in a message, by the library, its tool and ListMmf.Arrow alike: ISO-like and in the invariant
/// culture, so that a message reads the same on every machine (a custom format's ':' is otherwise the current
/// culture's time separator).
/// </summary>
internal static class TimeText
{
    /// <summary>To the 100 ns tick: <c>2024-01-02 09:30:00.1234567</c>.</summary>
    public static string Ticks(DateTime time) => time.ToString("yyyy-MM-dd HH:mm:ss.fffffff", CultureInfo.InvariantCulture);

    /// <summary>To the tick, from raw DateTime ticks.</summary>
    public static string Ticks(long ticks) => Ticks(new DateTime(ticks));

    /// <summary>To the second: <c>2024-01-02 09:30:00</c>.</summary>
    public static string Seconds(DateTime time) => time.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture);
}
