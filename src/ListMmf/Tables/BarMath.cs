using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>
/// The arithmetic of one bar over a price span and a volume span of any number types: both read as doubles (in place
/// where they are doubles, widened in the loop where the volumes are ints, else converted a block at a time on the
/// stack), and one vectorised pass gives the high, the low, the volume and the turnover together, so that the
/// columns are read once. The conversion buffers are not cleared: every value read
/// from them is written first, and a bar of a few hundred rows would otherwise pay for clearing 8 KiB. The loops are
/// compiled optimized at once: a process asks for bars a few times, too few for tiered compilation to reach them
/// (benchmarks/README.md, "Figures behind the code").
/// </summary>
[SkipLocalsInit]
internal static class BarMath
{
    /// <summary>Values converted to doubles at a time, on the stack.</summary>
    private const int Block = 512;

    /// <summary>The bar starting at <paramref name="start"/> over <paramref name="rows"/>, whose values the spans hold (at least one).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static OhlcvBar Summarize<TPrice, TVolume>(DateTime start, IndexRange rows, ReadOnlySpan<TPrice> prices, ReadOnlySpan<TVolume> volumes)
        where TPrice : unmanaged, INumberBase<TPrice>
        where TVolume : unmanaged, INumberBase<TVolume>
    {
        Totals totals;
        if (typeof(TPrice) == typeof(double) && typeof(TVolume) == typeof(int))
        {
            // A tick's usual columns: the sizes widened in the loop, with no pass through a buffer to convert them.
            totals = Add(MemoryMarshal.Cast<TPrice, double>(prices), MemoryMarshal.Cast<TVolume, int>(volumes));
        }
        else
        {
            int buffered = Math.Min(Block, prices.Length);
            Span<double> priceBuffer = typeof(TPrice) == typeof(double) ? default : stackalloc double[buffered];
            Span<double> volumeBuffer = typeof(TVolume) == typeof(double) ? default : stackalloc double[buffered];
            totals = new Totals(double.NaN, double.NaN, 0, 0);
            for (int i = 0; i < prices.Length; i += Block)
            {
                int length = Math.Min(Block, prices.Length - i);
                totals = totals.Then(Add(AsDoubles(prices.Slice(i, length), priceBuffer), AsDoubles(volumes.Slice(i, length), volumeBuffer)));
            }
        }

        return new OhlcvBar(start, rows, double.CreateTruncating(prices[0]), totals.High, totals.Low, double.CreateTruncating(prices[^1]),
            totals.Volume, totals.Turnover);
    }

    /// <summary><paramref name="values"/> as doubles: the span itself where they are, else converted into <paramref name="buffer"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static ReadOnlySpan<double> AsDoubles<T>(ReadOnlySpan<T> values, Span<double> buffer)
        where T : unmanaged, INumberBase<T>
    {
        if (typeof(T) == typeof(double))
        {
            return MemoryMarshal.Cast<T, double>(values);
        }

        Span<double> doubles = buffer[..values.Length];
        for (int i = 0; i < values.Length; i++)
        {
            doubles[i] = double.CreateTruncating(values[i]);
        }

        return doubles;
    }

    /// <summary>The totals of equally long price and volume spans.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static Totals Add(ReadOnlySpan<double> prices, ReadOnlySpan<double> volumes)
    {
        int i = 0;
        var totals = new Totals(double.NaN, double.NaN, 0, 0);
        if (Vector.IsHardwareAccelerated && prices.Length >= Vector<double>.Count)
        {
            // Locals, not a struct of the five running vectors: the JIT kept such a struct on the stack, not in registers.
            ReadOnlySpan<Vector<double>> priceVectors = MemoryMarshal.Cast<double, Vector<double>>(prices);
            ReadOnlySpan<Vector<double>> volumeVectors = MemoryMarshal.Cast<double, Vector<double>>(volumes);
            Vector<double> highs = priceVectors[0];
            Vector<double> lows = highs;
            Vector<long> ordered = Vector<long>.AllBitsSet;
            Vector<double> volumeSums = Vector<double>.Zero;
            Vector<double> turnoverSums = Vector<double>.Zero;
            for (int v = 0; v < priceVectors.Length; v++)
            {
                Vector<double> price = priceVectors[v];
                highs = Vector.Max(highs, price);
                lows = Vector.Min(lows, price);
                ordered &= Vector.Equals(price, price);
                volumeSums += volumeVectors[v];
                turnoverSums += price * volumeVectors[v];
            }

            i = priceVectors.Length * Vector<double>.Count;
            totals = Reduce(highs, lows, ordered, volumeSums, turnoverSums, prices[..i]);
        }

        for (; i < prices.Length; i++)
        {
            totals = totals.Then(prices[i], volumes[i]);
        }

        return totals;
    }

