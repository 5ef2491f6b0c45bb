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
        long mantissa = 0;
        int digits = 0;
        int fraction = -1;
        for (; i < text.Length; i++)
        {
            uint digit = (uint)(text[i] - '0');
            if (digit <= 9)
            {
                mantissa = (mantissa * 10) + digit;
                digits++;
                fraction += fraction >= 0 ? 1 : 0;
            }
            else if (text[i] == '.' && fraction < 0)
            {
                fraction = 0;
            }
            else
            {
                return false;
            }
        }

        if (digits == 0 || digits > MaximumDigits)
        {
            return false;
        }

        double magnitude = fraction > 0 ? mantissa / PowersOfTen[fraction] : mantissa;
        value = negative ? -magnitude : magnitude;
        return true;
    }
}
