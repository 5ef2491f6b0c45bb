using System;
using System.IO;
using Xunit;

namespace ListMmf.Tests.Compatibility;

/// <summary>The existing ListMmf library's time-series conventions: its TimeSeriesOrder numbers and its DateTime.MinValue in seconds files.</summary>
public sealed class ExistingLibraryConventionTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void TimeSeriesOrderIsNumberedAsTheExistingLibraryNumbersIt()
    {
        Assert.Equal(0, (int)TimeSeriesOrder.None);
        Assert.Equal(1, (int)TimeSeriesOrder.Ascending);
        Assert.Equal(2, (int)TimeSeriesOrder.AscendingOrEqual);
    }

    [Fact]
    public void OrderNoneAcceptsAnyAppendAndVerifiesOnlyTheFile()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(_directory.File("none.bt"), TimeSeriesOrder.None);

        series.Add(Start);
        series.Add(Start.AddDays(-1));
        series.AddRange([Start.AddDays(-2), Start]);
        series.Verify();

        Assert.Equal(4, series.Count);
    }

    [Fact]
    public void AnUndefinedOrderIsRefused() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => new ListMmfTimeSeriesDateTimeSeconds(_directory.File("x.bt"), (TimeSeriesOrder)3));

    [Fact]
    public void DateTimeMinValueIsStoredAsIntMinValueInASecondsFile()
    {
        string path = _directory.File("seconds.bt");
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.AscendingOrEqual))
        {
            series.Add(DateTime.MinValue);
            series.Add(Start);
        }

        using var raw = new ListMmf<int>(path, FileAccess.Read);
        Assert.Equal(int.MinValue, raw[0]);
    }

    [Fact]
    public void IntMinValueInASecondsFileReadsAsDateTimeMinValue()
    {
        string path = _directory.File("seconds.bt");
        using (var raw = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.AscendingOrEqual))
        {
            raw.Keys.Add(int.MinValue);
            raw.Keys.Add(int.MinValue + 1);
        }

        using var series = ListMmfTimeSeriesDateTimeSeconds.OpenRead(path, TimeSeriesOrder.AscendingOrEqual);
        Assert.Equal(DateTime.MinValue, series[0]);
        Assert.Equal(new DateTime(1901, 12, 13, 20, 45, 53), series[1]);
        Assert.Equal(DateTime.MinValue, ListMmfTimeSeriesDateTimeSeconds.ToDateTime(int.MinValue));
    }

    [Fact]
    public void SearchesPlaceDateTimeMinValueBeforeEveryRealTime()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(_directory.File("seconds.bt"), TimeSeriesOrder.AscendingOrEqual);
        series.AddRange([DateTime.MinValue, DateTime.MinValue, new DateTime(1901, 12, 13, 20, 45, 53), Start]);

        Assert.Equal(0, series.LowerBound(DateTime.MinValue));
        Assert.Equal(2, series.UpperBound(DateTime.MinValue));
        Assert.Equal(2, series.LowerBound(new DateTime(1800, 1, 1)));
        Assert.Equal(2, series.LowerBound(new DateTime(1901, 12, 13, 20, 45, 52)));
        Assert.Equal(2, series.LowerBound(new DateTime(1901, 12, 13, 20, 45, 53)));
        Assert.Equal(new IndexRange(0, 2), series.EqualRange(DateTime.MinValue));
        Assert.Equal(0, series.BinarySearch(DateTime.MinValue));
    }

    [Fact]
    public void TheSecondThatIntMinValueWouldOtherwiseMeanCannotBeStored()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(_directory.File("seconds.bt"), TimeSeriesOrder.AscendingOrEqual);

        Assert.Throws<ArgumentOutOfRangeException>(() => series.Add(new DateTime(1901, 12, 13, 20, 45, 52)));
        Assert.False(ListMmfTimeSeriesDateTimeSeconds.TryGetUnixSeconds(new DateTime(1901, 12, 13, 20, 45, 52), out _));
        Assert.True(ListMmfTimeSeriesDateTimeSeconds.TryGetUnixSeconds(DateTime.MinValue, out int key));
        Assert.Equal(int.MinValue, key);
    }
}
