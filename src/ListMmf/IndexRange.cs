namespace ListMmf;

/// <summary>A half-open range of list indices, <c>[Start, End)</c>, with 64-bit indices.</summary>
/// <param name="Start">The first index in the range.</param>
/// <param name="End">The index just past the range.</param>
public readonly record struct IndexRange(long Start, long End)
{
    /// <summary>The number of indices in the range.</summary>
    public long Length => End - Start;

    /// <summary>Whether the range holds no index.</summary>
    public bool IsEmpty => End <= Start;
}
