using System;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Sealed;

/// <summary>
/// Floating-point values as integers over a power of ten (<see cref="SealedCodec.Decimals"/>): prices in cents or
/// pips, which no power-of-two step holds. As ALP (SIGMOD 2024) does, the exponent is the smallest that gives every
/// value of a block back; unlike ALP, a value is decoded by dividing by the power of ten rather than multiplying by its
/// inverse. Both operands are exact, so the quotient is the double nearest the decimal, which is what a parser made
/// of the price: every value that came from a decimal of up to <c>e</c> places comes back, and no exceptions are kept.
/// </summary>
internal static class DecimalScaling
{
    /// <summary>The largest exponent for doubles: 10^22 is the largest power of ten a double holds exactly.</summary>
    private const int MaximumExponentDouble = 22;

    /// <summary>The largest exponent for singles: 10^10 is the largest power of ten a single holds exactly.</summary>
    private const int MaximumExponentSingle = 10;

    private const double IntegerLimitDouble = 1L << 53;
    private const double IntegerLimitSingle = 1L << 24;

    private static readonly double[] PowersOfTen = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
        1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

    /// <summary>
    /// The integers <paramref name="scaled"/> and the power of ten <paramref name="divisor"/> that give back every one
    /// of <paramref name="values"/> (widened from binary32 where <paramref name="single"/>) bit for bit by
    /// <see cref="Decode(long, double)"/> or <see cref="Decode(long, float)"/>; false when no exponent of 1 to 22 (10
    /// for singles) does, or a value is -0.0, NaN or infinite.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static bool TryScale(ReadOnlySpan<double> values, bool single, Span<long> scaled, out double divisor)
    {
        divisor = 0;
        int maximum = single ? MaximumExponentSingle : MaximumExponentDouble;
        int exponent = 1;

        // One pass at the final exponent gives every integer: a value that needs a larger one restarts the pass, which
        // happens at most once per exponent and in practice within the block's first values.
        int i = 0;
        while (i < values.Length)
        {
            if (!single && Vector.IsHardwareAccelerated && i + Vector<double>.Count <= values.Length &&
                TryScaleVector(values.Slice(i, Vector<double>.Count), PowersOfTen[exponent], scaled[i..]))
            {
                i += Vector<double>.Count;
                continue;
            }

            double value = values[i];
            if (!double.IsFinite(value) || BitConverter.DoubleToInt64Bits(value) == long.MinValue)
            {
                return false;
            }

            if (TryScaleOne(value, exponent, single, out scaled[i]))
            {
                i++;
            }
            else if (++exponent > maximum)
            {
                return false;
            }
            else
            {
                i = 0;
            }
        }

        divisor = PowersOfTen[exponent];
        return true;
    }

    /// <summary>
    /// Whether <paramref name="step"/> is a divisor a decimal block may hold: 10 to 10^22, or to 10^10 for singles
    /// (the powers of ten binary32 holds exactly).
    /// </summary>
    public static bool IsDivisor(double step, bool single) =>
        PowersOfTen.AsSpan(1, single ? MaximumExponentSingle : MaximumExponentDouble).Contains(step);

    /// <summary>A double item from its integer: the quotient, rounded once.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static double Decode(long scaled, double divisor) => scaled / divisor;

    /// <summary>
    /// Replaces <paramref name="count"/> integers by their doubles over <paramref name="divisor"/>, in place: the same
    /// quotients as <see cref="Decode(long, double)"/>, a vector at a time, since a scalar division would bound the
    /// decoding.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static unsafe void DivideInPlace(long* integers, int count, double divisor)
    {
        double* items = (double*)integers;
        int i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var by = new Vector<double>(divisor);
            for (; i + Vector<long>.Count <= count; i += Vector<long>.Count)
            {
                Vector<long> scaled = Unsafe.ReadUnaligned<Vector<long>>(integers + i);
                Unsafe.WriteUnaligned(items + i, Vector.ConvertToDouble(scaled) / by);
            }
        }

        for (; i < count; i++)
        {
            items[i] = Decode(integers[i], divisor);
        }
    }

    /// <summary>A single item from its integer: the quotient in binary32, rounded once.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static float Decode(long scaled, float divisor) => scaled / divisor;

    /// <summary>
    /// <see cref="TryScaleOne"/> for a vector of doubles at once; false when any of them is not given back, which the
    /// scalar path then settles. The nearest integer is taken as the floor of the product plus a half: a product that
    /// is not near an integer is refused by the check either way.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryScaleVector(ReadOnlySpan<double> values, double power, Span<long> scaled)
    {
        var value = new Vector<double>(values);
        var by = new Vector<double>(power);
        Vector<double> integer = Vector.Floor((value * by) + new Vector<double>(0.5));
        if (!Vector.LessThanAll(Vector.Abs(integer), new Vector<double>(IntegerLimitDouble)))
        {
            return false;
        }

        Vector<long> integers = Vector.ConvertToInt64(integer);
        if (Vector.AsVectorInt64(Vector.ConvertToDouble(integers) / by) != Vector.AsVectorInt64(value))
        {
            return false;
        }

        integers.CopyTo(scaled);
        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryScaleOne(double value, int exponent, bool single, out long scaled)
    {
        // The product may be off by an ulp; rounding to the nearest integer recovers the decimal's digits.
        double integer = Math.Round(value * PowersOfTen[exponent]);
        if (!(Math.Abs(integer) < (single ? IntegerLimitSingle : IntegerLimitDouble)))
        {
            scaled = 0;
            return false;
        }

        scaled = (long)integer;
        return single
            ? BitConverter.SingleToInt32Bits(Decode(scaled, (float)PowersOfTen[exponent])) == BitConverter.SingleToInt32Bits((float)value)
            : BitConverter.DoubleToInt64Bits(Decode(scaled, PowersOfTen[exponent])) == BitConverter.DoubleToInt64Bits(value);
    }
}
