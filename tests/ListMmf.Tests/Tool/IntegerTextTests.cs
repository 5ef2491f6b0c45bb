using System;
using System.Globalization;
using System.Text;
using ListMmf.Tool.Import;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>The fast path for plain integers gives the value the general parser gives, or leaves the text to it.</summary>
public sealed class IntegerTextTests
{
    [Theory]
    [InlineData("0")]
    [InlineData("-0")]
    [InlineData("007")]
    [InlineData("117")]
    [InlineData("-2147483648")]
    [InlineData("999999999999999999")]
    [InlineData("-999999999999999999")]
    public void APlainIntegerIsTheValueTheParserGives(string text)
    {
        Assert.True(IntegerText.TryParse(Encoding.ASCII.GetBytes(text), out long value));
        Assert.Equal(long.Parse(text, NumberStyles.Integer, CultureInfo.InvariantCulture), value);
    }

    [Theory]
    [InlineData("")]
    [InlineData("-")]
    [InlineData("+1")]
    [InlineData(" 1")]
    [InlineData("1 ")]
    [InlineData("1.0")]
    [InlineData("--1")]
    [InlineData("1000000000000000000")]
    [InlineData("9223372036854775808")]
    public void AnythingElseIsLeftToTheParser(string text) =>
        Assert.False(IntegerText.TryParse(Encoding.ASCII.GetBytes(text), out _));

    [Fact]
    public void RandomIntegersAreTheValuesTheParserGives()
    {
        var random = new Random(2026);
        for (int n = 0; n < 200_000; n++)
        {
            var text = new StringBuilder(random.Next(3) == 0 ? "-" : "");
            int digits = random.Next(1, 20);
            for (int d = 0; d < digits; d++)
            {
                text.Append((char)('0' + random.Next(10)));
            }

            string written = text.ToString();
            bool fast = IntegerText.TryParse(Encoding.ASCII.GetBytes(written), out long value);
            Assert.Equal(digits <= 18, fast);
            if (fast)
            {
                Assert.Equal(long.Parse(written, NumberStyles.Integer, CultureInfo.InvariantCulture), value);
            }
        }
    }
}
