using System;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Sealed;

/// <summary>
/// What a sealed block must hold beyond a matching checksum, so that every read and search of it gives the same items
/// (docs/file-format.md, "What a reader checks"): the header fields its codec does not use at zero, a step its codec
/// and item type allow, its first value where the deltas and the directory say it is, and values in the range the
/// in-place reads and searches rely on. A conforming encoder writes nothing else; a block that breaks a rule was built
/// by hand or by a faulty writer, and its checksum cannot tell. Checked with the checksum, once a block in a mapping.
/// </summary>
internal static unsafe class SealedBlockRules
{
    /// <summary>The largest magnitude of a tick or decimal block's integers for doubles: below 2^53, each converts exactly.</summary>
    private const long IntegerLimitDouble = (1L << 53) - 1;

    /// <summary>For singles: below 2^24.</summary>
    private const long IntegerLimitSingle = (1L << 24) - 1;

    /// <summary>
    /// The first rule <paramref name="block"/> (of items of <paramref name="itemSize"/> bytes of <paramref name="kind"/>)
    /// breaks, in words for an exception, or null where it keeps them all; <paramref name="directoryItem"/> is the
    /// directory's first item for it.
    /// </summary>
    public static string? ProblemOf(SealedBlock block, SealedValueKind kind, int itemSize, byte* directoryItem)
    {
        if (*(uint*)(block.Start + SealedLayout.BlockChecksumOffset + sizeof(uint)) != 0)
        {
            return "its header's bytes 36-39 are not zero";
        }

        return FieldProblem(block, kind) ?? FirstProblem(block) ?? RangeProblem(block, kind, itemSize)
            ?? DirectoryProblem(block, kind, itemSize, directoryItem);
    }

    /// <summary>The fields a codec does not use are zero; a tick or decimal block's step is one its type allows.</summary>
    private static string? FieldProblem(SealedBlock block, SealedValueKind kind)
    {
        bool stepIsZero = BitConverter.DoubleToInt64Bits(block.Step) == 0;
        bool single = kind == SealedValueKind.Single;
        switch (block.Codec)
        {
            case SealedCodec.Plain:
                return block.Width == 0 && block.Base == 0 && block.First == 0 && stepIsZero ? null
                    : "a plain block's width, base, first value and step are not all zero";
            case SealedCodec.FrameOfReference or SealedCodec.DeltaFrameOfReference or SealedCodec.PatchedFrameOfReference
                or SealedCodec.IntegerDictionary:
                return stepIsZero ? null : "an integer block's step is not zero";
            case SealedCodec.SteppedFrameOfReference:
                return block.IntegerStep >= 2 ? null : $"its step {block.IntegerStep:N0} is not an integer from 2";
            case SealedCodec.EliasFano:
                return block.IntegerStep >= 1 ? null : $"its step {block.IntegerStep:N0} is not an integer from 1";
            case SealedCodec.Ticks or SealedCodec.TickDeltas or SealedCodec.TickDictionary:
                int exponent = Math.ILogB(block.Step);
                bool powerOfTwo = double.IsFinite(block.Step) && block.Step > 0 && Math.ScaleB(1.0, exponent) == block.Step;
                return powerOfTwo && (!single || exponent is >= -149 and <= 127) ? null
                    : $"its step {block.Step:R} is not a power of two {(single ? "that a Single holds" : "")}".TrimEnd();
            default:
                return DecimalScaling.IsDivisor(block.Step, single) ? null
                    : $"its step {block.Step:R} is not a power of ten from 10 to {(single ? "10^10 (for Single)" : "10^22")}";
        }
    }

    /// <summary>
    /// The first value: the header's first field holds it and the first offset is its own for frame of reference; a
    /// delta block's first offset is zero; a patched block has a patch, and its widths make at most 64 bits; a
    /// dictionary's entries ascend strictly from the base, and every index names one.
    /// </summary>
    private static string? FirstProblem(SealedBlock block) => block.Codec switch
    {
        SealedCodec.FrameOfReference or SealedCodec.Ticks or SealedCodec.Decimals => block.First == block.DomainAt(0) ? null
            : $"its first value ({block.First:N0}) is not its base plus its first offset ({block.DomainAt(0):N0})",
        SealedCodec.SteppedFrameOfReference => block.First == block.SteppedAt(0) ? null
            : $"its first value ({block.First:N0}) is not its base plus its first offset's steps ({block.SteppedAt(0):N0})",
        SealedCodec.DeltaFrameOfReference or SealedCodec.TickDeltas or SealedCodec.DecimalDeltas =>
            BitPacking.Get(block.Payload, block.Width, 0) == 0 ? null : "its first offset is not zero, as a delta block's must be",
        SealedCodec.PatchedFrameOfReference => block.Patches > 0 && block.Width + block.PatchWidth <= 64 ? null
            : $"its {block.Patches:N0} patches of {block.PatchWidth} bits over {block.Width} bits are not a patched block's",
        SealedCodec.IntegerDictionary or SealedCodec.TickDictionary or SealedCodec.DecimalDictionary => DictionaryProblem(block),
        SealedCodec.EliasFano => EliasFanoProblem(block),
        _ => null,
    };

