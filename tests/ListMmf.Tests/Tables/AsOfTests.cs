using System;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Tables;

/// <summary>A table's <see cref="TimeSeriesTable.LastAtOrBefore(DateTime)"/> and its ASOF join, against a plain loop.</summary>
public sealed class AsOfTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void EachTimeGetsTheLastOfItsEqualTimesOrMinusOneBeforeTheFirst()
    {
        using TimeSeriesTable table = Create(out long[] times, rows: 10_000);

        foreach (DateTime time in Probes(times))
        {
            Assert.Equal(PlainLastAtOrBefore(times, time), table.LastAtOrBefore(time));
        }
    }

    /// <summary>Ascending and as dense as the rows: converted into one pooled buffer and walked as a merge.</summary>
    [Fact]
    public void AnAscendingBatchAsDenseAsTheRowsIsJoinedAsOneAtATime()
    {
        using TimeSeriesTable table = Create(out long[] times, rows: 50_000);
        DateTime[] trades = Trades(times, 60_000, seed: 4);
        Array.Sort(trades);
        var rows = new long[trades.Length];

        table.LastAtOrBefore(trades, rows);

        Assert.Equal(trades.Select(time => PlainLastAtOrBefore(times, time)), rows);
    }

    [Fact]
    public void AnUnorderedBatchIsJoinedAsOneAtATime()
    {
        using TimeSeriesTable table = Create(out long[] times, rows: 50_000);
        DateTime[] trades = Trades(times, 5_000, seed: 9);
        var rows = new long[trades.Length];

        table.LastAtOrBefore(trades, rows);

        Assert.Equal(trades.Select(time => PlainLastAtOrBefore(times, time)), rows);
    }

    [Fact]
    public void AResultsSpanShorterThanTheTimesIsRefused()
    {
        using TimeSeriesTable table = Create(out _, rows: 10);

        Assert.Throws<ArgumentException>(() => table.LastAtOrBefore(new DateTime[3], new long[2]));
    }

    private static long PlainLastAtOrBefore(long[] times, DateTime time)
    {
        long last = -1;
        for (int row = 0; row < times.Length && times[row] <= time.Ticks; row++)
        {
            last = row;
        }

        return last;
    }

    /// <summary>Every row's time, a tick either side of it, and times before the first and after the last.</summary>
    private static DateTime[] Probes(long[] times) =>
        [DateTime.MinValue, Start.AddDays(-1), .. times.Where((_, i) => i % 97 == 0).SelectMany(t => new[] { t - 1, t, t + 1 }).Select(t => new DateTime(t)),
            new DateTime(times[^1]).AddDays(1), DateTime.MaxValue];

    private static DateTime[] Trades(long[] times, int count, int seed)
    {
        var random = new Random(seed);
        long span = times[^1] - times[0] + (2 * TimeSpan.TicksPerMinute);
        return Enumerable.Range(0, count).Select(_ => new DateTime(times[0] - TimeSpan.TicksPerMinute + random.NextInt64(span))).ToArray();
    }

    /// <summary>A table of rows in runs of up to four equal times, a second or so apart.</summary>
    private TimeSeriesTable Create(out long[] times, int rows)
    {
        var random = new Random(rows);
        times = new long[rows];
        long time = Start.Ticks;
        for (int i = 0; i < rows; i++)
        {
            time += random.Next(4) == 0 ? 0 : random.Next(1, 2_000) * TimeSpan.TicksPerMillisecond;
            times[i] = time;
        }

        TimeSeriesTable table = TimeSeriesTable.Create(_directory.File("quotes"), new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.AscendingOrEqual).Add<double>("bid"));
        table.Column<double>("bid").AddRange(new double[rows]);
        table.AddRows(times);
        return table;
    }
}