    /// <summary>The totals of equally long price and integer volume spans.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static Totals Add(ReadOnlySpan<double> prices, ReadOnlySpan<int> volumes)
    {
        int i = 0;
        var totals = new Totals(double.NaN, double.NaN, 0, 0);
        if (Vector.IsHardwareAccelerated && volumes.Length >= Vector<int>.Count)
        {
            ReadOnlySpan<Vector<double>> priceVectors = MemoryMarshal.Cast<double, Vector<double>>(prices);
            ReadOnlySpan<Vector<int>> volumeVectors = MemoryMarshal.Cast<int, Vector<int>>(volumes);
            Vector<double> highs = priceVectors[0];
            Vector<double> lows = highs;
            Vector<long> ordered = Vector<long>.AllBitsSet;
            Vector<double> volumeSums = Vector<double>.Zero;
            Vector<double> turnoverSums = Vector<double>.Zero;
            for (int v = 0; v < volumeVectors.Length; v++)
            {
                Vector.Widen(volumeVectors[v], out Vector<long> low, out Vector<long> high);
                Vector<double> first = priceVectors[2 * v];
                Vector<double> second = priceVectors[(2 * v) + 1];
                Vector<double> firstVolume = Vector.ConvertToDouble(low);
                Vector<double> secondVolume = Vector.ConvertToDouble(high);
                highs = Vector.Max(highs, Vector.Max(first, second));
                lows = Vector.Min(lows, Vector.Min(first, second));
                ordered &= Vector.Equals(first, first) & Vector.Equals(second, second);
                volumeSums += firstVolume + secondVolume;
                turnoverSums += (first * firstVolume) + (second * secondVolume);
            }

            i = volumeVectors.Length * Vector<int>.Count;
            totals = Reduce(highs, lows, ordered, volumeSums, turnoverSums, prices[..i]);
        }

        for (; i < prices.Length; i++)
        {
            totals = totals.Then(prices[i], volumes[i]);
        }

        return totals;
    }

    /// <summary>The totals of a vectorised pass from its running vectors, given the <paramref name="prices"/> it read.</summary>
    private static Totals Reduce(Vector<double> highs, Vector<double> lows, Vector<long> ordered, Vector<double> volumes, Vector<double> turnovers,
        ReadOnlySpan<double> prices)
    {
        double high = double.NaN;
        double low = double.NaN;
        for (int lane = 0; lane < Vector<double>.Count; lane++)
        {
            high = double.MaxNumber(high, highs[lane]);
            low = double.MinNumber(low, lows[lane]);
        }

        // The vector max and min do not pass over NaN, and on .NET 8 (maxpd, minpd) do not order -0.0 below 0.0;
        // the rare pass that needs either is read again one value at a time.
        if (!Vector.EqualsAll(ordered, Vector<long>.AllBitsSet) || high == 0 || low == 0)
        {
            (high, low) = (double.NaN, double.NaN);
            foreach (double price in prices)
            {
                high = double.MaxNumber(high, price);
                low = double.MinNumber(low, price);
            }
        }

        return new Totals(high, low, Vector.Sum(volumes), Vector.Sum(turnovers));
    }

    private readonly record struct Totals(double High, double Low, double Volume, double Turnover)
    {
        public Totals Then(Totals next) =>
            new(double.MaxNumber(High, next.High), double.MinNumber(Low, next.Low), Volume + next.Volume, Turnover + next.Turnover);

        public Totals Then(double price, double volume) =>
            new(double.MaxNumber(High, price), double.MinNumber(Low, price), Volume + volume, Turnover + (price * volume));
    }
}
