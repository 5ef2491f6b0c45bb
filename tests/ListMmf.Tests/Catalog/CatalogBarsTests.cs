using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.TestHost;
using Xunit;
using Form = ListMmf.Tests.Catalog.TimeSeriesCatalogTests.Form;

namespace ListMmf.Tests.Catalog;

public sealed class CatalogBarsTests
{
    [Theory]
    [InlineData(51, Form.Appendable, 10)]
    [InlineData(52, Form.Sealed, 60)]
    [InlineData(53, Form.Mixed, 86_400)]
    public void EachInstrumentsBarsAreThoseAScanOfItsRowsInTheRangeGives(int seed, Form form, int seconds)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(seed);
        TimeSeriesCatalogTests.Write(folder.Path, world, form);
        DateTime from = CatalogWorld.FirstDay.AddHours(9.5).AddSeconds(17);
        DateTime to = CatalogWorld.FirstDay.AddDays(2).AddHours(9.5).AddSeconds(43);
        TimeSpan interval = TimeSpan.FromSeconds(seconds);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        IReadOnlyList<OhlcvBar[]> bars = catalog.Bars("trades", "price", "id", from, to, interval);

        string[] instruments = world.Instruments();
        Assert.Equal(instruments.Length, bars.Count);
        Assert.Contains(bars, instrument => instrument.Length > 1);
        for (int at = 0; at < instruments.Length; at++)
        {
            Assert.Equal(Scan(world, instruments[at], from, to, interval), bars[at].Select(Summary));
        }
    }

    [Fact]
    public void BarsOfTheInstrumentsGivenComeInTheOrderGiven()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(54);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Appendable);
        string[] asked = Enumerable.Reverse(world.Instruments()).Take(2).ToArray();

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        IReadOnlyList<OhlcvBar[]> bars = catalog.Bars("quotes", "bid", "id", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromMinutes(1), asked);

        Assert.Equal(2, bars.Count);
        Assert.Equal(world.Rows.Count(row => row.Kind == "quotes" && row.Instrument == asked[1]), bars[1].Sum(bar => bar.Count));
    }

    [Fact]
    public void BarsEndAtTheRowsTheIndexRecordsThoughTheWriterAddedMore()
    {
        using var folder = new TempDirectory();
        DateTime open = CatalogWorld.FirstDay.AddHours(9.5);
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", open, 1);
        writer.Flush();
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", open, 2);
        writer.Partition("trades", "SPY", open).Flush();

        using var reader = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        OhlcvBar bar = Assert.Single(reader.Bars("trades", "price", "id", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromMinutes(1))[0]);

        Assert.Equal(1, bar.Count);
        Assert.Equal(1, bar.Volume);
    }

    [Theory]
    [InlineData(7)]
    [InlineData(7 * 86_400)]
    [InlineData(0)]
    public void AnIntervalThatDoesNotDivideADayIsRefused(int seconds)
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogTests.Write(folder.Path, CatalogWorld.Random(55), Form.Appendable);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);

        ArgumentOutOfRangeException refused = Assert.Throws<ArgumentOutOfRangeException>(
            () => catalog.Bars("trades", "price", "id", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromSeconds(seconds)));
        Assert.Contains("divide a day", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void BarsOfAColumnTheKindDoesNotHaveAreRefusedNamingItsColumns()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogTests.Write(folder.Path, CatalogWorld.Random(56), Form.Appendable);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);

        ArgumentException refused = Assert.Throws<ArgumentException>(
            () => catalog.Bars("trades", "bid", "id", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromMinutes(1)));
        Assert.Contains("price, id", refused.Message, StringComparison.Ordinal);
    }

    private static (DateTime Start, long Count, double Open, double High, double Low, double Close, double Volume) Summary(OhlcvBar bar) =>
        (bar.Start, bar.Count, bar.Open, bar.High, bar.Low, bar.Close, bar.Volume);

    /// <summary>The bars of an instrument's trades in [from, to), by grouping its rows in their order.</summary>
    private static IEnumerable<(DateTime, long, double, double, double, double, double)> Scan(
        CatalogWorld world, string instrument, DateTime from, DateTime to, TimeSpan interval) =>
        world.Rows.Where(row => row.Kind == "trades" && row.Instrument == instrument && row.Time >= from && row.Time < to)
            .GroupBy(row => new DateTime(row.Time.Ticks - (row.Time.Ticks % interval.Ticks)))
            .Select(bar => (bar.Key, (long)bar.Count(), bar.First().Id / 100.0, bar.Max(row => row.Id / 100.0), bar.Min(row => row.Id / 100.0),
                bar.Last().Id / 100.0, (double)bar.Sum(row => row.Id)));
}
