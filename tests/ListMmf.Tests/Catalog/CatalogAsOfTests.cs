using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.TestHost;
using Xunit;
using Form = ListMmf.Tests.Catalog.TimeSeriesCatalogTests.Form;

namespace ListMmf.Tests.Catalog;

public sealed class CatalogAsOfTests
{
    [Theory]
    [InlineData(81, Form.Appendable)]
    [InlineData(82, Form.Sealed)]
    [InlineData(83, Form.Mixed)]
    public void EachTradeGetsTheLastQuoteAtOrBeforeItAsATwoPointerWalkFindsIt(int seed, Form form)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(seed, rowsPerSeriesDay: 60);
        TimeSeriesCatalogTests.Write(folder.Path, world, form);

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        DateTime secondDay = CatalogWorld.FirstDay.AddDays(1).AddHours(9.5);
        (DateTime, DateTime)[] ranges = [(DateTime.MinValue, DateTime.MaxValue), (secondDay.AddSeconds(20), secondDay.AddDays(1).AddSeconds(40))];
        foreach ((DateTime from, DateTime to) in ranges)
        {
            foreach (string instrument in world.Instruments())
            {
                CatalogAsOf join = catalog.AsOf("trades", "quotes", instrument, from, to, leftColumns: ["id"], rightColumns: ["id", "bid"]);

                (CatalogWorld.Row Trade, CatalogWorld.Row? Quote)[] expected = Walk(world, instrument, from, to);
                Assert.Equal(expected.Select(pair => pair.Trade.Time), join.Times.ToArray());
                Assert.Equal(expected.Select(pair => pair.Trade.Id), join.LeftValues<long>(0).ToArray());
                Assert.Equal(expected.Select(pair => pair.Quote is not null), join.Matched.ToArray());
                Assert.Equal(expected.Select(pair => pair.Quote?.Time ?? DateTime.MinValue), join.MatchedTimes.ToArray());
                Assert.Equal(expected.Select(pair => pair.Quote?.Id ?? 0), join.RightValues<long>(0).ToArray());
                Assert.Equal(expected.Select(pair => (pair.Quote?.Id ?? 0) / 100.0), join.RightValues<double>(1).ToArray());
            }
        }
    }

    [Fact]
    public void AQuoteTheWriterHasNotRecordedIsNotMatched()
    {
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, CatalogWorld.Schema());
        DateTime ten = CatalogWorld.FirstDay.AddHours(10);
        AddQuote(writer, "SPY", ten.AddSeconds(-1), 1);
        TimeSeriesCatalogTests.AddTrade(writer, "SPY", ten, 2);
        writer.Flush();
        AddQuote(writer, "SPY", ten, 3);

        CatalogAsOf join = writer.AsOf("trades", "quotes", "SPY", DateTime.MinValue, DateTime.MaxValue, rightColumns: ["id"]);

        Assert.Equal([1L], join.RightValues<long>(0).ToArray());
    }

    [Fact]
    public void KindsOfDifferentZonesAreRefused()
    {
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("price"))
            .Add("quotes", new TimeSeriesTableSchema("time", DataType.DateTime) { TimesAreUtc = true }.Add<double>("bid"));
        using var folder = new TempDirectory();
        using var writer = TimeSeriesCatalog.Create(folder.Path, schema);
        TimeSeriesTable trades = writer.Partition("trades", "SPY", CatalogWorld.FirstDay);
        trades.Column<double>("price").Add(1);
        trades.AddRow(CatalogWorld.FirstDay);

        var refused = Assert.Throws<ArgumentException>(() => writer.AsOf("trades", "quotes", "SPY", DateTime.MinValue, DateTime.MaxValue));
        Assert.Contains("one zone", refused.Message, StringComparison.Ordinal);
    }

    /// <summary>Each trade of <paramref name="instrument"/> in the range with the last quote at or before it, by a walk of two pointers.</summary>
    private static (CatalogWorld.Row Trade, CatalogWorld.Row? Quote)[] Walk(CatalogWorld world, string instrument, DateTime from, DateTime to)
    {
        List<CatalogWorld.Row> quotes = world.Rows.Where(row => row.Kind == "quotes" && row.Instrument == instrument).ToList();
        var pairs = new List<(CatalogWorld.Row, CatalogWorld.Row?)>();
        int last = -1;
        foreach (CatalogWorld.Row trade in world.Rows.Where(row => row.Kind == "trades" && row.Instrument == instrument))
        {
            while (last + 1 < quotes.Count && quotes[last + 1].Time <= trade.Time)
            {
                last++;
            }

            if (trade.Time >= from && trade.Time < to)
            {
                pairs.Add((trade, last >= 0 ? quotes[last] : null));
            }
        }

        return pairs.ToArray();
    }

    private static void AddQuote(TimeSeriesCatalog catalog, string instrument, DateTime time, long id)
    {
        TimeSeriesTable table = catalog.Partition("quotes", instrument, time);
        table.Column<double>("bid").Add(id);
        table.Column<long>("id").Add(id);
        table.AddRow(time);
    }
}
