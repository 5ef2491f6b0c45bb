using System;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Search;

/// <summary>
/// The time queries (bounds, their batches, the ASOF join, ranges, the times themselves) asked of every form a time
/// column takes, over the same times, each answer against a linear scan of the DateTimes: the seconds and ticks
/// series, a time file opened in either form (<see cref="TimeSeriesFile.OpenRead"/>, as the tool opens them), and tables
/// over either key, appendable and sealed, each as the one contract they share (<see cref="IReadOnlyTimeSeries"/>).
/// </summary>
public sealed class TimeSearchContractTests : IDisposable
{
    /// <summary>Tens of sealed blocks and a partial last one, so that a merge gallops through the directory.</summary>
    private const int Rows = 20_700;

    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string> Forms => new()
    {
        "seconds series", "ticks series", "seconds file", "sealed seconds file", "sealed ticks file",
        "seconds table", "ticks table", "sealed seconds table", "sealed ticks table",
    };

    /// <summary>Whole seconds (both keys hold them), ascending, with runs of equal times and gaps.</summary>
    private static DateTime[] Times()
    {
        var random = new Random(23);
        var times = new DateTime[Rows];
        DateTime time = Start;
        for (int i = 0; i < Rows; i++)
        {
            time = time.AddSeconds(random.Next(6) switch { 0 or 1 => 0, 5 => random.Next(30, 400), _ => random.Next(1, 3) });
            times[i] = time;
        }

        return times;
    }

