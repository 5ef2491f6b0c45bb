using System;
using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Sealed;

/// <summary>
/// The payload of an Elias-Fano block (<see cref="SealedCodec.EliasFano"/>; docs/file-format.md, "Elias-Fano blocks"):
/// ascending integers, each a whole number <c>k</c> of steps above the block's first. Each <c>k</c> is split at
/// <c>L</c> bits: its low bits packed as <see cref="BitPacking"/> packs them, its high part written as one set bit at
/// position <c>high + i</c> of an upper bitmap of <c>q</c> bits (whole little-endian UInt64 words), followed by the
/// bitmap positions of values 64, 128, ... as UInt16 samples. Times whose gaps vary (ticks of a busy day) then cost
/// about <c>L + 2</c> bits a value instead of the widest offset's bits, and value <c>i</c> is still read in place: its
/// sample, a word or two of the bitmap, and its low bits.
/// </summary>
internal static unsafe class EliasFano
{
    /// <summary>Every how many values the bitmap position of one is kept as a sample.</summary>
    public const int SampleEvery = 64;

    /// <summary>The longest upper bitmap: its samples are UInt16 positions.</summary>
    public const int MaximumUpperBits = ushort.MaxValue;

    /// <summary>The samples of a block of <paramref name="count"/> values (at least 1): values 64, 128, ... below it.</summary>
    public static int SamplesOf(int count) => (count - 1) / SampleEvery;

    /// <summary>The UInt64 words of an upper bitmap of <paramref name="upperBits"/> bits.</summary>
    public static int WordsOf(int upperBits) => (upperBits + 63) >> 6;

    /// <summary>
    /// The payload of <paramref name="count"/> values with lows of <paramref name="lowWidth"/> bits and a bitmap of
    /// <paramref name="upperBits"/>.
    /// </summary>
    public static int LengthOf(int count, int lowWidth, int upperBits) =>
        BitPacking.LengthOf(count, lowWidth) + (WordsOf(upperBits) * sizeof(ulong)) + (SamplesOf(count) * sizeof(ushort));

    /// <summary>
    /// The low width that makes the shortest payload for <paramref name="count"/> values whose largest number of steps
    /// is <paramref name="largest"/> (the first is 0), and that payload's <paramref name="length"/>; -1 where no width
    /// keeps the bitmap within <see cref="MaximumUpperBits"/>. The best width is within one of <c>log2(largest / count)</c>.
    /// </summary>
    public static int LowWidthFor(int count, ulong largest, out int length)
    {
        int guess = largest > (ulong)count ? BitOperations.Log2(largest / (ulong)count) : 0;
        int best = -1;
        length = int.MaxValue;
        for (int width = Math.Clamp(guess - 1, 0, BitPacking.MaximumWidth); width <= Math.Clamp(guess + 1, 0, BitPacking.MaximumWidth); width++)
        {
            ulong upperBits = (largest >> width) + (ulong)count;
            if (upperBits > MaximumUpperBits)
            {
                continue;
            }

            int candidate = LengthOf(count, width, (int)upperBits);
            if (candidate < length)
            {
                (best, length) = (width, candidate);
            }
        }

        return best;
    }

    /// <summary>
    /// Writes <paramref name="steps"/> (ascending, the first 0) with lows of <paramref name="lowWidth"/> bits into
    /// <paramref name="payload"/> (<see cref="LengthOf"/> bytes, with <paramref name="upperBits"/> the largest's high
    /// part plus the count); <paramref name="lows"/> is scratch of the steps' length.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void Write(ReadOnlySpan<ulong> steps, int lowWidth, int upperBits, Span<ulong> lows, Span<byte> payload)
    {
        ulong mask = (1UL << lowWidth) - 1;
        for (int i = 0; i < steps.Length; i++)
        {
            lows[i] = steps[i] & mask;
        }

        BitPacking.Pack(lows[..steps.Length], lowWidth, payload);
        Span<byte> upper = payload.Slice(BitPacking.LengthOf(steps.Length, lowWidth), WordsOf(upperBits) * sizeof(ulong));
        Span<byte> samples = payload[(BitPacking.LengthOf(steps.Length, lowWidth) + upper.Length)..];
        upper.Clear();
        for (int i = 0; i < steps.Length; i++)
        {
            int position = (int)(steps[i] >> lowWidth) + i;
            upper[position >> 3] |= (byte)(1 << (position & 7));
            if (i > 0 && i % SampleEvery == 0)
            {
                BinaryPrimitives.WriteUInt16LittleEndian(samples[(((i / SampleEvery) - 1) * sizeof(ushort))..], (ushort)position);
            }
        }
    }

    /// <summary>
    /// The bitmap position of value <paramref name="index"/>'s bit: from its sample, the words after it counted until
    /// the word that holds it. The block's rules (<see cref="SealedBlockRules"/>) hold every sample and bit in place.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Select(ulong* words, ushort* samples, int index)
    {
        int sample = index / SampleEvery;
        int position = sample == 0 ? 0 : samples[sample - 1];
        int rank = index % SampleEvery;
        int word = position >> 6;
        ulong bits = words[word] & (ulong.MaxValue << (position & 63));
        for (int ones = BitOperations.PopCount(bits); rank >= ones; ones = BitOperations.PopCount(bits))
        {
            rank -= ones;
            bits = words[++word];
        }

        return (word << 6) + SelectInWord(bits, rank);
    }

    /// <summary>The position of the set bit of <paramref name="word"/> with <paramref name="rank"/> set bits below it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int SelectInWord(ulong word, int rank)
    {
        // A byte at a time, then bit by bit: no BMI2, whose PDEP is microcoded on some AMD cores.
        int shift = 0;
        for (int ones = BitOperations.PopCount((uint)(byte)word); rank >= ones; ones = BitOperations.PopCount((uint)(byte)word))
        {
            rank -= ones;
            word >>= 8;
            shift += 8;
        }

        for (; rank > 0; rank--)
        {
            word &= word - 1;
        }

        return shift + BitOperations.TrailingZeroCount(word);
    }
}
