using System;
using System.Linq;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.Catalog;

/// <summary>
/// A catalog places the times it is given by its tables' rule: where its times are UTC, a Local time is converted and
/// an Unspecified one refused (the ends of time aside); where they are not, a Local time is refused, since no zone is
/// recorded to convert it to.
/// </summary>
public sealed class CatalogTimeArgumentTests
{
    private static readonly DateTime Ten = DateTime.SpecifyKind(CatalogWorld.FirstDay.AddHours(10), DateTimeKind.Unspecified);

    [Fact]
    public void ALocalTimeIsRefusedByACatalogOfClockTimesNamingIt()
    {
        using var folder = new TempDirectory();
        using TimeSeriesCatalog catalog = Created(folder.Path, utc: false);

        var refused = Assert.Throws<ArgumentException>(() => catalog.Replay(DateTime.SpecifyKind(Ten, DateTimeKind.Local), DateTime.MaxValue));

        Assert.Contains(folder.Path, refused.Message, StringComparison.Ordinal);
        Assert.Contains("DateTimeKind.Local", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnUnspecifiedTimeIsRefusedByACatalogOfUtcTimes()
    {
        using var folder = new TempDirectory();
        using TimeSeriesCatalog catalog = Created(folder.Path, utc: true);

        var refused = Assert.Throws<ArgumentException>(() => catalog.StateAt("trades", Ten, ["price"]));

        Assert.Contains("does not say its zone", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ALocalTimeIsConvertedByACatalogOfUtcTimes()
    {
        using var folder = new TempDirectory();
        using TimeSeriesCatalog catalog = Created(folder.Path, utc: true);
        DateTime utc = DateTime.SpecifyKind(Ten, DateTimeKind.Utc);

        CatalogState state = catalog.StateAt("trades", utc.ToLocalTime(), ["price"]);

        Assert.Equal([1.5], state.Values<double>(0).ToArray());
    }

    [Fact]
    public void TheEndsOfTimeArePlacedInEveryCatalog()
    {
        using var folder = new TempDirectory();
        using TimeSeriesCatalog catalog = Created(folder.Path, utc: true);

        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue);

        Assert.True(replay.MoveNext());
    }

    [Fact]
    public void TheWatermarkOfACatalogOfUtcTimesIsUtcAndGoesBackIntoIt()
    {
        using var folder = new TempDirectory();
        using TimeSeriesCatalog catalog = Created(folder.Path, utc: true);
        catalog.Flush(DateTime.SpecifyKind(Ten.AddMinutes(1), DateTimeKind.Utc));

        DateTime watermark = catalog.Watermark;
        using CatalogReplay before = catalog.Replay(DateTime.MinValue, watermark);

        Assert.Equal(DateTimeKind.Utc, watermark.Kind);
        Assert.True(before.MoveNext());
        catalog.Flush(watermark);
    }

    [Fact]
    public void AReplayOfUtcKindsPlacesItsTimesAsUtcInACatalogThatAlsoHoldsClockTimes()
    {
        using var folder = new TempDirectory();
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("price"))
            .Add("quotes", new TimeSeriesTableSchema("time", DataType.DateTime) { TimesAreUtc = true }.Add<double>("bid"));
        using var catalog = TimeSeriesCatalog.Create(folder.Path, schema);

        Assert.Throws<ArgumentException>(() => catalog.Replay(Ten, DateTime.MaxValue, kinds: ["quotes"]));
        catalog.Replay(DateTime.SpecifyKind(Ten, DateTimeKind.Utc), DateTime.MaxValue, kinds: ["quotes"]).Dispose();
        catalog.Replay(Ten, DateTime.MaxValue, kinds: ["trades"]).Dispose();
    }

    /// <summary>A catalog of one trade of SPY at 10:00, its times UTC or clock times.</summary>
    private static TimeSeriesCatalog Created(string folder, bool utc)
    {
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime) { TimesAreUtc = utc }.Add<double>("price"));
        var catalog = TimeSeriesCatalog.Create(folder, schema);
        DateTime time = utc ? DateTime.SpecifyKind(Ten, DateTimeKind.Utc) : Ten;
        TimeSeriesTable trades = catalog.Partition("trades", "SPY", time);
        trades.Column<double>("price").Add(1.5);
        trades.AddRow(time);
        catalog.Flush();
        return catalog;
    }
}
