using System;
using System.Buffers.Binary;
using System.IO;
using Xunit;

namespace ListMmf.Tests.TimeSeries;

/// <summary>The Unix-seconds time series: the seed's code, and the DateTime rules of the README.</summary>
public sealed class ListMmfTimeSeriesDateTimeSecondsTests : IDisposable
{
    private static readonly DateTime TenOClock = new(2024, 3, 12, 10, 0, 0);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("Timestamps.bt");

    /// <summary>Nine items: three at 09:59:59, three at 10:00:00, three at 10:00:01.</summary>
    private void WriteTicksAroundTen()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual);
        foreach (int offset in new[] { -1, 0, 1 })
        {
            for (int i = 0; i < 3; i++)
            {
                series.Add(TenOClock.AddSeconds(offset));
            }
        }
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void BatchedDateTimeSearchesAnswerAsOneAtATime(bool indexed)
    {
        var random = new Random(5);
        int second = 1_700_000_000;
        int[] seconds = new int[20_000];
        for (int i = 0; i < seconds.Length; i++)
        {
            seconds[i] = second += random.Next(0, 3);
        }

        using (var writer = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual))
        {
            writer.Keys.AddRange(seconds);
        }

        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read, new ListMmfOptions { SearchIndex = indexed });
        series.Keys.IndexMinimumPages = 1;
        var times = new DateTime[500];
        for (int i = 0; i < times.Length; i++)
        {
            times[i] = DateTime.UnixEpoch.AddSeconds(random.Next(1_699_999_990, second + 10) + (random.Next(2) * 0.5));
        }

        times[0] = DateTime.MinValue;
        times[1] = DateTime.MaxValue;
        times[2] = new DateTime(1850, 1, 1);
        times[3] = new DateTime(2100, 1, 1);
        var lower = new long[times.Length];
        var upper = new long[times.Length];

        series.LowerBound(times, lower);
        series.UpperBound(times, upper);

        for (int i = 0; i < times.Length; i++)
        {
            Assert.Equal(series.LowerBound(times[i]), lower[i]);
            Assert.Equal(series.UpperBound(times[i]), upper[i]);
        }

        Assert.Equal(indexed, series.Keys.Index is not null);
        Assert.Throws<ArgumentException>(() => series.LowerBound(times, new long[times.Length - 1]));
    }

    [Fact]
    public void SeedCodeFindsTheFirstTickAtOrAfterTheSearchTime()
    {
        WriteTicksAroundTen();
        string filePath = FilePath;
        DateTime searchTime = TenOClock;

        var mmfTimestamps = new ListMmfTimeSeriesDateTimeSeconds(filePath, TimeSeriesOrder.Ascending);
        var index = mmfTimestamps.LowerBound(searchTime); // searchTime is a DateTime

        Assert.Equal(3L, index);
        mmfTimestamps.Dispose();
    }

    [Fact]
    public void LowerBoundOfAFractionalSecondSkipsTheItemsOfThatSecond()
    {
        WriteTicksAroundTen();
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        Assert.Equal(6, series.LowerBound(TenOClock.AddMilliseconds(500)));
        Assert.Equal(3, series.LowerBound(TenOClock.AddTicks(-1)));
    }

    [Fact]
    public void UpperBoundOfAFractionalSecondIncludesTheItemsOfThatSecond()
    {
        WriteTicksAroundTen();
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        Assert.Equal(6, series.UpperBound(TenOClock.AddMilliseconds(500)));
        Assert.Equal(6, series.UpperBound(TenOClock));
        Assert.Equal(3, series.UpperBound(TenOClock.AddTicks(-1)));
    }

    [Fact]
    public void EqualRangeBinarySearchAndFindRangeUseTheSameRules()
    {
        WriteTicksAroundTen();
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        Assert.Equal(new IndexRange(3, 6), series.EqualRange(TenOClock));
        Assert.Equal(new IndexRange(6, 6), series.EqualRange(TenOClock.AddMilliseconds(1)));
        Assert.Equal(3, series.BinarySearch(TenOClock));
        Assert.Equal(~6, series.BinarySearch(TenOClock.AddMilliseconds(1)));
        Assert.Equal(~9, series.BinarySearch(TenOClock.AddHours(1)));
        Assert.Equal(new IndexRange(3, 9), series.FindRange(TenOClock, TenOClock.AddSeconds(2)));
        Assert.Equal(new IndexRange(3, 6), series.FindRange(TenOClock.AddTicks(-1), TenOClock.AddTicks(1)));
        Assert.Equal(new IndexRange(6, 6), series.FindRange(TenOClock.AddSeconds(1), TenOClock));
        Assert.Equal([(int)TenOClock.Subtract(DateTime.UnixEpoch).TotalSeconds, (int)TenOClock.Subtract(DateTime.UnixEpoch).TotalSeconds], series.AsSpan(new IndexRange(4, 6)).ToArray());
    }

    [Fact]
    public void TimesBeforeAndAfterWhatInt32SecondsHoldGetTheRightEnds()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending);
        series.Add(new DateTime(1901, 12, 14));
        series.Add(new DateTime(1969, 12, 31, 23, 59, 59));
        series.Add(DateTime.UnixEpoch);
        series.Add(new DateTime(2038, 1, 19));
        Assert.Equal(0, series.LowerBound(DateTime.MinValue));
        Assert.Equal(0, series.UpperBound(new DateTime(1800, 1, 1)));
        Assert.Equal(1, series.LowerBound(new DateTime(1969, 12, 31, 23, 59, 58, 500)));
        Assert.Equal(2, series.UpperBound(new DateTime(1969, 12, 31, 23, 59, 59, 999)));
        Assert.Equal(4, series.LowerBound(new DateTime(2100, 1, 1)));
        Assert.Equal(4, series.UpperBound(DateTime.MaxValue));
        Assert.Equal(2, series.LowerBound(new DateTime(2100, 1, 1), 0, 2));
        Assert.Equal(~4, series.BinarySearch(new DateTime(2100, 1, 1)));
    }

    [Fact]
    public void ASeriesOfNoRecordedZoneTakesUtcAndUnspecifiedTimesAsStored()
    {
        WriteTicksAroundTen();
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        Assert.False(series.TimesAreUtc);
        Assert.Equal(3, series.LowerBound(DateTime.SpecifyKind(TenOClock, DateTimeKind.Utc)));
        Assert.Equal(3, series.LowerBound(DateTime.SpecifyKind(TenOClock, DateTimeKind.Unspecified)));
        Assert.Equal(DateTimeKind.Unspecified, series[3].Kind);
        Assert.Equal(TenOClock, series[3]);
    }

    [Fact]
    public void AddOfATimeThatSecondsCannotHoldIsRefusedAndWritesNothing()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending);
        series.Add(TenOClock);
        Assert.Throws<ArgumentOutOfRangeException>(() => series.Add(TenOClock.AddSeconds(1).AddMilliseconds(1)));
        Assert.Throws<ArgumentOutOfRangeException>(() => series.Add(new DateTime(2040, 1, 1)));
        Assert.Equal(1, series.Count);
    }

    [Fact]
    public void AddThatBreaksTheOrderIsRefused()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending);
        series.Add(TenOClock);
        var exception = Assert.Throws<ListMmfOrderException>(() => series.Add(TenOClock));
        Assert.Equal(1, exception.Index);
        Assert.Equal(1, series.Count);
    }

    [Fact]
    public void SearchRangeOutsideTheListIsRefused()
    {
        WriteTicksAroundTen();
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        Assert.Throws<ArgumentOutOfRangeException>(() => series.LowerBound(TenOClock, -1, 5));
        Assert.Throws<ArgumentOutOfRangeException>(() => series.LowerBound(TenOClock, 0, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => series.UpperBound(TenOClock, 6, 5));
        Assert.Throws<ArgumentOutOfRangeException>(() => series.LowerBound(new DateTime(2100, 1, 1), 0, 10));
        Assert.Equal(5, series.LowerBound(TenOClock, 5, 9));
        Assert.Equal(4, series.LowerBound(TenOClock.AddHours(1), 2, 4));
    }

    [Fact]
    public void FileWrittenByHandInTheExistingFormatOpensAndSearches()
    {
        int[] seconds = [1_700_000_000, 1_700_000_000, 1_700_000_005, 1_700_000_009];
        var bytes = new byte[16 + (seconds.Length * 4) + 40];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, 0);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(4), 13);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(8), seconds.Length);
        for (int i = 0; i < seconds.Length; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(16 + (4 * i)), seconds[i]);
        }

        File.WriteAllBytes(FilePath, bytes);
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        Assert.Equal(4, series.Count);
        Assert.Equal(2, series.LowerBound(DateTime.UnixEpoch.AddSeconds(1_700_000_001)));
        Assert.Equal(2, series.UpperBound(DateTime.UnixEpoch.AddSeconds(1_700_000_000)));
        Assert.Equal(DateTime.UnixEpoch.AddSeconds(1_700_000_009), DateTime.SpecifyKind(series[3], DateTimeKind.Utc));
    }

    [Fact]
    public void FileThatIsNotAUnixSecondsSeriesIsRefusedAndLeftUnchanged()
    {
        using (var plain = new ListMmf<int>(FilePath))
        {
            plain.AddRange([1, 2, 3]);
        }

        byte[] before = File.ReadAllBytes(FilePath);
        var exception = Assert.Throws<ListMmfDataTypeException>(() => new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending));
        Assert.Contains("UnixSeconds", exception.Message, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(FilePath));
    }

    [Fact]
    public void ReaderOpensBesideTheWriterAndSeesItsAppends()
    {
        using var writer = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending);
        writer.Add(TenOClock);
        using var reader = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read);
        Assert.False(reader.IsWritable);
        writer.Add(TenOClock.AddSeconds(1));
        Assert.Equal(1, reader.LowerBound(TenOClock.AddMilliseconds(1)));
        Assert.Equal(2, reader.Count);
    }
}