    /// <summary>
    /// An Elias-Fano block's bitmap: a set bit a value, the last at its length less one and none after it, each sample
    /// where its value's bit is, the first value at the base (no steps) and each value's steps at least the one's
    /// before it, with the largest's high part and low bits within 64 bits; so that every read by sample and word stays
    /// in the bitmap, and a search that relies on the values ascending reads what a decode does.
    /// </summary>
    private static string? EliasFanoProblem(SealedBlock block)
    {
        int count = block.Count;
        int upperBits = block.UpperBits;
        int width = block.Width;
        if (BitPacking.WidthOf((ulong)(upperBits - count)) + width > 64)
        {
            return $"its high parts of up to {upperBits - count:N0} above {width} low bits make more than 64 bits";
        }

        ulong* words = block.UpperWords;
        int i = 0;
        int last = -1;
        ulong previous = 0;
        for (int word = 0; word < EliasFano.WordsOf(upperBits); word++)
        {
            for (ulong bits = words[word]; bits != 0; bits &= bits - 1, i++)
            {
                int position = (word << 6) + BitOperations.TrailingZeroCount(bits);
                if (i == count || position >= upperBits)
                {
                    return $"its bitmap has a set bit past its {count:N0} values or its {upperBits:N0} bits";
                }

                if (i > 0 && i % EliasFano.SampleEvery == 0 && block.Samples[(i / EliasFano.SampleEvery) - 1] != position)
                {
                    return $"its sample of value {i:N0} is not that value's bit";
                }

                ulong steps = ((ulong)(position - i) << width) | BitPacking.Get(block.Payload, width, i);
                if (i == 0 ? steps != 0 : steps < previous)
                {
                    return i == 0 ? "its first value is not its base" : $"its value {i:N0} is below the one before it";
                }

                (previous, last) = (steps, position);
            }
        }

        return i == count && last == upperBits - 1 ? null
            : $"its bitmap of {upperBits:N0} bits has {i:N0} set bits for {count:N0} values, the last at {last:N0}";
    }

    /// <summary>
    /// A dictionary's entries: at least one, the first at the base (offset zero) and each above the one before, so that
    /// the base is the block's smallest value and no value has two indexes; every index below the entries' count, so
    /// that no read leaves them.
    /// </summary>
    private static string? DictionaryProblem(SealedBlock block)
    {
        int entries = block.Entries;
        byte* packed = block.DictionaryEntries;
        int width = block.EntryWidth;
        if (entries == 0 || BitPacking.Get(packed, width, 0) != 0)
        {
            return entries == 0 ? "its dictionary has no entries" : "its dictionary's first entry is not its base";
        }

        for (int entry = 1; entry < entries; entry++)
        {
            if (BitPacking.Get(packed, width, entry) <= BitPacking.Get(packed, width, entry - 1))
            {
                return $"its dictionary's entry {entry:N0} is not above the one before it";
            }
        }

        for (int i = 0; i < block.Count; i++)
        {
            ulong index = BitPacking.Get(block.Payload, block.Width, i);
            if (index >= (ulong)entries)
            {
                return $"its value {i:N0} names entry {index:N0} of a dictionary of {entries:N0}";
            }
        }

        return null;
    }

    /// <summary>
    /// A frame-of-reference or patched block's values lie in the item type's range without wrapping (its in-place
    /// search compares offsets from the base), and a tick or decimal block's integers below 2^53 (2^24 for singles)
    /// with finite products; an integer delta block's values are taken modulo 2^64, as every reader takes them. A bound
    /// from the header decides most blocks; a block near the range's edge is read value by value.
    /// </summary>
    private static string? RangeProblem(SealedBlock block, SealedValueKind kind, int itemSize)
    {
        if (block.Codec is SealedCodec.Plain or SealedCodec.DeltaFrameOfReference)
        {
            return null;
        }

        (Int128 min, Int128 max) = RangeOf(kind, itemSize);
        (Int128 low, Int128 high) = Bound(block, kind);
        if (low >= min && high <= max && IsFinite(block, kind, low, high))
        {
            return null;
        }

        (low, high) = Exact(block, kind);
        return low >= min && high <= max && IsFinite(block, kind, low, high) ? null
            : $"its values run from {low:N0} to {high:N0} in the integer domain, outside {min:N0} to {max:N0}" +
              (IsTicks(block) ? $" or beyond a finite product with {block.Step:R}" : "");
    }

    /// <summary>The integer domain's range of <paramref name="kind"/> items of <paramref name="itemSize"/> bytes.</summary>
    private static (Int128 Min, Int128 Max) RangeOf(SealedValueKind kind, int itemSize) => kind switch
    {
        SealedValueKind.Signed => (-(Int128.One << ((8 * itemSize) - 1)), (Int128.One << ((8 * itemSize) - 1)) - 1),
        SealedValueKind.Unsigned => (Int128.Zero, (Int128.One << (8 * itemSize)) - 1),
        SealedValueKind.Single => (-IntegerLimitSingle, IntegerLimitSingle),
        _ => (-IntegerLimitDouble, IntegerLimitDouble),
    };

