using System;
using System.IO;
using Xunit;

namespace ListMmf.Tests.TimeSeries;

/// <summary>The DateTime-ticks time series: full resolution and range, no year-2038 limit.</summary>
public sealed class ListMmfTimeSeriesDateTimeTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("Ticks.bt");

    [Fact]
    public void TimesPast2038AndSubSecondTimesRoundTripAndSearch()
    {
        DateTime[] times = [new DateTime(1850, 1, 1), new DateTime(2024, 3, 12, 10, 0, 0).AddTicks(1), new DateTime(2200, 6, 1), DateTime.MaxValue];
        using (var series = new ListMmfTimeSeriesDateTime(FilePath, TimeSeriesOrder.Ascending))
        {
            foreach (DateTime time in times)
            {
                series.Add(time);
            }
        }

        using var reader = new ListMmfTimeSeriesDateTime(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read);
        Assert.Equal(DataType.DateTime, reader.Keys.DataType);
        Assert.Equal(times, new[] { reader[0], reader[1], reader[2], reader[3] });
        Assert.Equal(1, reader.LowerBound(new DateTime(2024, 3, 12, 10, 0, 0)));
        Assert.Equal(2, reader.UpperBound(times[1]));
        Assert.Equal(2, reader.LowerBound(new DateTime(2100, 1, 1)));
        Assert.Equal(3, reader.BinarySearch(DateTime.MaxValue));
        Assert.Equal(4, reader.UpperBound(DateTime.MaxValue));
        Assert.Equal(0, reader.LowerBound(DateTime.MinValue));
    }

    [Fact]
    public void StoredTicksOutsideDateTimeAreReportedNotReturned()
    {
        using (var raw = new ListMmf<long>(FilePath, FileAccess.ReadWrite, null, DataType.DateTime, requireDataType: true, description: null))
        {
            raw.Add(-5);
        }

        using var series = new ListMmfTimeSeriesDateTime(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read);
        var exception = Assert.Throws<ListMmfFormatException>(() => series[0]);
        Assert.Contains("index 0", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void UnixSecondsFileIsNotATicksSeries()
    {
        using (new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending))
        {
        }

        Assert.Throws<ListMmfDataTypeException>(() => new ListMmfTimeSeriesDateTime(FilePath, TimeSeriesOrder.Ascending));
    }
}
