using System;

namespace ListMmf.Tool.Import;

/// <summary>
/// The common case of a CSV integer, parsed without the general parser: an optional '-' and 1 to 18 digits, which
/// always fit a long. Anything else (a '+', white space, more digits) is left to that parser, which decides.
/// </summary>
internal static class IntegerText
{
    private const int MaximumDigits = 18;

    /// <summary>The value of <paramref name="text"/> when it is an optional '-' and 1 to 18 digits; false for anything else.</summary>
    public static bool TryParse(ReadOnlySpan<byte> text, out long value)
    {
        bool negative = !text.IsEmpty && text[0] == '-';
        int i = negative ? 1 : 0;
        int start = i;
        long magnitude = DecimalText.Digits(text, ref i);
        int digits = i - start;
        value = negative ? -magnitude : magnitude;
        return i == text.Length && digits > 0 && digits <= MaximumDigits;
    }
}
