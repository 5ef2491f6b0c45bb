using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;

namespace ListMmf.Search;

/// <summary>
/// Counts the keys of one 64-byte node that are less than (or at most) a value: one vector compare and a population
/// count where the hardware and the key type allow (Vector512, Vector256, Vector128, chosen when the JIT compiles
/// it), a loop elsewhere. Only the first <c>valid</c> keys count; the rest of the node is never compared.
/// </summary>
internal static unsafe class NodeSearch
{
    /// <summary>Keys per node: a 64-byte cache line of them, at least 4 (wider keys get a multi-line node and the scalar loop).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int KeysPerNode<T>() where T : unmanaged => sizeof(T) <= 16 ? 64 / sizeof(T) : 4;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int CountBelow<T>(T* node, int valid, T value, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        // A keyed list's integer keys compare as the integers they wrap: the vector compare of those.
        if (typeof(T) == typeof(ComparableKey<long>))
        {
            return CountBelow((long*)node, valid, Unsafe.As<T, long>(ref value), bound);
        }

        if (typeof(T) == typeof(ComparableKey<int>))
        {
            return CountBelow((int*)node, valid, Unsafe.As<T, int>(ref value), bound);
        }

        if (typeof(T) == typeof(ComparableKey<ulong>))
        {
            return CountBelow((ulong*)node, valid, Unsafe.As<T, ulong>(ref value), bound);
        }

        if (typeof(T) == typeof(ComparableKey<uint>))
        {
            return CountBelow((uint*)node, valid, Unsafe.As<T, uint>(ref value), bound);
        }

        if (Vector512.IsHardwareAccelerated && Vector512<T>.IsSupported && sizeof(T) * KeysPerNode<T>() == 64)
        {
            Vector512<T> keys = Vector512.Load(node);
            Vector512<T> target = Vector512.Create(value);
            Vector512<T> below = bound == SearchBound.Upper ? Vector512.LessThanOrEqual(keys, target) : Vector512.LessThan(keys, target);
            ulong mask = below.ExtractMostSignificantBits();
            return BitOperations.PopCount(mask & ValidMask(valid));
        }

        if (Vector256.IsHardwareAccelerated && Vector256<T>.IsSupported && sizeof(T) * KeysPerNode<T>() == 64)
        {
            Vector256<T> target = Vector256.Create(value);
            Vector256<T> low = Vector256.Load(node);
            Vector256<T> high = Vector256.Load(node + Vector256<T>.Count);
            Vector256<T> lowBelow = bound == SearchBound.Upper ? Vector256.LessThanOrEqual(low, target) : Vector256.LessThan(low, target);
            Vector256<T> highBelow = bound == SearchBound.Upper ? Vector256.LessThanOrEqual(high, target) : Vector256.LessThan(high, target);
            ulong lowMask = lowBelow.ExtractMostSignificantBits();
            ulong highMask = highBelow.ExtractMostSignificantBits();
            return BitOperations.PopCount((lowMask | (highMask << Vector256<T>.Count)) & ValidMask(valid));
        }

        if (Vector128.IsHardwareAccelerated && Vector128<T>.IsSupported && sizeof(T) * KeysPerNode<T>() == 64)
        {
            Vector128<T> target = Vector128.Create(value);
            ulong mask = 0;
            for (int part = 0; part < 4; part++)
            {
                Vector128<T> keys = Vector128.Load(node + (part * Vector128<T>.Count));
                Vector128<T> below = bound == SearchBound.Upper ? Vector128.LessThanOrEqual(keys, target) : Vector128.LessThan(keys, target);
                ulong bits = below.ExtractMostSignificantBits();
                mask |= bits << (part * Vector128<T>.Count);
            }

            return BitOperations.PopCount(mask & ValidMask(valid));
        }

        return CountBelowOneByOne(node, valid, value, bound);
    }

    /// <summary>
    /// <see cref="CountBelow"/> over <paramref name="valid"/> (at most <see cref="KeysPerNode"/>) keys anywhere in
    /// a mapping, aligned or not: the vector compare reads 64 bytes, so it is used only when they stay in the
    /// 4 KiB page of the first key, which is mapped; the page after it may not be, nor may the page of a key past
    /// the end (so no keys, no read).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int CountBelowInPage<T>(T* keys, int valid, T value, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        if (valid == 0)
        {
            return 0;
        }

        return ((nuint)keys % PageIndex<T, T>.PageBytes) <= PageIndex<T, T>.PageBytes - 64
            ? CountBelow(keys, valid, value, bound)
            : CountBelowOneByOne(keys, valid, value, bound);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int CountBelowOneByOne<T>(T* keys, int valid, T value, SearchBound bound)
        where T : unmanaged, IComparisonOperators<T, T, bool>
    {
        int count = 0;
        for (int i = 0; i < valid; i++)
        {
            count += SearchBounds.Before(keys[i], value, bound) ? 1 : 0;
        }

        return count;
    }

    /// <summary>The low <paramref name="valid"/> bits set (valid is at most 64).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong ValidMask(int valid) => valid >= 64 ? ulong.MaxValue : (1UL << valid) - 1;
}
