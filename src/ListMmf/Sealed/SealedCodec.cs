namespace ListMmf.Sealed;

/// <summary>How a sealed block holds its values (docs/file-format.md, "The sealed form").</summary>
internal enum SealedCodec : byte
{
    /// <summary>The items' bytes as they are.</summary>
    Plain = 0,

    /// <summary>Frame of reference: each value is the block's base plus a packed unsigned offset.</summary>
    FrameOfReference = 1,

    /// <summary>Each value is the one before plus the base plus a packed offset; the first value is in the header.</summary>
    DeltaFrameOfReference = 2,

    /// <summary>Floating-point values that are whole multiples of a power of two (the step), as frame-of-reference integers.</summary>
    Ticks = 3,

    /// <summary>As <see cref="Ticks"/>, with the integers as deltas (<see cref="DeltaFrameOfReference"/>).</summary>
    TickDeltas = 4,

    /// <summary>
    /// Floating-point values that are decimals of a few places (cents, pips): each is an integer divided by a power of
    /// ten (the step), the integers as frame of reference.
    /// </summary>
    Decimals = 5,

    /// <summary>As <see cref="Decimals"/>, with the integers as deltas (<see cref="DeltaFrameOfReference"/>).</summary>
    DecimalDeltas = 6,

    /// <summary>
    /// Frame of reference with its outliers patched (PFOR): every offset's low bits packed narrow, and the few offsets
    /// wider than that (a trade size a hundred times the usual) as a list of positions and high bits after them, so
    /// that the outliers do not widen every value of the block.
    /// </summary>
    PatchedFrameOfReference = 7,

    /// <summary>
    /// Integers of few distinct values (exchange codes, sale conditions, round lots): each value a packed index into
    /// the block's dictionary, its distinct values ascending as frame-of-reference offsets after the indexes.
    /// </summary>
    IntegerDictionary = 8,

    /// <summary>As <see cref="IntegerDictionary"/>, the dictionary's integers ticks (<see cref="Ticks"/>).</summary>
    TickDictionary = 9,

    /// <summary>As <see cref="IntegerDictionary"/>, the dictionary's integers decimals (<see cref="Decimals"/>): quote prices.</summary>
    DecimalDictionary = 10,

    /// <summary>
    /// Frame of reference with a step: each value is the base plus a whole number of steps, an integer from 2 in the
    /// header's step field (millisecond times stored as 100 ns ticks, round lots), so that the offsets pack that many
    /// bits narrower and are still read and searched in place.
    /// </summary>
    SteppedFrameOfReference = 11,

    /// <summary>
    /// Ascending integers a whole number of steps (an integer from 1 in the header's step field) above the first, in
    /// Elias-Fano form (<see cref="EliasFano"/>): each value's steps split into low bits, packed, and a high part in
    /// unary in a bitmap, so that times whose gaps vary cost about two bits a value more than their gaps' low bits, and
    /// are still read and searched in place.
    /// </summary>
    EliasFano = 12,
}
