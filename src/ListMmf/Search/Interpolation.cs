using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>
/// Where a value probably lies among the items of one block of a sorted list of integers, read from the block's
/// first key and the next block's, as if the keys between were evenly spaced. Only a guess: the search checks it
/// against the items and searches on from it when it misses, so any distribution gives the right answer.
/// </summary>
/// <remarks>
/// Timestamps are close to evenly spaced over a block (a few hundred ticks, seconds to minutes of trading), so
/// the guess usually names the cache line that holds the bound, and the search reads one line instead of the
/// four a binary search of the block reads.
/// </remarks>
internal static class Interpolation
{
    /// <summary>Whether keys of type <typeparamref name="T"/> are integers that <see cref="Offset"/> can place.</summary>
    public static bool Supports<T>() =>
        typeof(T) == typeof(int) || typeof(T) == typeof(long) || typeof(T) == typeof(uint) || typeof(T) == typeof(ulong);

    /// <summary>
    /// The offset in <c>[0, length)</c> at which <paramref name="value"/> lies if the <paramref name="length"/>
    /// items from one of key <paramref name="low"/> to just before one of key <paramref name="high"/> are evenly
    /// spaced; 0 when the two keys are equal.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long Offset<T>(T low, T high, T value, long length)
        where T : unmanaged
    {
        // Doubles, because the differences of two longs can overflow; the guess needs no more than 53 bits.
        double from = ToDouble(low);
        double span = ToDouble(high) - from;
        double offset = (ToDouble(value) - from) / span * length;

        // Also false for NaN (equal keys, so a span of 0), which leaves the guess at the block's start.
        if (!(offset > 0))
        {
            return 0;
        }

        return offset < length ? (long)offset : length - 1;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static double ToDouble<T>(T value)
        where T : unmanaged
    {
        if (typeof(T) == typeof(int))
        {
            return Unsafe.As<T, int>(ref value);
        }

        if (typeof(T) == typeof(long))
        {
            return Unsafe.As<T, long>(ref value);
        }

        if (typeof(T) == typeof(uint))
        {
            return Unsafe.As<T, uint>(ref value);
        }

        return Unsafe.As<T, ulong>(ref value);
    }
}
