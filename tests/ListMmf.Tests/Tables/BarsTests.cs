using System;
using System.Collections.Generic;
using System.Linq;
using System.Numerics;
using Xunit;

namespace ListMmf.Tests.Tables;

/// <summary><see cref="TimeSeriesTable.Bars"/> against a plain loop over every row.</summary>
public sealed class BarsTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>
    /// Three pieces of rows and more, so that the pieces run on several threads and bars that a piece boundary cuts
    /// are joined. Prices are quarter points and volumes integers, so every sum is exact whatever its order.
    /// </summary>
    [Theory]
    [InlineData(250L * TimeSpan.TicksPerMillisecond)]
    [InlineData(TimeSpan.TicksPerSecond)]
    [InlineData(TimeSpan.TicksPerMinute)]
    [InlineData(7 * TimeSpan.TicksPerMinute)]
    [InlineData(TimeSpan.TicksPerHour)]
    [InlineData(TimeSpan.TicksPerDay)]
    public void BarsOfEveryIntervalMatchAPlainLoopOverEveryRow(long intervalTicks)
    {
        Ticks ticks = Ticks.Bursty(3_300_000, seed: 11);
        using TimeSeriesTable table = Create<double, int>(ticks);

        OhlcvBar[] bars = table.Bars("price", "volume", DateTime.MinValue, DateTime.MaxValue, new TimeSpan(intervalTicks));

        Assert.Equal(PlainBars(ticks, 0, ticks.Times.Length, intervalTicks), bars);
    }

    [Fact]
    public void ARangeThatStartsInsideABarKeepsTheBarsBoundaryAndOnlyTheRangesRows()
    {
        Ticks ticks = Ticks.Bursty(20_000, seed: 3);
        using TimeSeriesTable table = Create<double, int>(ticks);
        DateTime from = new DateTime(ticks.Times[5_000]).AddMilliseconds(1);
        DateTime to = new DateTime(ticks.Times[15_000]);

        OhlcvBar[] bars = table.Bars("price", "volume", from, to, TimeSpan.FromMinutes(1));

        IndexRange rows = table.FindRange(from, to);
        Assert.Equal(PlainBars(ticks, (int)rows.Start, (int)rows.End, TimeSpan.TicksPerMinute), bars);
        Assert.True(bars[0].Start <= from, $"the first bar starts at {bars[0].Start:O}, after {from:O}");
        Assert.Equal(0, bars[0].Start.Ticks % TimeSpan.TicksPerMinute);
    }

    [Fact]
    public void HighAndLowPassOverNaNAndTellNegativeZeroFromZero()
    {
        Ticks ticks = Ticks.Bursty(4_000, seed: 5);
        // The first half mixes NaN in; the second has none, so that zeros of both signs meet in the vector max and min.
        for (int i = 0; i < ticks.Prices.Length; i++)
        {
            ticks.Prices[i] = (i < 2_000 ? i % 7 : (i % 6) + 1) switch { 0 => double.NaN, 1 => -0.0, 2 => 0.0, _ => -(i % 13) * 0.25 };
        }

        ticks.Prices.AsSpan(100, 300).Fill(double.NaN);
        ticks.Prices.AsSpan(2_500, 600).Fill(-0.0);
        for (int i = 2_500; i < 3_100; i += 16)
        {
            ticks.Prices[i] = 0.0;
        }
        using TimeSeriesTable table = Create<double, int>(ticks);

        OhlcvBar[] bars = table.Bars("price", "volume", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromSeconds(30));

        OhlcvBar[] expected = PlainBars(ticks, 0, ticks.Times.Length, 30 * TimeSpan.TicksPerSecond);
        Assert.Equal(expected, bars);
        Assert.Equal(expected.Select(bar => (Bits(bar.High), Bits(bar.Low))), bars.Select(bar => (Bits(bar.High), Bits(bar.Low))));
        Assert.Contains(bars, bar => double.IsNaN(bar.High));
        Assert.Contains(bars, bar => Bits(bar.High) == Bits(-0.0));
        Assert.Contains(bars, bar => bar.Rows.Start >= 2_000 && Bits(bar.High) == Bits(0.0) && Bits(bar.Low) != Bits(0.0));
    }

    [Fact]
    public void SinglePrecisionPricesAndLongVolumesAreReadAsDoubles() => AssertTypesMatchAPlainLoop<float, long>();

    [Fact]
    public void IntegerTickPricesAndIntegerVolumesAreReadAsDoubles() => AssertTypesMatchAPlainLoop<int, int>();

    [Fact]
    public void LongPricesAndDoubleVolumesAreReadAsDoubles() => AssertTypesMatchAPlainLoop<long, double>();

    [Fact]
    public void ABarIntervalThatIsNotPositiveIsRefused()
    {
        using TimeSeriesTable table = Create<double, int>(Ticks.Bursty(10, seed: 1));

        var error = Assert.Throws<ArgumentOutOfRangeException>(() => table.Bars("price", "volume", DateTime.MinValue, DateTime.MaxValue, TimeSpan.Zero));

        Assert.Equal("interval", error.ParamName);
    }

    [Fact]
    public void AnUnknownColumnIsRefusedNamingIt()
    {
        using TimeSeriesTable table = Create<double, int>(Ticks.Bursty(10, seed: 1));

        var error = Assert.Throws<ArgumentException>(() => table.Bars("price", "size", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromMinutes(1)));

        Assert.Equal("volume", error.ParamName);
        Assert.Contains("no column 'size'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnEmptyRangeHasNoBars()
    {
        Ticks ticks = Ticks.Bursty(1_000, seed: 2);
        using TimeSeriesTable table = Create<double, int>(ticks);

        Assert.Empty(table.Bars("price", "volume", Start.AddYears(1), Start.AddYears(2), TimeSpan.FromMinutes(1)));
    }

    private static long Bits(double value) => BitConverter.DoubleToInt64Bits(value);

    private void AssertTypesMatchAPlainLoop<TPrice, TVolume>()
        where TPrice : unmanaged, INumber<TPrice>
        where TVolume : unmanaged, INumber<TVolume>
    {
        Ticks ticks = Ticks.Bursty(1_500_000, seed: 7);
        ticks = ticks with { Prices = ticks.Prices.Select(price => double.CreateTruncating(TPrice.CreateTruncating(price))).ToArray() };
        using TimeSeriesTable table = Create<TPrice, TVolume>(ticks);

        OhlcvBar[] bars = table.Bars("price", "volume", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromMinutes(5));

        Assert.Equal(PlainBars(ticks, 0, ticks.Times.Length, 5 * TimeSpan.TicksPerMinute), bars);
    }

    /// <summary>The bars by the definition, one row at a time.</summary>
    private static OhlcvBar[] PlainBars(Ticks ticks, int first, int end, long interval)
    {
        var bars = new List<OhlcvBar>();
        for (int row = first; row < end; row++)
        {
            var start = new DateTime(ticks.Times[row] - (ticks.Times[row] % interval));
            double price = ticks.Prices[row];
            double volume = ticks.Volumes[row];
            if (bars.Count > 0 && bars[^1].Start == start)
            {
                OhlcvBar bar = bars[^1];
                bars[^1] = bar with
                {
                    Rows = new IndexRange(bar.Rows.Start, row + 1),
                    High = double.MaxNumber(bar.High, price),
                    Low = double.MinNumber(bar.Low, price),
                    Close = price,
                    Volume = bar.Volume + volume,
                    Turnover = bar.Turnover + (price * volume),
                };
            }
            else
            {
                bars.Add(new OhlcvBar(start, new IndexRange(row, row + 1), price, price, price, price, volume, price * volume));
            }
        }

        return bars.ToArray();
    }

    private TimeSeriesTable Create<TPrice, TVolume>(Ticks ticks)
        where TPrice : unmanaged, INumber<TPrice>
        where TVolume : unmanaged, INumber<TVolume>
    {
        TimeSeriesTable table = TimeSeriesTable.Create(
            _directory.File("ticks"),
            new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.AscendingOrEqual).Add<TPrice>("price").Add<TVolume>("volume"));
        table.Column<TPrice>("price").AddRange(ticks.Prices.Select(TPrice.CreateChecked).ToArray());
        table.Column<TVolume>("volume").AddRange(ticks.Volumes.Select(TVolume.CreateChecked).ToArray());
        table.AddRows(ticks.Times);
        return table;
    }

    /// <summary>Ticks in bursts: runs of equal times, gaps of up to a few minutes; prices in quarter points, integer volumes.</summary>
    private sealed record Ticks(long[] Times, double[] Prices, double[] Volumes)
    {
        public static Ticks Bursty(int count, int seed)
        {
            var random = new Random(seed);
            var times = new long[count];
            long time = Start.Ticks;
            for (int i = 0; i < count; i++)
            {
                int gap = random.Next(100);
                time += gap < 40 ? 0 : gap < 95 ? random.Next(1, 2_000) * TimeSpan.TicksPerMillisecond : random.Next(1, 300) * TimeSpan.TicksPerSecond;
                times[i] = time;
            }

            double[] prices = Enumerable.Range(0, count).Select(_ => 4_000 + (random.Next(8_000) * 0.25)).ToArray();
            double[] volumes = Enumerable.Range(0, count).Select(_ => (double)random.Next(1, 500)).ToArray();
            return new Ticks(times, prices, volumes);
        }
    }
}
