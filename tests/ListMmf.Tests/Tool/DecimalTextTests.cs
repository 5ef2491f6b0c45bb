using System;
using System.Globalization;
using System.Text;
using ListMmf.Tool.Import;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>The fast path for plain decimals gives the very double the general parser gives, or leaves the text to it.</summary>
public sealed class DecimalTextTests
{
    [Theory]
    [InlineData("0")]
    [InlineData("-0")]
    [InlineData("-0.0")]
    [InlineData("5.")]
    [InlineData(".5")]
    [InlineData("4500.25")]
    [InlineData("0.1")]
    [InlineData("0.3")]
    [InlineData("123456789012345")]
    [InlineData("0.00000000000001")]
    [InlineData("-99999.99999")]
    public void APlainDecimalIsTheDoubleTheParserGives(string text)
    {
        Assert.True(DecimalText.TryParse(Encoding.ASCII.GetBytes(text), out double value));
        Assert.Equal(BitConverter.DoubleToInt64Bits(double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture)), BitConverter.DoubleToInt64Bits(value));
    }

    [Theory]
    [InlineData("")]
    [InlineData("-")]
    [InlineData(".")]
    [InlineData("1e5")]
    [InlineData("+1")]
    [InlineData(" 1")]
    [InlineData("1.2.3")]
    [InlineData("1234567890123456")]
    [InlineData("0.1234567890123456")]
    [InlineData("NaN")]
    [InlineData("1,5")]
    public void AnythingElseIsLeftToTheParser(string text) =>
        Assert.False(DecimalText.TryParse(Encoding.ASCII.GetBytes(text), out _));

    [Fact]
    public void MillionsOfRandomDecimalsAreTheDoublesTheParserGives()
    {
        var random = new Random(2024);
        int fast = 0;
        for (int n = 0; n < 2_000_000; n++)
        {
            int digits = random.Next(1, 18);
            var text = new StringBuilder(random.Next(4) == 0 ? "-" : "");
            int point = random.Next(-1, digits + 1);
            for (int d = 0; d < digits; d++)
            {
                if (d == point)
                {
                    text.Append('.');
                }

                text.Append((char)('0' + random.Next(10)));
            }

            string written = text.ToString();
            if (DecimalText.TryParse(Encoding.ASCII.GetBytes(written), out double value))
            {
                fast++;
                double expected = double.Parse(written, NumberStyles.Float, CultureInfo.InvariantCulture);
                Assert.True(BitConverter.DoubleToInt64Bits(expected) == BitConverter.DoubleToInt64Bits(value), $"'{written}': {value:R}, the parser gives {expected:R}");
            }
        }

        Assert.True(fast > 1_000_000, $"only {fast:N0} of the texts took the fast path");
    }
}
