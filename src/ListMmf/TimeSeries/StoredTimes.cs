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
        bool utc = (options ?? ListMmfOptions.Default).TimesAreUtc;
        if (recorded is not null && utc && !recorded.TimesAreUtc)
        {
            throw new ListMmfDataTypeException(path, $"its description '{ListMmfDescription.PathFor(path)}' records that its " +
                "times are not UTC; open it without ListMmfOptions.TimesAreUtc.");
        }

        return recorded?.TimesAreUtc ?? utc;
    }

    /// <summary>
    /// A time argument as the file compares it. Where the file's times are UTC: a Utc time as it is, a Local time
    /// converted to UTC, and an Unspecified time refused (it says nothing of its zone, and is most often a clock time
    /// built by hand: taken as UTC it would be stored hours off), except <see cref="DateTime.MinValue"/> and
    /// <see cref="DateTime.MaxValue"/>, the ends of time in every zone. Where they are not: Unspecified and Utc
    /// times as they are, and a Local time refused.
    /// </summary>
    /// <exception cref="ArgumentException">A time of a kind the file cannot place, as above.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static DateTime Of(DateTime time, bool timesAreUtc, string path)
    {
        DateTimeKind kind = time.Kind;
        return kind == DateTimeKind.Utc || (kind == DateTimeKind.Unspecified && !timesAreUtc) ? time : OfOtherKind(time, timesAreUtc, path);
    }

    /// <summary>A stored time as readers are given it: of <see cref="DateTimeKind.Utc"/> where the file's times are UTC.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static DateTime Returned(DateTime time, bool timesAreUtc) => timesAreUtc ? DateTime.SpecifyKind(time, DateTimeKind.Utc) : time;

    /// <summary>A DateTimeOffset argument as the file compares it: its UTC time, which only a file of UTC times can place.</summary>
    /// <exception cref="InvalidOperationException">The file's times are not UTC.</exception>
    public static DateTime OfOffset(DateTimeOffset time, bool timesAreUtc, string path) =>
        timesAreUtc ? time.UtcDateTime : throw new InvalidOperationException($"'{path}' stores clock times of no " +
            $"recorded zone, so the DateTimeOffset {time:O} cannot be placed among them. Pass a DateTime as stored, " +
            "or create the series with ListMmfOptions.TimesAreUtc.");

    /// <summary>The refusal of a stored key that no DateTime holds, naming the file and the key's index.</summary>
    public static ListMmfFormatException OutsideDateTime<TKey>(string path, long index, TKey key)
        where TKey : unmanaged =>
        new(path, $"the item at index {index:N0} ({key}) is outside the range of DateTime.");

    /// <summary>A stored key as messages name it: its time (and the seconds a seconds key holds), or that no DateTime holds it.</summary>
    public static string Describe<TKey>(TKey key, bool isTime, DateTime time)
        where TKey : unmanaged =>
        !isTime ? $"{key} (outside DateTime's range)"
        : typeof(TKey) == typeof(long) ? $"{TimeText.Ticks(time)}"
        : $"{TimeText.Seconds(time)} ({key})";

    // Out of line, so that the conversion and the messages cost the searches no frame.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static DateTime OfOtherKind(DateTime time, bool timesAreUtc, string path) => time.Kind switch
    {
        DateTimeKind.Local when timesAreUtc => time.ToUniversalTime(),
        DateTimeKind.Local => throw new ArgumentException($"'{path}' stores clock times of no recorded zone, so the " +
            $"DateTimeKind.Local time {time:O} cannot be compared with them. Pass the time as stored (DateTimeKind.Unspecified " +
            "or Utc), or create the series with ListMmfOptions.TimesAreUtc.", nameof(time)),
        _ when time == DateTime.MinValue || time == DateTime.MaxValue => time,
        _ => throw new ArgumentException($"'{path}' stores UTC times, and the DateTimeKind.Unspecified time {time:O} " +
            "does not say its zone. Pass a Utc time (DateTime.SpecifyKind(time, DateTimeKind.Utc) where it is UTC), a " +
            "Local one, or a DateTimeOffset.", nameof(time)),
    };
}
