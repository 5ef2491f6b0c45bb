using System;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.TimeSeries;

public sealed class TimeSeriesConvenienceTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private ListMmfTimeSeriesDateTimeSeconds Seconds(TimeSeriesOrder order = TimeSeriesOrder.Ascending) =>
        new(_directory.File("seconds.bt"), order);

    [Fact]
    public void AddRangeOfDateTimesStoresEachTime()
    {
        using var series = Seconds();
        DateTime[] times = Enumerable.Range(0, 1000).Select(i => Start.AddSeconds(i)).ToArray();

        series.AddRange(times);

        Assert.Equal(times, series.ToArray());
    }

    [Fact]
    public void AddRangeOfDateTimesOutOfOrderWritesNothing()
    {
        using var series = Seconds();
        series.Add(Start);
        DateTime[] times = [Start.AddSeconds(1), Start.AddSeconds(3), Start.AddSeconds(2)];

        var error = Assert.Throws<ListMmfOrderException>(() => series.AddRange(times));

        Assert.Equal(3, error.Index);
        Assert.Equal(1, series.Count);
    }

    [Fact]
    public void AddRangeOfDateTimesBeforeTheLastStoredWritesNothing()
    {
        using var series = Seconds();
        series.Add(Start);

        var error = Assert.Throws<ListMmfOrderException>(() => series.AddRange([Start]));

        Assert.Equal(1, error.Index);
        Assert.Equal(1, series.Count);
    }

    [Fact]
    public void AddRangeOfDateTimesWithAFractionOfASecondWritesNothing()
    {
        using var series = Seconds();

        Assert.Throws<ArgumentOutOfRangeException>(() => series.AddRange([Start, Start.AddMilliseconds(1500)]));

        Assert.Equal(0, series.Count);
    }

    [Fact]
    public void OrderErrorsShowTheTimesAndTheIndex()
    {
        using var series = Seconds();
        series.Add(Start);

        var error = Assert.Throws<ListMmfOrderException>(() => series.Add(Start.AddSeconds(-1)));

        Assert.Contains("2024-01-02 09:29:59", error.Message);
        Assert.Contains("2024-01-02 09:30:00", error.Message);
        Assert.Contains("index 1", error.Message);
    }

    [Fact]
    public void OrderErrorsOfATicksSeriesShowTheTimesToTheTick()
    {
        using var series = new ListMmfTimeSeriesDateTime(_directory.File("ticks.bt"), TimeSeriesOrder.Ascending);
        series.Add(Start.AddTicks(5));

        var error = Assert.Throws<ListMmfOrderException>(() => series.Add(Start.AddTicks(5)));

        Assert.Contains("2024-01-02 09:30:00.0000005", error.Message);
    }

    [Fact]
    public void EnumerationGivesDateTimes()
    {
        using var series = new ListMmfTimeSeriesDateTime(_directory.File("ticks.bt"), TimeSeriesOrder.Ascending);
        DateTime[] times = [Start, Start.AddTicks(1), Start.AddDays(1)];
        series.AddRange(times);

        Assert.Equal(times, series.ToList());
    }

    [Fact]
    public void CopyToConvertsARange()
    {
        using var series = Seconds();
        series.AddRange(Enumerable.Range(0, 10).Select(i => Start.AddMinutes(i)).ToArray());
        var destination = new DateTime[4];

        series.CopyTo(new IndexRange(2, 5), destination);

        Assert.Equal([Start.AddMinutes(2), Start.AddMinutes(3), Start.AddMinutes(4), default], destination);
        Assert.Throws<ArgumentException>(() => series.CopyTo(new IndexRange(0, 5), destination));
        Assert.Throws<ArgumentOutOfRangeException>(() => series.CopyTo(new IndexRange(8, 11), destination));
    }

    [Fact]
    public void OpenReadOfAMissingFileIsFileNotFoundAndCreatesNothing()
    {
        string path = _directory.File("mistyped.bt");

        Assert.Throws<FileNotFoundException>(() => ListMmfTimeSeriesDateTimeSeconds.OpenRead(path, TimeSeriesOrder.Ascending));
        Assert.Throws<FileNotFoundException>(() => ListMmfTimeSeriesDateTime.OpenRead(path, TimeSeriesOrder.Ascending));
        Assert.False(File.Exists(path));
    }

    [Fact]
    public void AWriterThatMayNotCreateRefusesAMissingFile()
    {
        string path = _directory.File("mistyped.bt");
        var options = new ListMmfOptions { CreateIfMissing = false };

        Assert.Throws<FileNotFoundException>(() => new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending, FileAccess.ReadWrite, options));
        Assert.False(File.Exists(path));
    }

    [Fact]
    public void AWriterThatMayNotCreateOpensAnExistingFile()
    {
        string path = _directory.File("seconds.bt");
        using (Seconds())
        {
        }

        using var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending, FileAccess.ReadWrite, new ListMmfOptions { CreateIfMissing = false });
        series.Add(Start);
        Assert.Equal(1, series.Count);
    }
}
