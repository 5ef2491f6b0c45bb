using System;
using System.Globalization;
using System.Numerics;
using System.Text;
using ListMmf.Tool.Csv;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// Unix times in each unit become the DateTime ticks exact arithmetic gives, and are refused where DateTime cannot
/// hold them or where they are finer than a tick.
/// </summary>
public sealed class TimeFormatTests
{
    [Theory]
    [InlineData("unix", "0")]
    [InlineData("unix", "-1")]
    [InlineData("unix", "253402300799")]
    [InlineData("unix", "253402300800")]
    [InlineData("unix", "-62135596800")]
    [InlineData("unix", "-62135596801")]
    [InlineData("unixms", "-1")]
    [InlineData("unixms", "253402300799999")]
    [InlineData("unixms", "253402300800000")]
    [InlineData("unixns", "-100")]
    [InlineData("unixns", "-150")]
    [InlineData("unixns", "1704187800123456789")]
    [InlineData("unixns", "-9223372036854775800")]
    [InlineData("unixns", "9223372036854775800")]
    public void AUnixTimeIsItsExactTicksOrRefused(string format, string text) =>
        AssertExact(TimeFormat.Parse(format), long.Parse(text, CultureInfo.InvariantCulture));

    [Fact]
    public void RandomUnixTimesAreTheirExactTicksOrRefused()
    {
        var random = new Random(1970);
        foreach (string format in new[] { "unix", "unixms", "unixns" })
        {
            for (int n = 0; n < 50_000; n++)
            {
                AssertExact(TimeFormat.Parse(format), random.NextInt64(long.MinValue, long.MaxValue) >> random.Next(64));
            }
        }
    }

    private static void AssertExact(TimeFormat format, long value)
    {
        (BigInteger unitTicks, BigInteger perTick) = format.Name switch
        {
            "unix" => ((BigInteger)TimeSpan.TicksPerSecond, BigInteger.One),
            "unixms" => (TimeSpan.TicksPerMillisecond, BigInteger.One),
            _ => (BigInteger.One, (BigInteger)100),
        };
        BigInteger exact = (value * unitTicks) + (DateTime.UnixEpoch.Ticks * perTick);
        bool whole = exact % perTick == 0;
        BigInteger ticks = exact / perTick;
        bool held = ticks >= 0 && ticks <= DateTime.MaxValue.Ticks;

        bool parsed = format.TryParse(Encoding.ASCII.GetBytes(value.ToString(CultureInfo.InvariantCulture)), out long result, out string? problem);

        Assert.True(parsed == (whole && held), $"{format.Name} {value}: parsed {parsed}, {problem}");
        if (parsed)
        {
            Assert.Equal((long)ticks, result);
        }
        else
        {
            Assert.Contains(whole ? "outside the range of DateTime" : "finer than 100 ns", problem);
        }
    }
}
