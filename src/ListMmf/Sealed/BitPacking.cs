using System;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Sealed;

/// <summary>
/// Unsigned integers of <c>w</c> bits each, packed one after another from the least significant bit of the first byte
/// (value i at bits <c>[i·w, i·w + w)</c>). Any value is read in place with one unaligned 8-byte load, which is why
/// <c>w</c> stops at <see cref="MaximumWidth"/> and the packed bytes are followed by 8 bytes of padding.
/// </summary>
internal static unsafe class BitPacking
{
    /// <summary>The widest value: one 8-byte load at any byte holds 57 bits past its first bit offset (0-7).</summary>
    public const int MaximumWidth = 56;

    /// <summary>The bits a value up to <paramref name="largest"/> needs: 0 for 0.</summary>
    public static int WidthOf(ulong largest) => 64 - BitOperations.LeadingZeroCount(largest);

    /// <summary>The packed bytes of <paramref name="count"/> values of <paramref name="width"/> bits, with their padding.</summary>
    public static int LengthOf(int count, int width) => (int)((((long)count * width) + 63) / 64 * 8) + 8;

    /// <summary>Packs <paramref name="values"/>, each below 2^<paramref name="width"/>, into <paramref name="destination"/>
    /// (<see cref="LengthOf"/> bytes).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void Pack(ReadOnlySpan<ulong> values, int width, Span<byte> destination)
    {
        Span<byte> packed = destination[..LengthOf(values.Length, width)];
        packed.Clear();
        if (width == 0)
        {
            return;
        }

        // Bits gather in a word that is written out each time it fills: the stream is the little-endian words in order.
        ulong word = 0;
        int filled = 0;
        int written = 0;
        foreach (ulong value in values)
        {
            word |= value << filled;
            filled += width;
            if (filled >= 64)
            {
                Unsafe.WriteUnaligned(ref packed[written], word);
                written += sizeof(ulong);
                filled -= 64;
                word = filled == 0 ? 0 : value >> (width - filled);
            }
        }

        if (filled > 0)
        {
            Unsafe.WriteUnaligned(ref packed[written], word);
        }
    }

    /// <summary>Value <paramref name="index"/> of values of <paramref name="width"/> bits packed at <paramref name="packed"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Get(byte* packed, int width, int index)
    {
        long bit = (long)index * width;
        return (Unsafe.ReadUnaligned<ulong>(packed + (bit >> 3)) >> (int)(bit & 7)) & MaskOf(width);
    }

    private static ulong MaskOf(int width) => (1UL << width) - 1;
}
