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
    public static bool operator <(ComparableKey<TKey> left, ComparableKey<TKey> right) => left.Value.CompareTo(right.Value) < 0;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool operator <=(ComparableKey<TKey> left, ComparableKey<TKey> right) => left.Value.CompareTo(right.Value) <= 0;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool operator >(ComparableKey<TKey> left, ComparableKey<TKey> right) => left.Value.CompareTo(right.Value) > 0;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool operator >=(ComparableKey<TKey> left, ComparableKey<TKey> right) => left.Value.CompareTo(right.Value) >= 0;

    public static bool operator ==(ComparableKey<TKey> left, ComparableKey<TKey> right) => left.Value.CompareTo(right.Value) == 0;

    public static bool operator !=(ComparableKey<TKey> left, ComparableKey<TKey> right) => left.Value.CompareTo(right.Value) != 0;

    public bool Equals(ComparableKey<TKey> other) => this == other;

    public override bool Equals(object? obj) => obj is ComparableKey<TKey> other && Equals(other);

    public override int GetHashCode() => Value?.GetHashCode() ?? 0;
}
