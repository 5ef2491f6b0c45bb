using System;

namespace ListMmf;

/// <summary>Unix seconds on the DateTime's own clock: no time-zone conversion, the Kind ignored.</summary>
internal static class UnixTime
{
    private static readonly long EpochTicks = DateTime.UnixEpoch.Ticks;

    /// <summary>The whole seconds since 1970-01-01 00:00:00 at or before <paramref name="time"/> (rounded toward minus infinity).</summary>
    public static long FloorSeconds(DateTime time, out bool whole)
    {
        long ticks = time.Ticks - EpochTicks;
        long seconds = Math.DivRem(ticks, TimeSpan.TicksPerSecond, out long remainder);
        whole = remainder == 0;
        return remainder < 0 ? seconds - 1 : seconds;
    }

    /// <summary>
    /// The key ListMmf 1.x stores for <see cref="DateTime.MinValue"/> in a seconds file (its
    /// ToUnixSeconds and FromUnixSecondsToDateTime map the two to each other); it never stands for 1901-12-13 20:45:52.
    /// </summary>
    public const int MinValueKey = int.MinValue;

    public static DateTime FromSeconds(int seconds) =>
        seconds == MinValueKey ? DateTime.MinValue : new(EpochTicks + (seconds * TimeSpan.TicksPerSecond), DateTimeKind.Unspecified);
}
