using System;

namespace ListMmf;

/// <summary>
/// Int32 Unix seconds (<see cref="DataType.UnixSeconds"/>): whole seconds on the DateTime's own clock, with
/// <see cref="UnixTime.MinValueKey"/> standing for <see cref="DateTime.MinValue"/> as ListMmf 1.x stores it.
/// </summary>
internal readonly struct UnixSecondsKey : ITimeKey<int>
{
    public static DataType DataType => DataType.UnixSeconds;

    public static bool TryAtOrAfter(DateTime time, out int key)
    {
        if (time.Ticks == 0)
        {
            key = UnixTime.MinValueKey;
            return true;
        }

        long seconds = UnixTime.FloorSeconds(time, out bool whole);
        return Narrow(whole ? seconds : seconds + 1, out key);
    }

    public static bool TryAfter(DateTime time, out int key) => Narrow(UnixTime.FloorSeconds(time, out _) + 1, out key);

    public static bool TryExact(DateTime time, out int key)
    {
        if (time.Ticks == 0)
        {
            key = UnixTime.MinValueKey;
            return true;
        }

        long seconds = UnixTime.FloorSeconds(time, out bool whole);
        key = (int)seconds;
        return whole && seconds == key && key != UnixTime.MinValueKey;
    }

    public static bool TryToDateTime(int key, out DateTime time)
    {
        time = UnixTime.FromSeconds(key);
        return true;
    }

    /// <summary>
    /// The key for a lower bound of <paramref name="seconds"/>, for a time after DateTime.MinValue: below the keys
    /// that stand for times every item at or after it, so the smallest such key gives the same index (int.MinValue
    /// stands for DateTime.MinValue, before every such time); above int's range no item is, which the caller answers
    /// with the end of the range.
    /// </summary>
    private static bool Narrow(long seconds, out int key)
    {
        key = (int)Math.Max(seconds, UnixTime.MinValueKey + 1L);
        return seconds <= int.MaxValue;
    }
}
