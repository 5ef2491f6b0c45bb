using System;

namespace ListMmf;

/// <summary>Int64 DateTime ticks (<see cref="DataType.DateTime"/>): every DateTime exactly, its Kind not stored.</summary>
internal readonly struct TicksKey : ITimeKey<long>
{
    public static DataType DataType => DataType.DateTime;

    public static bool TryAtOrAfter(DateTime time, out long key)
    {
        key = time.Ticks;
        return true;
    }

    public static bool TryAfter(DateTime time, out long key)
    {
        key = time.Ticks + 1;
        return true;
    }

    public static bool TryExact(DateTime time, out long key)
    {
        key = time.Ticks;
        return true;
    }

    public static bool TryToDateTime(long key, out DateTime time)
    {
        bool valid = (ulong)key <= (ulong)DateTime.MaxValue.Ticks;
        time = valid ? new DateTime(key) : default;
        return valid;
    }
}