    /// <summary>
    /// Times below, between (a fraction of a second past a stored one), on and above the stored ones, the last of every
    /// sealed block (whose upper bound can be the block's end), and the extremes (past what Unix seconds hold).
    /// </summary>
    private static DateTime[] Probes(DateTime[] times)
    {
        var random = new Random(7);
        return [DateTime.MinValue, times[0].AddSeconds(-1), times[0], times[^1], times[^1].AddTicks(1), times[^1].AddDays(1), DateTime.MaxValue,
            .. Enumerable.Range(1, Rows / 1_024).Select(block => times[(block * 1_024) - 1]),
            .. Enumerable.Range(0, 300).Select(_ => times[random.Next(Rows)].AddTicks(random.Next(-5, 6) * 1_000_000L)),
            .. Enumerable.Range(0, 200).Select(_ => times[random.Next(Rows)])];
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void BoundsAgreeWithAScan(string form)
    {
        DateTime[] times = Times();
        using IReadOnlyTimeSeries column = Open(form, times);

        Assert.All(Probes(times), probe =>
        {
            Assert.Equal(ScanLower(times, probe), column.LowerBound(probe));
            Assert.Equal(ScanUpper(times, probe), column.UpperBound(probe));
            Assert.Equal(ScanUpper(times, probe) - 1, column.LastAtOrBefore(probe));
        });
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void BatchesAgreeWithAScan(string form)
    {
        DateTime[] times = Times();
        using IReadOnlyTimeSeries column = Open(form, times);
        DateTime[] probes = Probes(times);
        DateTime[] ascending = probes.Order().ToArray();

        // Long batches convert their times into a pooled buffer, short ones on the stack: both kinds, in both orders.
        foreach (DateTime[] batch in new[] { probes, ascending, probes[..40], ascending[^40..] })
        {
            long[] lower = new long[batch.Length];
            long[] upper = new long[batch.Length];
            long[] asOf = new long[batch.Length];
            column.LowerBound(batch, lower);
            column.UpperBound(batch, upper);
            column.LastAtOrBefore(batch, asOf);

            Assert.Equal(batch.Select(probe => ScanLower(times, probe)), lower);
            Assert.Equal(batch.Select(probe => ScanUpper(times, probe)), upper);
            Assert.Equal(batch.Select(probe => ScanUpper(times, probe) - 1), asOf);
        }
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void RangesAgreeWithAScan(string form)
    {
        DateTime[] times = Times();
        using IReadOnlyTimeSeries column = Open(form, times);
        var random = new Random(9);
        DateTime[] probes = Probes(times);

        for (int i = 0; i < 300; i++)
        {
            DateTime from = probes[random.Next(probes.Length)];
            DateTime to = probes[random.Next(probes.Length)];
            long start = ScanLower(times, from);
            var expected = to > from ? new IndexRange(start, Math.Max(start, ScanLower(times, to))) : new IndexRange(start, start);

            IndexRange found = column.FindRange(from, to);

            Assert.True(found.Length == 0 ? expected.Length == 0 : found == expected, $"[{from:O}, {to:O}): {found} for {expected}");
        }
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void DateTimeOffsetsOfUtcTimesFindWhatTheirUtcTimesFind(string form)
    {
        DateTime[] times = Times().Select(time => DateTime.SpecifyKind(time, DateTimeKind.Utc)).ToArray();
        using IReadOnlyTimeSeries column = Open(form, times, utc: true);
        var random = new Random(13);

        Assert.True(column.TimesAreUtc);
        Assert.All(Enumerable.Range(0, 200).Select(_ => times[random.Next(Rows)].AddTicks(random.Next(-5, 6) * 1_000_000L)), probe =>
        {
            var offset = new DateTimeOffset(probe).ToOffset(TimeSpan.FromHours(-5));
            Assert.Equal(ScanLower(times, probe), column.LowerBound(offset));
            Assert.Equal(ScanUpper(times, probe), column.UpperBound(offset));
            Assert.Equal(ScanLower(times, probe), column.FindRange(offset, offset.AddYears(1)).Start);
        });
        Assert.Equal(DateTimeKind.Utc, column[0].Kind);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void VerifyChecksTheOrderTheFileRecordsInEitherForm(bool isSealed)
    {
        string path = _directory.File("unordered.mmf");
        using (var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.None))
        {
            series.AddRange([Start.AddSeconds(5), Start, Start.AddSeconds(3)]);
        }

        if (isSealed)
        {
            Assert.True(SealedListMmf.Seal(path));
        }

        // Asked in the default ascending order: the file's own None is the one checked.
        using IReadOnlyTimeSeries times = TimeSeriesFile.OpenRead(path);
        times.Verify(null);
        Assert.Equal(3, times.Count);
    }

    [Fact]
    public void OpeningAFileOfNumbersAsTimesIsRefusedNamingTheFile()
    {
        string path = _directory.File("prices.mmf");
        using (var prices = new ListMmf<double>(path))
        {
            prices.Add(1.5);
        }

        var exception = Assert.Throws<ListMmfDataTypeException>(() => TimeSeriesFile.OpenRead(path));
        Assert.Contains(path, exception.Message, StringComparison.Ordinal);
        Assert.Contains("not times", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void OpeningAMissingTimeFileIsRefused() =>
        Assert.Throws<FileNotFoundException>(() => TimeSeriesFile.OpenRead(_directory.File("missing.mmf")));

    [Theory]
    [MemberData(nameof(Forms))]
    public void TheTimesAreTheOnesWritten(string form)
    {
        DateTime[] times = Times();
        using IReadOnlyTimeSeries column = Open(form, times);
        var range = new IndexRange(1_000, 3_100);
        var copied = new DateTime[range.Length];

        column.CopyTo(range, copied);

        Assert.Equal(Rows, column.Count);
        Assert.Equal(times[1_000..3_100], copied);
        Assert.All(new[] { 0, 1_023, 1_024, Rows - 1 }, i => Assert.Equal(times[i], column[i]));
    }

    private static long ScanLower(DateTime[] times, DateTime probe) => Array.FindIndex(times, time => time >= probe) is var i and >= 0 ? i : times.Length;

    private static long ScanUpper(DateTime[] times, DateTime probe) => Array.FindIndex(times, time => time > probe) is var i and >= 0 ? i : times.Length;

    /// <summary>The form under test, as the read contract every time column has.</summary>
    private IReadOnlyTimeSeries Open(string form, DateTime[] times, bool utc = false)
    {
        var options = new ListMmfOptions { TimesAreUtc = utc };
        bool seconds = form.Contains("seconds", StringComparison.Ordinal);
        bool isSealed = form.StartsWith("sealed", StringComparison.Ordinal);
        if (form.EndsWith("table", StringComparison.Ordinal))
        {
            string folder = _directory.File("ticks");
            var schema = new TimeSeriesTableSchema("time", seconds ? DataType.UnixSeconds : DataType.DateTime, TimeSeriesOrder.AscendingOrEqual)
            {
                TimesAreUtc = utc,
            };
            using (TimeSeriesTable writer = TimeSeriesTable.Create(folder, schema))
            {
                writer.AddRows(times);
            }

            if (isSealed)
            {
                TimeSeriesTable.Seal(folder);
            }

            return TimeSeriesTable.Open(folder, FileAccess.Read);
        }

        string path = _directory.File("times.mmf");
        using (TimeSeriesMmf<int>? secondsSeries = seconds
            ? new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.ReadWrite, options)
            : null)
        using (TimeSeriesMmf<long>? ticksSeries = seconds ? null : new ListMmfTimeSeriesDateTime(path, TimeSeriesOrder.AscendingOrEqual, FileAccess.ReadWrite, options))
        {
            secondsSeries?.AddRange(times);
            ticksSeries?.AddRange(times);
        }

        if (isSealed)
        {
            Assert.True(SealedListMmf.Seal(path));
        }

        return form switch
        {
            "seconds series" => ListMmfTimeSeriesDateTimeSeconds.OpenRead(path, TimeSeriesOrder.AscendingOrEqual, options),
            "ticks series" => ListMmfTimeSeriesDateTime.OpenRead(path, TimeSeriesOrder.AscendingOrEqual, options),
            _ => TimeSeriesFile.OpenRead(path, TimeSeriesOrder.AscendingOrEqual, options),
        };
    }
}
