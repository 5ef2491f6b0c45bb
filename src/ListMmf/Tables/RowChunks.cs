using System;

namespace ListMmf;

/// <summary>
/// A range of rows cut into pieces of a fixed size, each piece's work run on every core, and the results kept in row
/// order. The size is fixed rather than a share per core so that a floating-point result is the same on every machine.
/// </summary>
internal static class RowChunks
{
    /// <summary>
    /// Rows per piece: large enough that a piece's work outweighs handing it to a thread, small enough that a span
    /// over it fits an <see cref="int"/> and a range of a few pieces still uses both cores of a small machine.
    /// </summary>
    public const int Size = 1 << 20;

    /// <summary>
    /// The result of <paramref name="map"/> for each piece of <paramref name="rows"/>, in row order; one piece, on the
    /// caller's thread, when the range holds no more than one (an empty range is one empty piece).
    /// </summary>
    public static TResult[] Map<TResult>(IndexRange rows, Func<IndexRange, TResult> map)
    {
        if (rows.Length <= Size)
        {
            return [map(rows)];
        }

        long pieces = (rows.Length + Size - 1) / Size;
        var results = new TResult[pieces];

        EveryCore.For((int)pieces, piece =>
        {
            long start = rows.Start + ((long)piece * Size);
            results[piece] = map(new IndexRange(start, Math.Min(rows.End, start + Size)));
        });
        return results;
    }

    /// <summary>The results of <paramref name="map"/> over the pieces of <paramref name="rows"/>, combined from left to right.</summary>
    public static TResult Aggregate<TResult>(IndexRange rows, Func<IndexRange, TResult> map, Func<TResult, TResult, TResult> combine)
    {
        TResult[] results = Map(rows, map);
        TResult total = results[0];
        for (int i = 1; i < results.Length; i++)
        {
            total = combine(total, results[i]);
        }

        return total;
    }
}
