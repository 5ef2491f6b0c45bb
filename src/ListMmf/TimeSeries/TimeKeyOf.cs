using System;
using System.Runtime.CompilerServices;

namespace ListMmf;

/// <summary>
/// The time key a key type stands for in the appendable series (<see cref="TimeSeriesMmf{TKey}"/>): Int64 keys are
/// DateTime ticks (<see cref="TicksKey"/>), Int32 keys Unix seconds (<see cref="UnixSecondsKey"/>). The type tests
/// are constants once the JIT compiles a series' key type, so each conversion is the key's own, with no virtual call.
/// Only those two key types reach it: the series' constructor is private to the library, and its two subclasses
/// pass Int64 and Int32.
/// </summary>
/// <typeparam name="TKey">Int64 or Int32.</typeparam>
internal readonly struct TimeKeyOf<TKey> : ITimeKey<TKey>
    where TKey : unmanaged
{
    public static DataType DataType => typeof(TKey) == typeof(long) ? TicksKey.DataType : UnixSecondsKey.DataType;

    public static bool TryAtOrAfter(DateTime time, out TKey key)
    {
        Unsafe.SkipInit(out key);
        return typeof(TKey) == typeof(long)
            ? TicksKey.TryAtOrAfter(time, out Unsafe.As<TKey, long>(ref key))
            : UnixSecondsKey.TryAtOrAfter(time, out Unsafe.As<TKey, int>(ref key));
    }

    public static bool TryAfter(DateTime time, out TKey key)
    {
        Unsafe.SkipInit(out key);
        return typeof(TKey) == typeof(long)
            ? TicksKey.TryAfter(time, out Unsafe.As<TKey, long>(ref key))
            : UnixSecondsKey.TryAfter(time, out Unsafe.As<TKey, int>(ref key));
    }

    public static bool TryExact(DateTime time, out TKey key)
    {
        Unsafe.SkipInit(out key);
        return typeof(TKey) == typeof(long)
            ? TicksKey.TryExact(time, out Unsafe.As<TKey, long>(ref key))
            : UnixSecondsKey.TryExact(time, out Unsafe.As<TKey, int>(ref key));
    }

    public static bool TryToDateTime(TKey key, out DateTime time) =>
        typeof(TKey) == typeof(long)
            ? TicksKey.TryToDateTime(Unsafe.As<TKey, long>(ref key), out time)
            : UnixSecondsKey.TryToDateTime(Unsafe.As<TKey, int>(ref key), out time);
}