    /// <summary>Where the block's values can lie, from its header alone.</summary>
    private static (Int128 Low, Int128 High) Bound(SealedBlock block, SealedValueKind kind)
    {
        Int128 baseValue = BaseOf(block, kind);
        if (block.Codec is SealedCodec.TickDeltas or SealedCodec.DecimalDeltas)
        {
            // Each step is base plus an offset of at most w bits; m - 1 of them follow the first value.
            Int128 steps = block.Count - 1;
            Int128 widest = baseValue + (Int128.One << block.Width) - 1;
            return (block.First + (steps * Int128.Min(baseValue, 0)), block.First + (steps * Int128.Max(widest, 0)));
        }

        if (block.Codec == SealedCodec.SteppedFrameOfReference)
        {
            return (baseValue, baseValue + (block.IntegerStep * ((Int128.One << block.Width) - 1)));
        }

        if (block.Codec == SealedCodec.EliasFano)
        {
            // Exact: its values ascend from the base (EliasFanoProblem) to its last.
            return (baseValue, baseValue + (block.IntegerStep * (Int128)block.EliasFanoLargestSteps));
        }

        int width = block.IsDictionary ? block.EntryWidth
            : block.Width + (block.Codec == SealedCodec.PatchedFrameOfReference ? block.PatchWidth : 0);
        return (baseValue, baseValue + (Int128.One << width) - 1);
    }

    /// <summary>The block's smallest and largest value (a frame's base with its values), each read.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (Int128 Low, Int128 High) Exact(SealedBlock block, SealedValueKind kind)
    {
        Int128 baseValue = BaseOf(block, kind);
        if (block.Codec == SealedCodec.EliasFano)
        {
            return Bound(block, kind);
        }

        if (block.IsDictionary)
        {
            // Its entries ascend from the base (DictionaryProblem): the last is the largest.
            return (baseValue, baseValue + BitPacking.Get(block.DictionaryEntries, block.EntryWidth, block.Entries - 1));
        }

        bool deltas = block.Codec is SealedCodec.TickDeltas or SealedCodec.DecimalDeltas;
        Int128 step = block.Codec == SealedCodec.SteppedFrameOfReference ? block.IntegerStep : 1;
        Int128 value = block.First;
        // A frame's values are its base plus offsets: the base itself is held to the range, as the search starts there.
        Int128 low = deltas ? value : baseValue;
        Int128 high = deltas ? value : baseValue;
        for (int i = deltas ? 1 : 0; i < block.Count; i++)
        {
            UInt128 offset = BitPacking.Get(block.Payload, block.Width, i);
            value = deltas ? value + baseValue + (Int128)offset : baseValue + (step * (Int128)offset);
            low = Int128.Min(low, value);
            high = Int128.Max(high, value);
        }

        if (block.Codec == SealedCodec.PatchedFrameOfReference)
        {
            for (int patch = 0; patch < block.Patches; patch++)
            {
                int position = (int)BitPacking.Get(block.PatchPositions, PatchPlan.PositionWidth, patch);
                UInt128 wide = BitPacking.Get(block.Payload, block.Width, position)
                    | ((UInt128)BitPacking.Get(block.PatchHighs, block.PatchWidth, patch) << block.Width);
                high = Int128.Max(high, baseValue + (Int128)wide);
            }
        }

        return (low, high);
    }

    /// <summary>The base as its kind reads it: an unsigned type's base of 2^63 or more is not negative.</summary>
    private static Int128 BaseOf(SealedBlock block, SealedValueKind kind) =>
        kind == SealedValueKind.Unsigned ? (Int128)(ulong)block.Base : block.Base;

    /// <summary>Whether a tick block's largest product is finite (a decimal block's quotients always are).</summary>
    private static bool IsFinite(SealedBlock block, SealedValueKind kind, Int128 low, Int128 high)
    {
        if (!IsTicks(block))
        {
            return true;
        }

        double largest = (double)Int128.Max(Int128.Abs(low), Int128.Abs(high));
        return kind == SealedValueKind.Single ? float.IsFinite((float)largest * (float)block.Step) : double.IsFinite(largest * block.Step);
    }

    private static bool IsTicks(SealedBlock block) => block.Codec is SealedCodec.Ticks or SealedCodec.TickDeltas or SealedCodec.TickDictionary;

    /// <summary>The directory holds the block's first item as the block gives it.</summary>
    private static string? DirectoryProblem(SealedBlock block, SealedValueKind kind, int itemSize, byte* directoryItem)
    {
        bool same;
        if (block.Codec == SealedCodec.Plain)
        {
            same = new ReadOnlySpan<byte>(block.Payload, itemSize).SequenceEqual(new ReadOnlySpan<byte>(directoryItem, itemSize));
        }
        else
        {
            ulong first;
            block.FirstItem((byte*)&first, itemSize, kind);
            same = new ReadOnlySpan<byte>(&first, itemSize).SequenceEqual(new ReadOnlySpan<byte>(directoryItem, itemSize));
        }

        return same ? null : "the directory's first item for it is not the block's first item";
    }
}
