using System;
using System.Runtime.CompilerServices;

namespace ListMmf;

/// <summary>
/// The time-zone rules of a time file, in one place for every reader of one (an appendable series, a table, a sealed
/// file): whether its times are UTC, and how a time argument is compared with them.
/// </summary>
internal static class StoredTimes
{
    /// <summary>
    /// Whether the times of the file at <paramref name="path"/> are UTC: as its description records, else as
    /// <paramref name="options"/> say for a file that records nothing.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The options say UTC, and the description records that the times are not.</exception>
    public static bool AreUtc(ListMmfDescription? recorded, ListMmfOptions? options, string path)
    {
        bool utc = (options ?? ListMmfOptions.Default).UtcTimes;
        if (recorded is not null && utc && !recorded.TimesAreUtc)
        {
            throw new ListMmfDataTypeException(path, $"its description '{ListMmfDescription.PathFor(path)}' records that its " +
                "times are not UTC; open it without ListMmfOptions.UtcTimes.");
        }

        return recorded?.TimesAreUtc ?? utc;
    }

    /// <summary>A time argument as the file compares it: a Local time converted to UTC, or refused where the times are not UTC.</summary>
    /// <exception cref="ArgumentException">A Local time, and the file's times are not UTC.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static DateTime Of(DateTime time, bool timesAreUtc, string path)
    {
        if (time.Kind != DateTimeKind.Local)
        {
            return time;
        }

        return timesAreUtc ? time.ToUniversalTime() : ThrowLocalTime(time, path);
    }

    // Out of line, so that the message costs the searches no frame.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static DateTime ThrowLocalTime(DateTime time, string path) =>
        throw new ArgumentException($"'{path}' stores clock times of no recorded zone, so the DateTimeKind.Local time " +
            $"{time:O} cannot be compared with them. Pass the time as stored (DateTimeKind.Unspecified or Utc), or " +
            "create the series with ListMmfOptions.UtcTimes.", nameof(time));
}
