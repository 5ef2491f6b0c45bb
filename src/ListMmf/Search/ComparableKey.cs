using System;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>
/// A key compared through <see cref="IComparable{T}"/>, so that <see cref="SortedSearch"/> (written with the
/// comparison operators) also searches keys that have no operators, such as <see cref="DateTime"/>. The
/// comparisons are constrained calls on a value type: the JIT inlines them.
/// </summary>
internal readonly struct ComparableKey<TKey> : IComparisonOperators<ComparableKey<TKey>, ComparableKey<TKey>, bool>, IEquatable<ComparableKey<TKey>>
    where TKey : IComparable<TKey>
{
    public ComparableKey(TKey value) => Value = value;

    public TKey Value { get; }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool operator <(ComparableKey<TKey> left, ComparableKey<TKey> right) => Before(left.Value, right.Value, orEqual: false);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool operator <=(ComparableKey<TKey> left, ComparableKey<TKey> right) => Before(left.Value, right.Value, orEqual: true);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool operator >(ComparableKey<TKey> left, ComparableKey<TKey> right) => Before(right.Value, left.Value, orEqual: false);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool operator >=(ComparableKey<TKey> left, ComparableKey<TKey> right) => Before(right.Value, left.Value, orEqual: true);

    public static bool operator ==(ComparableKey<TKey> left, ComparableKey<TKey> right) => left.Value.CompareTo(right.Value) == 0;

    public static bool operator !=(ComparableKey<TKey> left, ComparableKey<TKey> right) => left.Value.CompareTo(right.Value) != 0;

    public bool Equals(ComparableKey<TKey> other) => this == other;

    public override bool Equals(object? obj) => obj is ComparableKey<TKey> other && Equals(other);

    public override int GetHashCode() => Value?.GetHashCode() ?? 0;

    /// <summary>
    /// Whether <paramref name="a"/> comes before <paramref name="b"/> (or equals it, <paramref name="orEqual"/>), as
    /// <see cref="IComparable{T}.CompareTo"/> says. The integer keys and DateTime (which compares its ticks, whatever
    /// the Kind) are compared directly, one compare the JIT needs no branch for, rather than through CompareTo's -1, 0
    /// or 1.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool Before(TKey a, TKey b, bool orEqual)
    {
        if (typeof(TKey) == typeof(long))
        {
            return Before(Unsafe.As<TKey, long>(ref a), Unsafe.As<TKey, long>(ref b), orEqual);
        }

        if (typeof(TKey) == typeof(int))
        {
            return Before(Unsafe.As<TKey, int>(ref a), Unsafe.As<TKey, int>(ref b), orEqual);
        }

        if (typeof(TKey) == typeof(ulong))
        {
            return Before(Unsafe.As<TKey, ulong>(ref a), Unsafe.As<TKey, ulong>(ref b), orEqual);
        }

        if (typeof(TKey) == typeof(uint))
        {
            return Before(Unsafe.As<TKey, uint>(ref a), Unsafe.As<TKey, uint>(ref b), orEqual);
        }

        if (typeof(TKey) == typeof(DateTime))
        {
            return Before(Unsafe.As<TKey, DateTime>(ref a).Ticks, Unsafe.As<TKey, DateTime>(ref b).Ticks, orEqual);
        }

        int order = a.CompareTo(b);
        return orEqual ? order <= 0 : order < 0;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool Before<TNumber>(TNumber x, TNumber y, bool orEqual)
        where TNumber : IComparisonOperators<TNumber, TNumber, bool> => orEqual ? x <= y : x < y;
}
