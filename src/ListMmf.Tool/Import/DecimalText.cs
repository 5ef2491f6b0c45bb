using System;

namespace ListMmf.Tool.Import;

/// <summary>
/// The common case of a CSV price, parsed without the general parser: an optional '-', digits, an optional '.' and
/// digits, at most 15 digits in all. The digits then make an integer below 2^53 and the point a power of ten up to
/// 10^22, both exact doubles, so their quotient, rounded once by the division, is the correctly rounded value: the
/// double <see cref="double.Parse(string)"/> gives (Clinger's fast path). Anything else is left to that parser.
/// </summary>
internal static class DecimalText
{
    private const int MaximumDigits = 15;

    private static readonly double[] PowersOfTen =
    [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];

    /// <summary>The value of <paramref name="text"/> when it is a plain decimal of at most 15 digits; false for anything else.</summary>
    public static bool TryParse(ReadOnlySpan<byte> text, out double value)
    {
        value = 0;
        bool negative = !text.IsEmpty && text[0] == '-';
        int i = negative ? 1 : 0;
        int wholeStart = i;
        long mantissa = Digits(text, ref i);
        int wholeDigits = i - wholeStart;
        int fraction = 0;
        if (i < text.Length && text[i] == '.')
        {
            int fractionStart = ++i;
            mantissa = Digits(text, ref i, mantissa);
            fraction = i - fractionStart;
        }

        int digits = wholeDigits + fraction;
        if (i != text.Length || digits == 0 || digits > MaximumDigits)
        {
            return false;
        }

        double magnitude = fraction > 0 ? mantissa / PowersOfTen[fraction] : mantissa;
        value = negative ? -magnitude : magnitude;
        return true;
    }

    /// <summary>
    /// The digits from <paramref name="i"/> on appended to <paramref name="value"/>; <paramref name="i"/> ends at the
    /// first byte that is not one. Past 18 digits the value wraps, for callers that refuse that many.
    /// </summary>
    internal static long Digits(ReadOnlySpan<byte> text, ref int i, long value = 0)
    {
        for (; i < text.Length; i++)
        {
            uint digit = (uint)(text[i] - '0');
            if (digit > 9)
            {
                break;
            }

            value = (value * 10) + digit;
        }

        return value;
    }
}
