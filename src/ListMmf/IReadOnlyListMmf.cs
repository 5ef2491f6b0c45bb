using System;
using System.Collections.Generic;

namespace ListMmf;

/// <summary>
/// The items of a list in either form, for code that reads both: an appendable <see cref="ListMmf{T}"/>, a
/// <see cref="SealedListMmf{T}"/>, or a table's <see cref="TableColumn{T}"/> (its published rows). Each reads the
/// cheapest way its form allows: a span over the mapping where there is one, blocks decoded where the file is sealed.
/// </summary>
/// <remarks>
/// The contract does not own the file: a list is disposed as itself (both list types are <see cref="IDisposable"/>),
/// and a table's columns with their table.
/// </remarks>
/// <typeparam name="T">The item type.</typeparam>
public interface IReadOnlyListMmf<T> : IEnumerable<T>
    where T : unmanaged
{
    /// <summary>The full path of the file.</summary>
    string Path { get; }

    /// <summary>The items' data-type code.</summary>
    DataType DataType { get; }

    /// <summary>How many items there are: a list's published items, a table column's published rows.</summary>
    long Count { get; }

    /// <summary>Whether the file is in the sealed form: compressed in blocks, with no span over its items.</summary>
    bool IsSealed { get; }

    /// <summary>Whether the items are times recorded as UTC (false for items that are not times).</summary>
    bool TimesAreUtc { get; }

    /// <summary>The item at <paramref name="index"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative or not below <see cref="Count"/>.</exception>
    T this[long index] { get; }

    /// <summary>Copies the items of <paramref name="range"/> into <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the items, or holds more than
    /// <see cref="int.MaxValue"/> of them.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    void CopyTo(IndexRange range, Span<T> destination);

    /// <summary>
    /// The items of <paramref name="range"/>: straight over the mapping where the form has a span
    /// (<paramref name="buffer"/> untouched), else decoded into <paramref name="buffer"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the items, or holds more than
    /// <see cref="int.MaxValue"/> of them.</exception>
    /// <exception cref="ArgumentException">The form has no span and <paramref name="buffer"/> is shorter than the range.</exception>
    ReadOnlySpan<T> Read(IndexRange range, Span<T> buffer);

    /// <summary>
    /// The items at <paramref name="indices"/>, into <paramref name="destination"/>: a gather, such as the values of the
    /// rows an ASOF join matched (<see cref="IReadOnlyTimeSeries.LastAtOrBefore(ReadOnlySpan{DateTime}, Span{long})"/>),
    /// where an index of -1 (no row at or before the time) gives <paramref name="missing"/>. A sealed file decodes a
    /// block once for the ascending indices in it, and reads a lone index's item in place where its codec allows.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than <paramref name="indices"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An index is below -1, or not below <see cref="Count"/>; the items
    /// before it are written.</exception>
    void Gather(ReadOnlySpan<long> indices, Span<T> destination, T missing = default)
    {
        ThrowHelper.CheckDestination(destination.Length, indices.Length);
        for (int i = 0; i < indices.Length; i++)
        {
            destination[i] = indices[i] == -1 ? missing : this[indices[i]];
        }
    }

    /// <summary>
    /// The items of <paramref name="range"/> as memory over the mapping, where the form has one (see
    /// <see cref="ListMmf{T}.AsMemory(long, int)"/>); false for a sealed file, whose blocks are read with
    /// <see cref="CopyTo"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the items, or holds more than
    /// <see cref="int.MaxValue"/> of them.</exception>
    bool TryGetMemory(IndexRange range, out ReadOnlyMemory<T> memory);

    /// <summary>
    /// The XXH3-64 hash (seed 0) of the items' bytes, as <c>xxhsum -H3</c> computes it over them: the same for the same
    /// items in either form, so that it fingerprints a file before and after a seal.
    /// </summary>
    ulong ComputeXxHash3();

    /// <summary>Checks the file as it is on disk: its header, and every item (appendable) or block (sealed) readable and whole.</summary>
    /// <param name="progress">Told the fraction checked so far, from 0 to 1, as the check goes (on this thread).</param>
    /// <exception cref="ListMmfFormatException">The file is damaged.</exception>
    void Verify(IProgress<double>? progress = null);
}
