using System;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// A table sealed column by column (<see cref="TimeSeriesTable.Seal"/>): the same answers to every search, read and
/// bar as before the seal, in any mix of sealed and appendable columns; writers and spans refused with the column
/// named; unsealed back into a table that appends.
/// </summary>
public sealed class SealedTableTests : IDisposable
{
    private const int Rows = 5_000;
    private static readonly DateTime Start = new(2024, 1, 2, 14, 30, 0, DateTimeKind.Utc);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Folder => _directory.File("ticks");

    [Fact]
    public void SealingATableSealsEveryColumnAndASecondSealFindsNothingToDo()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        long before = ColumnBytes();

        Assert.Equal(4, TimeSeriesTable.Seal(Folder));
        Assert.Equal(0, TimeSeriesTable.Seal(Folder));

        using var table = TimeSeriesTable.Open(Folder, FileAccess.Read);
        Assert.All(table.Columns, column => Assert.True(column.IsSealed, column.Name));
        Assert.True(ColumnBytes() < before / 2, $"{ColumnBytes():N0} bytes sealed, {before:N0} before");
    }

    [Fact]
    public void ASealedTableAnswersEveryTimeSearchAsBeforeItsSeal()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        string before = Searches();

        TimeSeriesTable.Seal(Folder);

        Assert.Equal(before, Searches());
    }

    [Fact]
    public void ASealedTableGivesEveryColumnsValuesAsBeforeItsSeal()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        string before = Values();

        TimeSeriesTable.Seal(Folder);

        Assert.Equal(before, Values());
    }

    [Fact]
    public void ASealedTableBuildsTheSameBarsAsBeforeItsSeal()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        OhlcvBar[] before = Bars();

        TimeSeriesTable.Seal(Folder);

        OhlcvBar[] after = Bars();
        Assert.True(after.Length > 10, $"{after.Length} bars");
        Assert.Equal(before, after);
    }

    [Fact]
    public void ATableWithOnlySomeColumnsSealedReadsTheSameAndASealFinishesIt()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        string before = Searches() + Values();
        SealedListMmf.Seal(Path.Combine(Folder, "price.mmf"));
        SealedListMmf.Seal(Path.Combine(Folder, "time.mmf"));

        string mixed = Searches() + Values();
        int finished = TimeSeriesTable.Seal(Folder);

        Assert.Equal(before, mixed);
        Assert.Equal(2, finished);
        Assert.Equal(before, Searches() + Values());
    }

    [Fact]
    public void ASealedColumnRefusesASpanOverItsFileNamingTheColumn()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        TimeSeriesTable.Seal(Folder);
        using var table = TimeSeriesTable.Open(Folder, FileAccess.Read);

        var refusal = Assert.Throws<NotSupportedException>(() => table.Column<double>("price").AsSpan(new IndexRange(0, 10)).ToArray());

        Assert.Contains("column 'price'", refusal.Message);
        Assert.Contains("read it with CopyTo or Read", refusal.Message);
    }

    [Theory]
    [InlineData("seconds")]
    [InlineData("ticks")]
    public void RowsOfStoredKeysAddedToASealedTableAreRefusedAsToAReadOnlyOne(string keys)
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        TimeSeriesTable.Seal(Folder);
        using var table = TimeSeriesTable.Open(Folder, FileAccess.Read);

        if (keys == "seconds")
        {
            Assert.Throws<NotSupportedException>(() => table.AddRows(new[] { int.MaxValue }));
        }
        else
        {
            Assert.Throws<ListMmfDataTypeException>(() => table.AddRows(new[] { DateTime.MaxValue.Ticks }));
        }

        Assert.Equal(Rows, table.RowCount);
    }

    [Fact]
    public void AWriterOpenOfASealedTableIsRefusedNamingTheColumnAndChangesNothing()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        TimeSeriesTable.Seal(Folder);
        byte[][] files = ColumnFiles().Select(File.ReadAllBytes).ToArray();

        var refusal = Assert.Throws<ListMmfException>(() => TimeSeriesTable.Open(Folder));

        Assert.Contains("is sealed", refusal.Message);
        Assert.Contains("column '", refusal.Message);
        Assert.Equal(files, ColumnFiles().Select(File.ReadAllBytes).ToArray());
    }

    [Fact]
    public void UnsealingATableGivesBackATableThatAppendsWithTheSameRows()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        string before = Values();
        TimeSeriesTable.Seal(Folder);

        Assert.Equal(4, TimeSeriesTable.Unseal(Folder));
        Assert.Equal(0, TimeSeriesTable.Unseal(Folder));

        Assert.Equal(before, Values());
        using var table = TimeSeriesTable.Open(Folder);
        Assert.All(table.Columns, column => Assert.False(column.IsSealed, column.Name));
        table.Column<double>("price").Add(1);
        table.Column<int>("size").Add(1);
        table.Column<long>("ticks").Add(1);
        table.AddRow(Start.AddDays(1));
        Assert.Equal(Rows + 1, table.RowCount);
    }

    [Fact]
    public void ATableReaderOpenAcrossASealGivesTheSameSearchesAndValues()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        using var reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        string before = Searches(reader) + Values(reader);

        TimeSeriesTable.Seal(Folder);

        Assert.Equal(before, Searches(reader) + Values(reader));
    }

    [Fact]
    public void ATableReaderOpenAcrossASealAndAnUnsealSeesTheNextWritersRows()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        using var reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        TimeSeriesTable.Seal(Folder);
        string sealedAnswers = Values(reader);
        TimeSeriesTable.Unseal(Folder);
        AppendRow(price: 17.25);

        Polling.Until(() => reader.RowCount != Rows, "the reader to see the row added after the unseal", TimeSpan.FromSeconds(30));

        Assert.Equal(Rows + 1, reader.RowCount);
        Assert.Equal(17.25, reader.Column<double>("price")[Rows]);
        Assert.Equal(Start.AddDays(1), reader.TimeAt(Rows));
        Assert.Equal(sealedAnswers.Split('\n')[1..], Values(reader).Split('\n')[1..]);
    }

    [Fact]
    public void ASealedTableReaderFollowsAnUnsealAndSeesTheNextWritersRows()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        TimeSeriesTable.Seal(Folder);
        using var reader = TimeSeriesTable.Open(Folder, FileAccess.Read);
        string sealedAnswers = Values(reader);

        TimeSeriesTable.Unseal(Folder);
        AppendRow(price: 17.25);

        Assert.Equal(Rows + 1, reader.RowCount);
        Assert.Equal(17.25, reader.Column<double>("price")[Rows]);
        Assert.Equal(Start.AddDays(1), reader.TimeAt(Rows));
        Assert.Equal(Rows, reader.LowerBound(Start.AddDays(1)));
        Assert.Equal(sealedAnswers.Split('\n')[1..], Values(reader).Split('\n')[1..]);
    }

    [Fact]
    public void AGatherOfDateTimesReadsTheTicksColumnAsTheIndexerDoesInEitherForm()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        long[] rows = [5, -1, Rows - 1, 6, 7];
        DateTime[] expected;
        using (var table = TimeSeriesTable.Open(Folder, FileAccess.Read))
        {
            TableColumn<DateTime> ticks = table.Column<DateTime>("ticks");
            expected = rows.Select(row => row == -1 ? DateTime.UnixEpoch : ticks[row]).ToArray();
            Assert.Equal(expected, Gathered(ticks));
        }

        TimeSeriesTable.Seal(Folder);
        using var sealedTable = TimeSeriesTable.Open(Folder, FileAccess.Read);
        Assert.Equal(expected, Gathered(sealedTable.Column<DateTime>("ticks")));

        DateTime[] Gathered(TableColumn<DateTime> column)
        {
            var times = new DateTime[rows.Length];
            column.Gather(rows, times, missing: DateTime.UnixEpoch);
            Assert.Equal(DateTimeKind.Utc, times[1].Kind);
            return times;
        }
    }

    [Fact]
    public void SealingATableLeavesOutValuesAWriterLeftPastThePublishedRows()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        using (var writer = TimeSeriesTable.Open(Folder))
        {
            writer.Column<double>("price").Add(99);
        }

        TimeSeriesTable.Seal(Folder);

        using var price = new SealedListMmf<double>(Path.Combine(Folder, "price.mmf"));
        Assert.Equal(Rows, price.Count);
    }

    [Fact]
    public void SealingATableAWriterHoldsIsRefusedAndChangesNothing()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        using var writer = TimeSeriesTable.Open(Folder);
        byte[][] files = ColumnFiles().Select(BytesBesideTheWriter).ToArray();

        Assert.Throws<ListMmfLockedException>(() => TimeSeriesTable.Seal(Folder));

        Assert.All(writer.Columns, column => Assert.False(SealedListMmf.IsSealed(column.Path), column.Name));
        Assert.Equal(files, ColumnFiles().Select(BytesBesideTheWriter).ToArray());
    }

    [Fact]
    public void SealingATableWhoseColumnFileIsMissingSaysTheTableIsDamagedAndChangesNothing()
    {
        Create(TimeSeriesOrder.AscendingOrEqual);
        File.Delete(Path.Combine(Folder, "size.mmf"));
        byte[][] files = ColumnFiles().Select(File.ReadAllBytes).ToArray();

        var damage = Assert.Throws<ListMmfFormatException>(() => TimeSeriesTable.Seal(Folder));

        Assert.Contains("'size.mmf', which does not exist: the table is damaged", damage.Message);
        Assert.Equal(files, ColumnFiles().Select(File.ReadAllBytes).ToArray());
    }

    [Fact]
    public void VerifyOfASealedTableFindsATimeOutOfTheTablesOrder()
    {
        Create(TimeSeriesOrder.None, shuffleTimeAt: 3_000);
        TimeSeriesTable.Seal(Folder);
        string manifest = Path.Combine(Folder, TimeSeriesTable.ManifestFileName);
        File.WriteAllText(manifest, File.ReadAllText(manifest).Replace("\"None\"", "\"AscendingOrEqual\"", StringComparison.Ordinal));
        using var table = TimeSeriesTable.Open(Folder, FileAccess.Read);

        var damage = Assert.Throws<ListMmfOrderException>(table.Verify);

        Assert.Contains("at index 3,000", damage.Message);
    }

    /// <summary>
    /// A table of <see cref="Rows"/> rows, several to a second, of a quarter-point price, a size and a ticks column,
    /// with UTC times; one time moved back an hour at <paramref name="shuffleTimeAt"/> where given.
    /// </summary>
    private void Create(TimeSeriesOrder order, int shuffleTimeAt = -1)
    {
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, order) { TimesAreUtc = true }
            .Add<double>("price").Add<int>("size").Add("ticks", DataType.DateTime);
        var random = new Random(7);
        using var table = TimeSeriesTable.Create(Folder, schema);
        DateTime time = Start;
        double price = 4_500;
        for (int row = 0; row < Rows; row++)
        {
            time = time.AddSeconds(random.Next(0, 3));
            price += random.Next(-2, 3) * 0.25;
            table.Column<double>("price").Add(price);
            table.Column<int>("size").Add(random.Next(1, 50));
            table.Column<long>("ticks").Add(time.Ticks + row);
            table.AddRow(row == shuffleTimeAt ? time.AddHours(-1) : time);
        }
    }

    /// <summary>Every search's answer for times around and beyond the table's, as one text to compare.</summary>
    private string Searches()
    {
        using var table = TimeSeriesTable.Open(Folder, FileAccess.Read);
        return Searches(table);
    }

    private static string Searches(TimeSeriesTable table)
    {
        DateTime last = table.TimeAt(table.RowCount - 1);
        DateTime[] probes = [DateTime.MinValue, Start.AddSeconds(-1), Start, Start.AddSeconds(1.5), .. Enumerable.Range(0, 200)
            .Select(i => Start.AddSeconds(i * 17)), last, last.AddSeconds(1), DateTime.MaxValue];
        long[] lower = new long[probes.Length];
        long[] asOf = new long[probes.Length];
        table.LowerBound(probes, lower);
        table.LastAtOrBefore(probes, asOf);
        return string.Join('\n', probes.Select((probe, i) => $"{probe:O} {table.LowerBound(probe)} {table.UpperBound(probe)} " +
            $"{table.LastAtOrBefore(probe)} {table.FindRange(probe, ThreeMinutesOn(probe))} {lower[i]} {asOf[i]} " +
            (probe.Ticks is > 0 and < 600_000_000_000_000_000 ? $"{table.LowerBound(new DateTimeOffset(probe))} " : "") +
            $"{table.LowerBound(probe.ToLocalTime())}"));
    }

    /// <summary>Three minutes after a probe, as a UTC time: the UTC table refuses an Unspecified one, which DateTime.MinValue's sum is.</summary>
    private static DateTime ThreeMinutesOn(DateTime probe) =>
        probe == DateTime.MaxValue ? probe : DateTime.SpecifyKind(probe.AddMinutes(3), DateTimeKind.Utc);

    /// <summary>Every column's values and the times, read every way the table reads them, as one text to compare.</summary>
    private string Values()
    {
        using var table = TimeSeriesTable.Open(Folder, FileAccess.Read);
        return Values(table);
    }

    private static string Values(TimeSeriesTable table)
    {
        var range = new IndexRange(1_000, 3_500);
        double[] prices = new double[range.Length];
        table.Column<double>("price").CopyTo(range, prices);
        int[] sizes = table.Column<int>("size").Read(range, new int[range.Length]).ToArray();
        DateTime[] times = new DateTime[range.Length];
        table.CopyTimes(range, times);
        DateTime[] ticks = new DateTime[range.Length];
        table.Column<DateTime>("ticks").CopyTo(range, ticks);
        long rows = table.RowCount;
        return string.Join(
            '\n',
            $"{rows} {table.TimeAt(0):O} {table.TimeAt(rows - 1):O} {table.Column<int>("time")[rows - 1]} {table.Column<double>("price")[17]}",
            string.Join(',', prices.Select(BitConverter.DoubleToInt64Bits)),
            string.Join(',', sizes),
            string.Join(',', times.Select(time => time.ToString("O"))),
            string.Join(',', ticks.Select(time => time.Ticks)));
    }

    /// <summary>Adds one row a day after the first time, as the next writer of the table.</summary>
    private void AppendRow(double price)
    {
        using var writer = TimeSeriesTable.Open(Folder);
        writer.Column<double>("price").Add(price);
        writer.Column<int>("size").Add(1);
        writer.Column<long>("ticks").Add(Start.AddDays(1).Ticks);
        writer.AddRow(Start.AddDays(1));
    }

    private OhlcvBar[] Bars()
    {
        using var table = TimeSeriesTable.Open(Folder, FileAccess.Read);
        return table.Bars("price", "size", DateTime.MinValue, DateTime.MaxValue, TimeSpan.FromMinutes(1));
    }

    /// <summary>A file's bytes, read as the library opens files, so that Windows lets a writer hold it meanwhile.</summary>
    private static byte[] BytesBesideTheWriter(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        byte[] bytes = new byte[file.Length];
        file.ReadExactly(bytes);
        return bytes;
    }

    private string[] ColumnFiles() => Directory.GetFiles(Folder, "*.mmf").Order(StringComparer.Ordinal).ToArray();

    private long ColumnBytes() => ColumnFiles().Sum(file => new FileInfo(file).Length);
}
