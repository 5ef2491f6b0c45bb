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
    /// (<see cref="LengthOf"/> bytes, cleared here).</summary>
    public static void Pack(ReadOnlySpan<ulong> values, int width, Span<byte> destination)
    {
        destination[..LengthOf(values.Length, width)].Clear();
        if (width == 0)
        {
            return;
        }

        fixed (byte* packed = destination)
        {
            long bit = 0;
            foreach (ulong value in values)
            {
                // Reading the 8 bytes back and or-ing in keeps earlier values that share them.
                ulong* word = (ulong*)(packed + (bit >> 3));
                Unsafe.WriteUnaligned(word, Unsafe.ReadUnaligned<ulong>(word) | (value << (int)(bit & 7)));
                bit += width;
            }
        }
    }

    /// <summary>Value <paramref name="index"/> of values of <paramref name="width"/> bits packed at <paramref name="packed"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Get(byte* packed, int width, int index)
    {
        long bit = (long)index * width;
        return (Unsafe.ReadUnaligned<ulong>(packed + (bit >> 3)) >> (int)(bit & 7)) & MaskOf(width);
    }

    /// <summary>The first <paramref name="destination"/>.Length values of <paramref name="width"/> bits at <paramref name="packed"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void Unpack(byte* packed, int width, Span<ulong> destination)
    {
        if (width == 0)
        {
            destination.Clear();
            return;
        }

        ulong mask = MaskOf(width);
        long bit = 0;
        for (int i = 0; i < destination.Length; i++)
        {
            destination[i] = (Unsafe.ReadUnaligned<ulong>(packed + (bit >> 3)) >> (int)(bit & 7)) & mask;
            bit += width;
        }
    }

    private static ulong MaskOf(int width) => (1UL << width) - 1;
}
