using System;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Tables;

/// <summary>
/// A value column of DateTimes: <c>schema.Add&lt;DateTime&gt;</c> makes a column of DateTime ticks, which
/// <c>Column&lt;DateTime&gt;</c> reads and writes as DateTimes and <c>Column&lt;long&gt;</c> as the ticks stored.
/// </summary>
public sealed class DateTimeColumnTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private TimeSeriesTable Create() => TimeSeriesTable.Create(
        _directory.File("trades"),
        new TimeSeriesTableSchema("time", DataType.DateTime).Add<DateTime>("settles").Add<double>("price"));

    private static DateTime[] Settlements(int rows) => [.. Enumerable.Range(0, rows).Select(i => Start.AddDays(2).AddTicks(i * 1_234_567L))];

    private static void AddRows(TimeSeriesTable table, DateTime[] settles, bool asRange)
    {
        TableColumn<DateTime> column = table.Column<DateTime>("settles");
        if (asRange)
        {
            column.AddRange(settles);
            table.Column<double>("price").AddRange([.. settles.Select((_, i) => 4500.25 + i)]);
            table.AddRows([.. settles.Select((_, i) => Start.AddSeconds(i))]);
            return;
        }

        for (int i = 0; i < settles.Length; i++)
        {
            column.Add(settles[i]);
            table.Column<double>("price").Add(4500.25 + i);
            table.AddRow(Start.AddSeconds(i));
        }
    }

    [Fact]
    public void AddOfDateTimeMakesAColumnOfDateTimeTicks()
    {
        using TimeSeriesTable table = Create();

        Assert.Equal(DataType.DateTime, table.Columns.Single(column => column.Name == "settles").DataType);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void DateTimesWrittenThroughTheColumnReadBackAsDateTimesAndAsTheirTicks(bool asRange)
    {
        DateTime[] settles = Settlements(1000);
        using (TimeSeriesTable writer = Create())
        {
            AddRows(writer, settles, asRange);
        }

        using TimeSeriesTable table = TimeSeriesTable.Open(_directory.File("trades"), System.IO.FileAccess.Read);
        TableColumn<DateTime> times = table.Column<DateTime>("settles");
        var all = new IndexRange(0, table.RowCount);

        Assert.Equal(settles, times.AsSpan(all).ToArray());
        Assert.Equal(settles, times.AsMemory(all).ToArray());
        Assert.Equal(settles[777], times[777]);
        Assert.Equal(settles.Select(time => time.Ticks), table.Column<long>("settles").AsSpan(all).ToArray());
    }

    [Fact]
    public void AnAddedDateTimeIsStoredByItsTicksWhateverItsKind()
    {
        DateTime utc = DateTime.SpecifyKind(Start, DateTimeKind.Utc);
        using TimeSeriesTable table = Create();

        AddRows(table, [utc], asRange: false);

        Assert.Equal(utc.Ticks, table.Column<long>("settles")[0]);
        Assert.Equal(DateTimeKind.Unspecified, table.Column<DateTime>("settles")[0].Kind);
    }

    [Fact]
    public void TicksNoDateTimeHoldsAreRefusedNamingTheRowNeverReadAsATime()
    {
        using TimeSeriesTable table = Create();
        AddRows(table, Settlements(3), asRange: true);
        table.Column<long>("settles").Add(-1);
        table.Column<double>("price").Add(1);
        table.AddRow(Start.AddHours(1));
        TableColumn<DateTime> times = table.Column<DateTime>("settles");

        var fromIndexer = Assert.Throws<ListMmfException>(() => times[3]);
        var fromSpan = Assert.Throws<ListMmfException>(() => times.AsSpan(new IndexRange(0, 4)).Length);
        var fromMemory = Assert.Throws<ListMmfException>(() => times.AsMemory(new IndexRange(0, 4)));

        Assert.All([fromIndexer, fromSpan, fromMemory], error => Assert.Contains("-1 at row 3", error.Message, StringComparison.Ordinal));
        Assert.Equal(-1, table.Column<long>("settles")[3]);
        Assert.Equal(3, times.AsSpan(new IndexRange(0, 3)).Length);
    }

    [Fact]
    public void ATicksTimeColumnReadsAsDateTimesAndStaysReadOnly()
    {
        using TimeSeriesTable table = Create();
        AddRows(table, Settlements(5), asRange: true);
        TableColumn<DateTime> time = table.Column<DateTime>("time");

        Assert.Equal(Start.AddSeconds(4), time[4]);
        Assert.Throws<NotSupportedException>(() => time.Add(Start));
    }

    [Fact]
    public void AColumnOfAnotherTypeIsNotReadAsDateTimes()
    {
        using TimeSeriesTable table = Create();

        Assert.Throws<ListMmfDataTypeException>(() => table.Column<DateTime>("price"));
    }
}
