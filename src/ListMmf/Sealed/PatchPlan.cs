using System;
using System.Runtime.CompilerServices;

namespace ListMmf.Sealed;

/// <summary>
/// How a block's frame-of-reference offsets pack with their outliers patched (<see cref="SealedCodec.PatchedFrameOfReference"/>):
/// every offset's low <see cref="LowWidth"/> bits packed, then the positions of the offsets wider than that and their
/// high <see cref="PatchWidth"/> bits. The low width is the one that makes the payload shortest.
/// </summary>
/// <param name="LowWidth">The bits of every offset that are packed in place.</param>
/// <param name="Patches">How many offsets are wider than <paramref name="LowWidth"/>.</param>
/// <param name="PatchWidth">The bits of each patch's high part: the widest offset's width less <paramref name="LowWidth"/>.</param>
/// <param name="Length">The payload's bytes.</param>
internal readonly record struct PatchPlan(int LowWidth, int Patches, int PatchWidth, int Length)
{
    /// <summary>The bits of a patch's position in its block.</summary>
    public const int PositionWidth = SealedLayout.BlockShift;

    /// <summary>
    /// The shortest patched packing of <paramref name="offsets"/>, whose widest needs <paramref name="width"/> bits,
    /// from every <paramref name="stride"/>-th offset: 1 for the plan itself, more for an estimate that costs that much
    /// less (an offset sampled stands for <paramref name="stride"/>). Its <see cref="Length"/> is <see cref="int.MaxValue"/>
    /// where no low width narrower than <paramref name="width"/> can be read.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static PatchPlan Of(ReadOnlySpan<ulong> offsets, int width, int stride)
    {
        // How many offsets need each width; the patches of low width w are those that need more than w bits.
        Span<int> needing = stackalloc int[65];
        needing.Clear();
        for (int i = 0; i < offsets.Length; i += stride)
        {
            needing[BitPacking.WidthOf(offsets[i])] += stride;
        }

        var best = new PatchPlan(0, 0, 0, int.MaxValue);
        int wider = 0;
        for (int low = width - 1; low >= 0; low--)
        {
            wider = Math.Min(wider + needing[low + 1], offsets.Length);
            int high = width - low;
            if (low > BitPacking.MaximumWidth || high > BitPacking.MaximumWidth)
            {
                continue;
            }

            int length = LengthOf(offsets.Length, low, wider, high);
            if (length < best.Length)
            {
                best = new PatchPlan(low, wider, high, length);
            }
        }

        return best;
    }

    /// <summary>The payload of <paramref name="count"/> offsets packed at <paramref name="lowWidth"/> bits with
    /// <paramref name="patches"/> patches of <paramref name="patchWidth"/> bits.</summary>
    public static int LengthOf(int count, int lowWidth, int patches, int patchWidth) =>
        BitPacking.LengthOf(count, lowWidth) + BitPacking.LengthOf(patches, PositionWidth) + BitPacking.LengthOf(patches, patchWidth);
}
