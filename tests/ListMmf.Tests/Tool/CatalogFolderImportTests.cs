using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Text;
using ListMmf.Tests.Catalog;
using ListMmf.TestHost;
using ListMmf.Tool;
using ListMmf.Tool.CatalogImport;
using Xunit;
using Form = ListMmf.Tests.Catalog.TimeSeriesCatalogTests.Form;

namespace ListMmf.Tests.Tool;

/// <summary>
/// <c>listmmf catalog import --layout</c>: folders of CSV and Parquet files of one instrument each, as the library's
/// export, DuckDB and a user's own script lay them out.
/// </summary>
public sealed class CatalogFolderImportTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Catalog => _directory.File("market");

    private static string NewYork => CatalogImportTests.NewYork;

    [Theory]
    [InlineData(Form.Appendable)]
    [InlineData(Form.Mixed)]
    public void AnExportedCatalogImportsBackWithEverySeriesRowsAndValues(Form form)
    {
        string source = _directory.File("source");
        TimeSeriesCatalogTests.Write(source, CatalogWorld.Random(17), form);
        string hive = _directory.File("hive");
        Assert.Equal(0, ToolRunner.Run("catalog", "export", source, "--out", hive).ExitCode);

        ToolResult import = ToolRunner.Run("catalog", "import", Catalog, hive, "--layout", "hive");

        Assert.True(import.ExitCode == 0, import.Error);
        Assert.Equal(RowsOf(source), RowsOf(Catalog));
    }

    [Fact]
    public void AFolderDuckDbPartitionedBySymbolAndDateImportsAsTheKindGiven()
    {
        string source = _directory.File("source");
        TimeSeriesCatalogTests.Write(source, CatalogWorld.Random(23), Form.Appendable);
        string exported = _directory.File("hive");
        Assert.Equal(0, ToolRunner.Run("catalog", "export", source, "--out", exported).ExitCode);
        string hive = _directory.File("duck");
        using (var duck = new DuckDb())
        {
            // DuckDB's own writer: symbol=X/date=Y/data_0.parquet, the keys kept in the folders' names only.
            string files = DuckDb.Quote(Path.Combine(exported, "trades", "*", "*", "*.parquet"));
            duck.Execute($"copy (select * from read_parquet({files}, hive_partitioning = true) order by symbol, time, id) " +
                $"to {DuckDb.Quote(hive)} (format parquet, partition_by (symbol, date))");
        }

        ToolResult import = ToolRunner.Run("catalog", "import", Catalog, hive, "--layout", "hive", "--kind", "trades");

        Assert.True(import.ExitCode == 0, import.Error);
        Assert.Equal(RowsOf(source).Where(row => row.StartsWith("trades/", StringComparison.Ordinal)), RowsOf(Catalog));
    }

    [Fact]
    public void ANewCatalogRanksItsKindsAsKindsSaysSoThatAReplayPutsATradeBeforeAQuoteOfItsTime()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "trade/ABC/1.csv", "2024-01-02T10:00:00,1");
        WriteCsv(source, "quote/ABC/1.csv", "2024-01-02T10:00:00,2");
        string[] args = ["catalog", "import", Catalog, source, "--layout", "{kind}/{symbol}/*.csv", "--time", "time", "--column", "price:double"];

        ToolResult import = ToolRunner.Run([.. args, "--kinds", "trade,quote"]);

        Assert.True(import.ExitCode == 0, import.Error);
        using var catalog = TimeSeriesCatalog.Open(Catalog, FileAccess.Read);
        Assert.Equal(["trade", "quote"], catalog.Schema.Kinds);
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, columns: ["price"]);
        var prices = new List<double>();
        while (replay.MoveNext())
        {
            prices.AddRange(replay.Values<double>(0).ToArray());
        }

        Assert.Equal([1.0, 2.0], prices);
    }

    [Fact]
    public void KindsThatLeaveOutAKindOfTheFolderAreRefusedBeforeAnythingIsImported()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "trade/ABC/1.csv", "2024-01-02T10:00:00,1");
        WriteCsv(source, "quote/ABC/1.csv", "2024-01-02T10:00:00,2");

        ToolResult import = ToolRunner.Run("catalog", "import", Catalog, source, "--layout", "{kind}/{symbol}/*.csv", "--time", "time",
            "--column", "price:double", "--kinds", "trade");

        Assert.Equal(2, import.ExitCode);
        Assert.Contains("--kinds trade: name each kind the folder's files hold once (quote, trade)", import.Error);
        Assert.False(Directory.Exists(Catalog));
    }

    [Fact]
    public void GzippedCsvsWithExchangeTimesAreStoredInUtcAndAWinterEveningGoesToTheNextDay()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/2013-12-02.csv.gz", "2013-12-02T09:30:00,100.5,P", "2013-12-02T19:30:00,100.25,Q");

        ToolResult import = ToolRunner.Run("catalog", "import", Catalog, source, "--layout", "{symbol}/*.csv.gz", "--kind", "trade",
            "--time", "time:iso", "--column", "price:double", "exchange:text8", "--zone", NewYork);

        Assert.True(import.ExitCode == 0, import.Error);
        using var catalog = TimeSeriesCatalog.Open(Catalog, FileAccess.Read);
        Assert.True(catalog.Schema.SchemaOf("trade").TimesAreUtc);
        var partitions = catalog.Partitions("trade", "ABC");
        Assert.Equal([new DateTime(2013, 12, 2), new DateTime(2013, 12, 3)], partitions.Select(partition => partition.PeriodStart));
        using TimeSeriesTable late = catalog.OpenPartition(partitions[1]);
        Assert.Equal((new DateTime(2013, 12, 3, 0, 30, 0, DateTimeKind.Utc), 100.25, "Q"),
            (late.TimeAt(0), late.Column<double>("price")[0], late.Text("exchange")[0]));
    }

    [Fact]
    public void ImportingTheSameFolderAgainAddsNothing()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/1.csv", "2024-01-02T10:00:00,1", "2024-01-02T10:00:00,2");
        WriteCsv(source, "ABC/2.csv", "2024-01-03T10:00:00,3");
        WriteCsv(source, "XYZ/1.csv", "2024-01-02T10:00:00,4");
        string[] args = PriceImport(source);
        Assert.Equal(0, ToolRunner.Run(args).ExitCode);
        var before = SeriesOf(Catalog);

        ToolResult again = ToolRunner.Run(args);

        Assert.True(again.ExitCode == 0, again.Error);
        Assert.Contains("imported 0 rows from 3 files", again.Output);
        Assert.Contains("3 files the catalog held already", again.Output);
        Assert.Equal(before, SeriesOf(Catalog));
    }

    [Fact]
    public void FilesOfOneInstrumentFollowEachOtherWithNumbersComparedAsNumbers()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/data_2.csv", "2024-01-02T10:00:00,2");
        WriteCsv(source, "ABC/data_10.csv", "2024-01-02T11:00:00,10");

        ToolResult import = ToolRunner.Run("catalog", "import", Catalog, source, "--layout", "{symbol}/data_*.csv", "--kind", "trade",
            "--time", "time", "--column", "price:double");

        Assert.True(import.ExitCode == 0, import.Error);
        Assert.Equal([2.0, 10.0], SeriesOf(Catalog)["trade/ABC"].Select(row => row.Value));
    }

    [Fact]
    public void FilesOfOneInstrumentThatShareATimeAtTheirBoundaryKeepEveryRow()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/1.csv", "2024-01-02T10:00:00,1", "2024-01-02T11:00:00,2", "2024-01-02T11:00:00,3");
        WriteCsv(source, "ABC/2.csv", "2024-01-02T11:00:00,4", "2024-01-02T12:00:00,5");

        ToolResult import = ImportPrices(source);

        Assert.True(import.ExitCode == 0, import.Error);
        Assert.Equal([1.0, 2.0, 3.0, 4.0, 5.0], SeriesOf(Catalog)["trade/ABC"].Select(row => row.Value));
    }

    [Fact]
    public void AFileThatStartsBeforeTheRowsOfTheFileBeforeItIsRefused()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/1.csv", "2024-01-02T10:00:00,1", "2024-01-02T12:00:00,2");
        WriteCsv(source, "ABC/2.csv", "2024-01-02T11:00:00,3", "2024-01-02T13:00:00,4");

        ToolResult import = ImportPrices(source);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("2.csv' starts at 2024-01-02 11:00:00.0000000, before the last row of ABC's trade added from the files " +
            "before it (2024-01-02 12:00:00.0000000)", import.Error);
        Assert.Equal([1.0, 2.0], SeriesOf(Catalog)["trade/ABC"].Select(row => row.Value));
    }

    [Fact]
    public void AYearInOneFileTakesEachDaysOffsetThoughItsEndsShareOne()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/2023.csv", "2023-01-03T10:00:00,1", "2023-07-03T10:00:00,2", "2023-12-29T10:00:00,3");

        ToolResult import = ImportPrices(source, "--zone", NewYork, "--period", "year");

        Assert.True(import.ExitCode == 0, import.Error);
        Assert.Equal([new DateTime(2023, 1, 3, 15, 0, 0), new DateTime(2023, 7, 3, 14, 0, 0), new DateTime(2023, 12, 29, 15, 0, 0)],
            SeriesOf(Catalog)["trade/ABC"].Select(row => row.Time));
    }

    [Fact]
    public void AFileTheLayoutDoesNotPlaceIsRefusedByNameAndNothingIsImported()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/1.csv", "2024-01-02T10:00:00,1");
        WriteCsv(source, "notes.csv", "2024-01-02T10:00:00,1");

        ToolResult import = ImportPrices(source);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("notes.csv' is not where the layout '{symbol}/*.csv' places a file", import.Error);
        Assert.False(Directory.Exists(Catalog));
    }

    [Fact]
    public void AFileWhoseColumnsAreNotTheKindsIsRefusedByNameAndTheCatalogKeepsItsRows()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/1.csv", "2024-01-02T10:00:00,1");
        string[] args = PriceImport(source);
        Assert.Equal(0, ToolRunner.Run(args).ExitCode);
        string next = _directory.File("next");
        WriteCsv(next, "ABC/2.csv", "2024-01-03T10:00:00,2");
        var before = SeriesOf(Catalog);

        ToolResult import = ToolRunner.Run([.. args[..3], next, .. args[4..^1], "price:float"]);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("2.csv' holds rows of (time DateTime, price Single, AscendingOrEqual), and the catalog's kind 'trade' is " +
            "(time DateTime, price Double, AscendingOrEqual)", import.Error);
        Assert.Equal(before, SeriesOf(Catalog));
    }

    [Fact]
    public void TimesWithoutAZoneAreRefusedByAKindInUtcNamingTheZoneOption()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/1.csv", "2024-01-02T10:00:00Z,1");
        string[] args = PriceImport(source);
        Assert.Equal(0, ToolRunner.Run(args).ExitCode);
        WriteCsv(source, "ABC/2.csv", "2024-01-03T10:00:00,2");

        ToolResult import = ToolRunner.Run(args);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("2.csv' holds rows of (time DateTime, price Double, AscendingOrEqual), and the catalog's kind 'trade' is " +
            "(time DateTime, price Double, UTC, AscendingOrEqual). Its times have no zone: give --zone", import.Error);
    }

    [Fact]
    public void AFileOutOfTimeOrderIsRefusedNamingItsRowAndTheSortOption()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/1.csv", "2024-01-02T11:00:00,1", "2024-01-02T10:00:00,2");

        ToolResult import = ImportPrices(source);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("1.csv' line 3: time", import.Error);
        Assert.Contains("the rows must be in time order (catalog import --sort sorts each file's rows by time first)", import.Error);
    }

    [Fact]
    public void SortedFilesKeepTheFilesOrderOfEqualTimesAndTurnTheirZoneAfterSorting()
    {
        string source = _directory.File("csv");
        // The clocks of New York go back at 02:00 on 2024-11-03: 01:30 is shown twice, and taken at its first (daylight) offset.
        WriteCsv(source, "ABC/1.csv", "2024-11-03T01:30:00,3", "2024-11-03T00:30:00,1", "2024-11-03T01:30:00,4", "2024-11-03T00:30:00,2");

        ToolResult import = ImportPrices(source, "--zone", NewYork, "--sort");

        Assert.True(import.ExitCode == 0, import.Error);
        var first = new DateTime(2024, 11, 3, 4, 30, 0);
        Assert.Equal([(first, 1.0), (first, 2.0), (first.AddHours(1), 3.0), (first.AddHours(1), 4.0)], SeriesOf(Catalog)["trade/ABC"]);
    }

    [Fact]
    public void SortedEqualTimesAreRefusedByAnAscendingKind()
    {
        string source = _directory.File("csv");
        WriteCsv(source, "ABC/1.csv", "2024-01-02T11:00:00,1", "2024-01-02T10:00:00,2", "2024-01-02T11:00:00,3");

        ToolResult import = ImportPrices(source, "--order", "ascending", "--sort");

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("1.csv': 3 rows sorted by time, row 2's time 2024-01-02 11:00:00.0000000 equals the one before it, and the kind is Ascending",
            import.Error);
    }

    [Fact]
    public void TheStagingFolderIsRemovedWhenTheImportEnds()
    {
        string source = _directory.File("csv");
        string file = WriteCsv(source, "ABC/1.csv", "2024-01-02T10:00:00,1");
        string root;
        using (var staging = new ImportStaging(new CsvColumns("time", null, [("price", "double")]), null, null, null, null, sort: false))
        {
            using StagedRows rows = staging.Read(new TableFile(file, "trade", "ABC", IsParquet: false, staging), kind: null);
            Assert.Single(rows.Times);
            root = staging.Folder;
            Assert.True(Directory.Exists(root));
        }

        Assert.False(Directory.Exists(root), root);
    }

    [Fact]
    public void AFileThatFailsToReadLeavesNothingInTheStagingFolder()
    {
        string source = _directory.File("csv");
        string file = WriteCsv(source, "ABC/1.csv", "2024-01-02T10:00:00,1", "2024-01-02T10:00:00,oops");
        string root;
        using (var staging = new ImportStaging(new CsvColumns("time", null, [("price", "double")]), null, null, null, null, sort: false))
        {
            root = staging.Folder;
            Assert.Throws<DataException>(() => staging.Read(new TableFile(file, "trade", "ABC", IsParquet: false, staging), kind: null));
            Assert.Empty(Directory.EnumerateFileSystemEntries(root));
        }

        Assert.False(Directory.Exists(root), root);
    }

    /// <summary>
    /// The arguments that import <paramref name="source"/>'s <c>SYMBOL/*.csv</c> files of time and price as trades,
    /// then <paramref name="more"/>.
    /// </summary>
    private string[] PriceImport(string source, params string[] more) =>
        ["catalog", "import", Catalog, source, "--layout", "{symbol}/*.csv", "--kind", "trade", "--time", "time", "--column", "price:double",
            .. more];

    private ToolResult ImportPrices(string source, params string[] more) => ToolRunner.Run(PriceImport(source, more));

    /// <summary>
    /// Writes a CSV of a header <c>time,price[,exchange]</c> and <paramref name="lines"/> (gzip for .gz) under
    /// <paramref name="folder"/>.
    /// </summary>
    private static string WriteCsv(string folder, string relative, params string[] lines)
    {
        string path = Path.Combine(folder, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        string header = lines[0].Count(c => c == ',') == 2 ? "time,price,exchange" : "time,price";
        byte[] text = Encoding.UTF8.GetBytes(string.Join('\n', lines.Prepend(header)) + "\n");
        using FileStream file = File.Create(path);
        using Stream output = path.EndsWith(".gz", StringComparison.Ordinal) ? new GZipStream(file, CompressionLevel.Fastest) : file;
        output.Write(text);
        return path;
    }

    /// <summary>
    /// Every row of every series, in order, as text: kind/instrument, the time with its kind (UTC or not), and every
    /// value column's value (a number as its round-trip text, a text value as it is).
    /// </summary>
    private static List<string> RowsOf(string folder)
    {
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        var rows = new List<string>();
        foreach (CatalogPartition partition in catalog.Partitions().Where(partition => partition.RowCount > 0)
            .OrderBy(partition => partition.Kind, StringComparer.Ordinal).ThenBy(partition => partition.Instrument, StringComparer.Ordinal))
        {
            using TimeSeriesTable table = catalog.OpenPartition(partition);
            for (long row = 0; row < partition.RowCount; row++)
            {
                DateTime time = table.TimeAt(row);
                IEnumerable<string> values = table.Schema.Columns.Select(column => column.IsText
                    ? table.Text(column.Name)[row]
                    : DataTypeInfo.Of(column.DataType).Accept(new ValueText(table, column.Name, row)));
                rows.Add($"{partition.Kind}/{partition.Instrument} {time.Ticks} {time.Kind} {string.Join(' ', values)}");
            }
        }

        return rows;
    }

    private sealed record ValueText(TimeSeriesTable Table, string Name, long Row) : IDataTypeVisitor<string>
    {
        public string Visit<T>(DataTypeInfo type)
            where T : unmanaged, System.Numerics.INumber<T>, System.Numerics.IMinMaxValue<T> =>
            Table.Column<T>(Name)[Row].ToString(null, System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>Every series' rows, as (time, first value column) in order, keyed by kind/instrument.</summary>
    private static SortedDictionary<string, List<(DateTime Time, double Value)>> SeriesOf(string folder)
    {
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        var series = new SortedDictionary<string, List<(DateTime, double)>>(StringComparer.Ordinal);
        foreach (CatalogPartition partition in catalog.Partitions().Where(partition => partition.RowCount > 0))
        {
            using TimeSeriesTable table = catalog.OpenPartition(partition);
            TableColumn<double> values = table.Column<double>(table.Schema.Columns[0].Name);
            string key = $"{partition.Kind}/{partition.Instrument}";
            if (!series.TryGetValue(key, out var rows))
            {
                series.Add(key, rows = []);
            }

            for (long row = 0; row < partition.RowCount; row++)
            {
                rows.Add((DateTime.SpecifyKind(table.TimeAt(row), DateTimeKind.Unspecified), values[row]));
            }
        }

        return series;
    }
}
