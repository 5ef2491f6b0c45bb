using System;
using System.IO;
using Xunit;

namespace ListMmf.Tests.TimeSeries;

/// <summary>
/// Time zones at the edges where times go in: a series or table that records its times as UTC converts Local times,
/// takes DateTimeOffsets and refuses Unspecified times; one that does not refuses Local times and DateTimeOffsets:
/// neither guesses a zone.
/// </summary>
public sealed class UtcTimesTests : IDisposable
{
    private static readonly DateTime TenUtc = new(2024, 3, 12, 10, 0, 0, DateTimeKind.Utc);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("times.bt");

    private static ListMmfOptions Utc => new() { TimesAreUtc = true };

    private static ListMmfOptions Version1 => new() { FormatVersion = ListMmfFormatVersion.Version1 };

    [Fact]
    public void ASeriesCreatedAsUtcRecordsItAndReturnsUtcTimes()
    {
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending, options: Utc))
        {
            series.Add(TenUtc);
        }

        using var reopened = ListMmfTimeSeriesDateTimeSeconds.OpenRead(FilePath, TimeSeriesOrder.Ascending);

        Assert.True(reopened.TimesAreUtc);
        Assert.True(ListMmfDescription.Read(FilePath)!.TimesAreUtc);
        Assert.Equal(DateTimeKind.Utc, reopened[0].Kind);
        Assert.Equal(TenUtc, reopened[0]);
    }

    [Fact]
    public void AUtcSeriesComparesLocalTimesAndDateTimeOffsetsAsUtc()
    {
        using var series = new ListMmfTimeSeriesDateTime(FilePath, TimeSeriesOrder.Ascending, options: Utc);
        series.Add(new DateTimeOffset(2024, 3, 12, 5, 0, 0, TimeSpan.FromHours(-5)));
        series.Add(TenUtc.AddHours(1).ToLocalTime());

        Assert.Equal([TenUtc, TenUtc.AddHours(1)], [series[0], series[1]]);
        Assert.Equal(1, series.LowerBound(new DateTimeOffset(2024, 3, 12, 12, 0, 1, TimeSpan.FromHours(2))));
        Assert.Equal(1, series.UpperBound(TenUtc.ToLocalTime()));
        Assert.Equal(new IndexRange(0, 2), series.FindRange(new DateTimeOffset(TenUtc), new DateTimeOffset(TenUtc.AddDays(1))));
    }

    [Fact]
    public void AUtcSeriesRefusesUnspecifiedTimesAndWritesNothing()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending, options: Utc);
        DateTime unspecified = DateTime.SpecifyKind(TenUtc, DateTimeKind.Unspecified);

        var refused = Assert.Throws<ArgumentException>(() => series.Add(unspecified));
        Assert.Contains(FilePath, refused.Message, StringComparison.Ordinal);
        Assert.Contains("DateTimeKind.Unspecified", refused.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => series.AddRange([TenUtc, unspecified]));
        Assert.Equal(0, series.Count);
    }

    [Fact]
    public void AUtcSeriesRefusesUnspecifiedTimesInEverySearch()
    {
        using var series = new ListMmfTimeSeriesDateTime(FilePath, TimeSeriesOrder.Ascending, options: Utc);
        series.Add(TenUtc);
        DateTime unspecified = DateTime.SpecifyKind(TenUtc.AddHours(1), DateTimeKind.Unspecified);

        Assert.Throws<ArgumentException>(() => series.LowerBound(unspecified));
        Assert.Throws<ArgumentException>(() => series.UpperBound(unspecified));
        Assert.Throws<ArgumentException>(() => series.LastAtOrBefore(unspecified));
        Assert.Throws<ArgumentException>(() => series.FindRange(TenUtc, unspecified));
        Assert.Throws<ArgumentException>(() => series.FindRange(TenUtc, DateTime.SpecifyKind(TenUtc, DateTimeKind.Unspecified)));
        Assert.Throws<ArgumentException>(() => series.LowerBound([TenUtc, unspecified], new long[2]));
    }

    [Fact]
    public void AUtcSeriesTakesDateTimeMinAndMaxValueAsTheEndsOfTime()
    {
        using var series = new ListMmfTimeSeriesDateTime(FilePath, TimeSeriesOrder.Ascending, options: Utc);
        series.Add(TenUtc);

        Assert.Equal(new IndexRange(0, 1), series.FindRange(DateTime.MinValue, DateTime.MaxValue));
        Assert.Equal(0, series.LowerBound(DateTime.MinValue));
        Assert.Equal(1, series.UpperBound(DateTime.MaxValue));
    }

    [Fact]
    public void ASeriesOfNoRecordedZoneTakesUnspecifiedTimesAsStored()
    {
        using var series = new ListMmfTimeSeriesDateTime(FilePath, TimeSeriesOrder.Ascending);
        series.Add(DateTime.SpecifyKind(TenUtc, DateTimeKind.Unspecified));

        Assert.Equal(0, series.LowerBound(DateTime.SpecifyKind(TenUtc, DateTimeKind.Unspecified)));
        Assert.Equal(DateTimeKind.Unspecified, series[0].Kind);
    }

    [Fact]
    public void AUtcTableRefusesAnUnspecifiedRowTimeAndDiscardsTheRow()
    {
        string folder = _directory.File("ticks");
        var schema = new TimeSeriesTableSchema("time") { TimesAreUtc = true }.Add<double>("price");
        using var table = TimeSeriesTable.Create(folder, schema);
        table.Column<double>("price").Add(4000.25);

        var refused = Assert.Throws<ArgumentException>(() => table.AddRow(new DateTime(2024, 3, 12, 6, 0, 0)));

        Assert.Contains("DateTimeKind.Unspecified", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, table.RowCount);
        table.Column<double>("price").Add(4000.5);
        table.AddRow(TenUtc);
        Assert.Equal(4000.5, table.Column<double>("price")[0]);
        Assert.Throws<ArgumentException>(() => table.LowerBound(new DateTime(2024, 3, 12, 6, 0, 0)));
    }

    [Fact]
    public void ASeriesOfNoRecordedZoneRefusesLocalTimesAndWritesNothing()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending);
        DateTime local = DateTime.SpecifyKind(TenUtc, DateTimeKind.Local);

        var refused = Assert.Throws<ArgumentException>(() => series.Add(local));
        Assert.Contains("DateTimeKind.Local", refused.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => series.AddRange([TenUtc, local]));
        Assert.Throws<ArgumentException>(() => series.LowerBound(local));
        Assert.Throws<ArgumentException>(() => series.LowerBound([local], new long[1]));
        Assert.Equal(0, series.Count);
    }

    [Fact]
    public void ASeriesOfNoRecordedZoneRefusesDateTimeOffsets()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending);

        var refused = Assert.Throws<InvalidOperationException>(() => series.Add(new DateTimeOffset(TenUtc)));
        Assert.Contains("ListMmfOptions.TimesAreUtc", refused.Message, StringComparison.Ordinal);
        Assert.Throws<InvalidOperationException>(() => series.LowerBound(new DateTimeOffset(TenUtc)));
        Assert.Equal(0, series.Count);
    }

    [Fact]
    public void AUtcOpenOfASeriesRecordedAsNotUtcIsRefused()
    {
        using (new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending))
        {
        }

        Assert.Throws<ListMmfDataTypeException>(() => ListMmfTimeSeriesDateTimeSeconds.OpenRead(FilePath, TimeSeriesOrder.Ascending, Utc));
    }

    [Fact]
    public void ASeriesThatRecordsNothingIsUtcForAnOpenThatSaysSo()
    {
        // A version 1 file without its description, as ListMmf 1.x leaves one.
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending, FileAccess.ReadWrite, Version1))
        {
            series.Add(TenUtc);
        }

        File.Delete(ListMmfDescription.PathFor(FilePath));
        using var reader = ListMmfTimeSeriesDateTimeSeconds.OpenRead(FilePath, TimeSeriesOrder.Ascending, Utc);

        Assert.True(reader.TimesAreUtc);
        Assert.Equal(0, reader.LowerBound(new DateTimeOffset(TenUtc).ToOffset(TimeSpan.FromHours(9))));
    }

    [Fact]
    public void ATableRecordsThatItsTimesAreUtcAndTakesDateTimeOffsets()
    {
        string folder = _directory.File("ticks");
        var schema = new TimeSeriesTableSchema("time") { TimesAreUtc = true }.Add<double>("price");
        using (var table = TimeSeriesTable.Create(folder, schema))
        {
            table.Column<double>("price").Add(4000.25);
            table.AddRow(new DateTimeOffset(2024, 3, 12, 6, 0, 0, TimeSpan.FromHours(-4)));
        }

        Assert.Contains("\"timesAreUtc\": true", File.ReadAllText(Path.Combine(folder, TimeSeriesTable.ManifestFileName)), StringComparison.Ordinal);
        using var reader = TimeSeriesTable.Open(folder, FileAccess.Read);
        Assert.True(reader.Schema.TimesAreUtc);
        Assert.Equal(TenUtc, reader.TimeAt(0));
        Assert.Equal(DateTimeKind.Utc, reader.TimeAt(0).Kind);
        Assert.Equal(0, reader.LowerBound(new DateTimeOffset(TenUtc)));
        Assert.Equal(1, reader.UpperBound(new DateTimeOffset(TenUtc)));
        Assert.False(File.Exists(ListMmfDescription.PathFor(Path.Combine(folder, "time.mmf"))));
    }

    [Fact]
    public void ATableOfNoRecordedZoneRefusesDateTimeOffsetsAndDiscardsTheRow()
    {
        string folder = _directory.File("ticks");
        using var table = TimeSeriesTable.Create(folder, new TimeSeriesTableSchema("time").Add<double>("price"));
        table.Column<double>("price").Add(4000.25);

        Assert.Throws<InvalidOperationException>(() => table.AddRow(new DateTimeOffset(TenUtc)));

        Assert.Equal(0, table.RowCount);
        table.Column<double>("price").Add(4000.5);
        table.AddRow(TenUtc);
        Assert.Equal(4000.5, table.Column<double>("price")[0]);
    }

    [Fact]
    public void ATablesBatchedLowerBoundAnswersAsItsSingleLookups()
    {
        string folder = _directory.File("ticks");
        using var table = TimeSeriesTable.Create(folder, new TimeSeriesTableSchema("time").Add<int>("size"));
        for (int i = 0; i < 100; i++)
        {
            table.Column<int>("size").Add(i);
            table.AddRow(TenUtc.AddSeconds(i / 3));
        }

        DateTime[] targets = [TenUtc.AddSeconds(-1), TenUtc, TenUtc.AddSeconds(5.5), TenUtc.AddSeconds(20), TenUtc.AddHours(1)];
        long[] batched = new long[targets.Length];
        table.LowerBound(targets, batched);

        Assert.Equal(Array.ConvertAll(targets, table.LowerBound), batched);
    }
}
