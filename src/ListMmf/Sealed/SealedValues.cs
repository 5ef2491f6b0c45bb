using System;
using System.Runtime.CompilerServices;

namespace ListMmf.Sealed;

/// <summary>Items of 1-8 bytes to and from the 64-bit integer domain the codecs work in (little-endian, as stored).</summary>
internal static unsafe class SealedValues
{
    /// <summary>The item in <paramref name="item"/> (1-8 bytes), sign-extended or zero-extended to 64 bits.</summary>
    public static long Widen(ReadOnlySpan<byte> item, bool signed)
    {
        ulong value = 0;
        for (int i = item.Length - 1; i >= 0; i--)
        {
            value = (value << 8) | item[i];
        }

        int unused = 64 - (8 * item.Length);
        return signed && unused > 0 ? (long)(value << unused) >> unused : (long)value;
    }

    /// <summary>Writes the low <paramref name="size"/> bytes of <paramref name="value"/> at <paramref name="destination"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Narrow(byte* destination, int size, long value)
    {
        switch (size)
        {
            case 8:
                Unsafe.WriteUnaligned(destination, value);
                break;
            case 4:
                Unsafe.WriteUnaligned(destination, (int)value);
                break;
            case 2:
                Unsafe.WriteUnaligned(destination, (short)value);
                break;
            case 1:
                *destination = (byte)value;
                break;
            default:
                for (int i = 0; i < size; i++)
                {
                    destination[i] = (byte)(value >> (8 * i));
                }

                break;
        }
    }
}
