using System;
using System.Numerics;
using System.Runtime.InteropServices;

namespace ListMmf.Benchmarks.Peers;

/// <summary>The column arithmetic a ListMmf user writes over spans: a vector at a time, the remainder one by one.</summary>
internal static class ColumnMath
{
    /// <summary>Rows per span in a scan of a whole column (a span holds at most <see cref="int.MaxValue"/> items).</summary>
    public const int Chunk = 1 << 24;

    /// <summary>Sum of price times size (sizes widened from int).</summary>
    public static double Dot(ReadOnlySpan<double> prices, ReadOnlySpan<int> sizes)
    {
        var sum = Vector<double>.Zero;
        int i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            ReadOnlySpan<Vector<double>> priceVectors = MemoryMarshal.Cast<double, Vector<double>>(prices);
            ReadOnlySpan<Vector<int>> sizeVectors = MemoryMarshal.Cast<int, Vector<int>>(sizes);
            for (int v = 0; v < sizeVectors.Length && (2 * v) + 1 < priceVectors.Length; v++)
            {
                Vector.Widen(sizeVectors[v], out Vector<long> low, out Vector<long> high);
                sum += (priceVectors[2 * v] * Vector.ConvertToDouble(low)) + (priceVectors[(2 * v) + 1] * Vector.ConvertToDouble(high));
                i += Vector<int>.Count;
            }
        }

        double total = Vector.Sum(sum);
        for (; i < prices.Length; i++)
        {
            total += prices[i] * sizes[i];
        }

        return total;
    }

    /// <summary>Sum of the sizes, as a double (exact: a sum of ints below 2^53).</summary>
    public static double Sum(ReadOnlySpan<int> sizes)
    {
        var sum = Vector<long>.Zero;
        int i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            ReadOnlySpan<Vector<int>> vectors = MemoryMarshal.Cast<int, Vector<int>>(sizes);
            foreach (Vector<int> vector in vectors)
            {
                Vector.Widen(vector, out Vector<long> low, out Vector<long> high);
                sum += low + high;
            }

            i = vectors.Length * Vector<int>.Count;
        }

        long total = Vector.Sum(sum);
        for (; i < sizes.Length; i++)
        {
            total += sizes[i];
        }

        return total;
    }

    /// <summary>How many rows have a price of at least <paramref name="price"/> and a size of at least <paramref name="size"/>.</summary>
    public static long CountAtLeast(ReadOnlySpan<double> prices, double price, ReadOnlySpan<int> sizes, int size)
    {
        // A true lane of a comparison is all ones (-1), so subtracting the and-ed masks counts the rows.
        var counts = Vector<long>.Zero;
        int i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            ReadOnlySpan<Vector<double>> priceVectors = MemoryMarshal.Cast<double, Vector<double>>(prices);
            ReadOnlySpan<Vector<int>> sizeVectors = MemoryMarshal.Cast<int, Vector<int>>(sizes);
            var minPrice = new Vector<double>(price);
            var minSize = new Vector<int>(size);
            for (int v = 0; v < sizeVectors.Length && (2 * v) + 1 < priceVectors.Length; v++)
            {
                Vector.Widen(Vector.GreaterThanOrEqual(sizeVectors[v], minSize), out Vector<long> low, out Vector<long> high);
                counts -= (Vector.GreaterThanOrEqual(priceVectors[2 * v], minPrice) & low) + (Vector.GreaterThanOrEqual(priceVectors[(2 * v) + 1], minPrice) & high);
                i += Vector<int>.Count;
            }
        }

        long count = Vector.Sum(counts);
        for (; i < prices.Length; i++)
        {
            if (prices[i] >= price && sizes[i] >= size)
            {
                count++;
            }
        }

        return count;
    }
}
