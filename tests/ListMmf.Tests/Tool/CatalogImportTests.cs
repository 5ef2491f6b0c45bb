using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Linq;
using ListMmf.Tool.Vendor;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// <c>listmmf catalog import</c> of folders of QuantConnect Lean's per-day files: zips written here as Lean ships
/// them, and the real ticks beside the repository (../shared/data/lean).
/// </summary>
public sealed class CatalogImportTests : IDisposable
{
    private static readonly DateTime Monday = new(2013, 10, 7);

    /// <summary>The symbols of ../shared/data/lean, in name order.</summary>
    private static readonly string[] RealSymbols = ["aig", "bac"];

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Catalog => _directory.File("market");

    /// <summary>
    /// New York's zone by a name this system knows: its IANA name, or under Wine (whose .NET runs without ICU data,
    /// so that IANA names are not translated) its Windows name.
    /// </summary>
    internal static string NewYork { get; } =
        TimeZoneInfo.TryFindSystemTimeZoneById("America/New_York", out _) ? "America/New_York" : "Eastern Standard Time";

    private static ToolResult Import(string catalog, string source) => ToolRunner.Run("catalog", "import", catalog, source, "--zone", NewYork);

    [Fact]
    public void ImportedTradesHoldTheVendorsValuesWithTimesInUtc()
    {
        string source = _directory.File("lean");
        LeanZip.Write(source, "abc", Monday, "Trade_Tick", "14400688,491800,300,P,2000,0", "57600000,492000,200,D,20002020,1");

        ToolResult import = Import(Catalog, source);

        Assert.True(import.ExitCode == 0, import.Error);
        using var catalog = TimeSeriesCatalog.Open(Catalog, FileAccess.Read);
        CatalogPartition partition = Assert.Single(catalog.Partitions("trade", "abc"));
        using TimeSeriesTable table = catalog.OpenPartition(partition);
        Assert.Equal(2, table.RowCount);

        // 04:00:00.688 and 16:00 in New York, on daylight time (UTC-4).
        Assert.Equal((new DateTime(2013, 10, 7, 8, 0, 0, 688, DateTimeKind.Utc), 49.18, 300, "P", "2000", (byte)0), TradeAt(table, 0));
        Assert.Equal((new DateTime(2013, 10, 7, 20, 0, 0, DateTimeKind.Utc), 49.2, 200, "D", "20002020", (byte)1), TradeAt(table, 1));
    }

    [Fact]
    public void AWinterEveningInNewYorkGoesToTheNextUtcDaysPartition()
    {
        string source = _directory.File("lean");
        var december = new DateTime(2013, 12, 2);
        LeanZip.Write(source, "abc", december, "Trade_Tick", "34200000,100000,1,P,0,0", "70200000,100100,1,P,0,0");

        Assert.Equal(0, Import(Catalog, source).ExitCode);

        // 19:30 on standard time (UTC-5) is 00:30 the next day in UTC.
        using var catalog = TimeSeriesCatalog.Open(Catalog, FileAccess.Read);
        var partitions = catalog.Partitions("trade", "abc");
        Assert.Equal(2, partitions.Count);
        Assert.Equal((new DateTime(2013, 12, 2), 1), (partitions[0].PeriodStart, partitions[0].RowCount));
        Assert.Equal((new DateTime(2013, 12, 3), 1), (partitions[1].PeriodStart, partitions[1].RowCount));
        Assert.Equal(new DateTime(2013, 12, 3, 0, 30, 0), partitions[1].FirstTime);
    }

    [Fact]
    public void ImportingTheSameFolderAgainAddsNothing()
    {
        string source = WriteWeek(_directory.File("lean"), days: 3);
        Assert.Equal(0, Import(Catalog, source).ExitCode);
        var before = Rows(Catalog);

        ToolResult again = Import(Catalog, source);

        Assert.True(again.ExitCode == 0, again.Error);
        Assert.Contains("imported 0 rows from 9 files", again.Output);
        Assert.Contains("9 files the catalog held already", again.Output);
        Assert.Equal(before, Rows(Catalog));
    }

    [Fact]
    public void ARerunAfterAnImportCutShortInsideATimeAddsOnlyTheMissingRows()
    {
        string whole = WriteWeek(_directory.File("whole"), days: 2);
        string expected = _directory.File("expected");
        Assert.Equal(0, Import(expected, whole).ExitCode);

        // As a killed import leaves it: the second day's trades up to the middle of three rows of one millisecond.
        string cut = WriteWeek(_directory.File("cut"), days: 1);
        LeanZip.Write(cut, "abc", Monday.AddDays(1), "Trade_Tick", WeekTrades(1).Take(3).ToArray());
        Assert.Equal(0, Import(Catalog, cut).ExitCode);

        ToolResult rerun = Import(Catalog, whole);

        Assert.True(rerun.ExitCode == 0, rerun.Error);
        Assert.Equal(Rows(expected), Rows(Catalog));
    }

    [Fact]
    public void ARerunAfterAKilledImportAddsTheRowsItsLatestPartitionLacksWithoutRecordingAnyTwice()
    {
        string whole = WriteWeek(_directory.File("whole"), days: 2);
        string expected = _directory.File("expected");
        Assert.Equal(0, Import(expected, whole).ExitCode);
        Assert.Equal(0, Import(Catalog, WriteWeek(_directory.File("first"), days: 1)).ExitCode);

        // As a kill leaves it: the next day's partition recorded empty, then three of its trades appended to its table
        // and made durable, with no index line recording them.
        string day = LeanZip.Write(_directory.File("day"), "abc", Monday.AddDays(1), "Trade_Tick", WeekTrades(1));
        LeanDay trades = LeanDay.Read(new LeanFile(day, LeanKind.Trade, "abc", Monday.AddDays(1)));
        trades.TimesToUtc(TimeZoneInfo.FindSystemTimeZoneById(NewYork));
        string partition;
        using (var writer = TimeSeriesCatalog.Open(Catalog))
        {
            partition = writer.Partition("trade", "abc", new DateTime(trades.Times[0], DateTimeKind.Utc)).Path;
        }

        using (TimeSeriesTable table = TimeSeriesTable.Open(partition, FileAccess.ReadWrite))
        {
            trades.AppendTo(table, 0, 3);
            table.Flush();
        }

        ToolResult rerun = Import(Catalog, whole);

        Assert.True(rerun.ExitCode == 0, rerun.Error);
        Assert.Equal(Rows(expected), Rows(Catalog));
    }

    [Fact]
    public void ADayAddedToTheFolderBeforeTheCatalogsLastRowIsRefusedNotSkipped()
    {
        string source = _directory.File("lean");
        LeanZip.Write(source, "abc", Monday, "Trade_Tick", WeekTrades(0));
        LeanZip.Write(source, "abc", Monday.AddDays(2), "Trade_Tick", WeekTrades(2));
        Assert.Equal(0, Import(Catalog, source).ExitCode);
        string late = LeanZip.Write(source, "abc", Monday.AddDays(1), "Trade_Tick", WeekTrades(1));

        ToolResult again = Import(Catalog, source);

        Assert.Equal(1, again.ExitCode);
        Assert.Contains($"'{late}' holds 5 rows of abc's trade before the catalog's last one", again.Error);
        Assert.Contains("the catalog holds 0 rows in that day's times", again.Error);
    }

    [Fact]
    public void ABadRowIsRefusedWithItsFileAndLineAndTheDaysBeforeItStayImported()
    {
        string source = _directory.File("lean");
        LeanZip.Write(source, "abc", Monday, "Trade_Tick", WeekTrades(0));
        string bad = LeanZip.Write(source, "abc", Monday.AddDays(1), "Trade_Tick", "34200000,100000,1,P,0,0", "34200001,1.5,1,P,0,0");

        ToolResult import = Import(Catalog, source);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains($"'{bad}' line 2: its price '1.5' is not a whole number", import.Error);
        using var catalog = TimeSeriesCatalog.Open(Catalog, FileAccess.Read);
        CatalogPartition kept = Assert.Single(catalog.Partitions("trade", "abc"));
        Assert.Equal(Monday, kept.PeriodStart);
        Assert.Equal(WeekTrades(0).Length, kept.RowCount);
    }

    [Fact]
    public void ACatalogWhoseKindHasOtherColumnsIsRefusedAndKeptAsItWas()
    {
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("trade", new TimeSeriesTableSchema("time", DataType.DateTime) { TimesAreUtc = true }.Add<double>("price"));
        TimeSeriesCatalog.Create(Catalog, schema).Dispose();
        string source = _directory.File("lean");
        LeanZip.Write(source, "abc", Monday, "Trade_Tick", WeekTrades(0));

        ToolResult import = Import(Catalog, source);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("the catalog's kind 'trade' is (time DateTime, price Double, UTC, AscendingOrEqual); Lean's trade_tick rows need", import.Error);
        using var catalog = TimeSeriesCatalog.Open(Catalog, FileAccess.Read);
        Assert.Empty(catalog.Partitions());
    }

    [Fact]
    public void TwoFilesOfOneSymbolsDayAreRefusedBeforeAnythingIsImported()
    {
        string source = WriteWeek(_directory.File("lean"), days: 1);
        File.WriteAllLines(Path.Combine(source, "20131007_abc_Trade_Tick.csv"), WeekTrades(0));

        ToolResult import = Import(Catalog, source);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("both hold abc's trade of 2013-10-07", import.Error);
        Assert.False(Directory.Exists(Catalog));
    }

    [Fact]
    public void AZipNotNamedAsLeanNamesItsCsvIsRefused()
    {
        string source = WriteWeek(_directory.File("lean"), days: 1);
        string stranger = LeanZip.WriteEntry(Path.Combine(source, "notes.zip"), "readme.csv", "a,b");

        ToolResult import = Import(Catalog, source);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains($"'{stranger}': its CSV 'readme.csv' is not named as Lean names one", import.Error);
    }

    [LeanDataFact]
    public void TheRealLeanFolderImportsEveryRowAndReplaysInTimeOrder()
    {
        string source = LeanDataFactAttribute.Folder!;

        ToolResult import = Import(Catalog, source);

        Assert.True(import.ExitCode == 0, import.Error);
        using var catalog = TimeSeriesCatalog.Open(Catalog, FileAccess.Read);
        foreach (IGrouping<string, string> kind in Directory.EnumerateFiles(source, "*.zip").GroupBy(KindOfZip))
        {
            Assert.Equal(kind.Sum(LeanZip.Lines), catalog.Partitions(kind.Key).Sum(partition => partition.RowCount));
        }

        // New symbols come in name order, whichever thread imported first: the replay's order of equal times is fixed.
        Assert.Equal(RealSymbols, catalog.Instruments);

        // The data's README: BAC's and AIG's trades over five days.
        Assert.Equal(779_957, catalog.Partitions("trade").Sum(partition => partition.RowCount));
        using (TimeSeriesTable aig = catalog.OpenPartition(catalog.Partitions("trade", "aig")[0]))
        {
            Assert.Equal(new DateTime(2013, 10, 7, 8, 0, 0, 688, DateTimeKind.Utc), aig.TimeAt(0));
            Assert.Equal(49.18, aig.Column<double>("price")[0]);
        }

        long replayed = 0;
        long outOfOrder = 0;
        DateTime previous = DateTime.MinValue;
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue);
        while (replay.MoveNext())
        {
            foreach (DateTime time in replay.Times)
            {
                outOfOrder += time < previous ? 1 : 0;
                previous = time;
            }

            replayed += replay.Times.Length;
        }

        Assert.Equal((catalog.Partitions().Sum(partition => partition.RowCount), 0L), (replayed, outOfOrder));
        Assert.Equal(0, ToolRunner.Run("catalog", "verify", Catalog).ExitCode);
    }

    private static (DateTime, double, int, string, string, byte) TradeAt(TimeSeriesTable table, long row) =>
        (table.TimeAt(row), table.Column<double>("price")[row], table.Column<int>("size")[row], table.Text("exchange")[row],
            table.Text("condition")[row], table.Column<byte>("suspicious")[row]);

    /// <summary>"trade", "quote" or "trade_minute", from a name such as aig_20131007_trade_tick.zip.</summary>
    private static string KindOfZip(string zip)
    {
        string[] parts = Path.GetFileNameWithoutExtension(zip).Split('_');
        return parts[^1] == "tick" ? parts[^2] : $"{parts[^2]}_{parts[^1]}";
    }

    /// <summary>A symbol's trades, quotes and minute bars for <paramref name="days"/> days from Monday, in Lean's tree.</summary>
    private static string WriteWeek(string folder, int days)
    {
        for (int day = 0; day < days; day++)
        {
            string date = Monday.AddDays(day).ToString("yyyyMMdd", System.Globalization.CultureInfo.InvariantCulture);
            LeanZip.WriteEntry(Path.Combine(folder, "tick", "abc", $"{date}_trade.zip"), $"{date}_abc_Trade_Tick.csv", WeekTrades(day));
            LeanZip.WriteEntry(Path.Combine(folder, "tick", "abc", $"{date}_quote.zip"), $"{date}_abc_Quote_Tick.csv",
                $"34200000,{100_000 + day},100,0,0,Q,1,0", $"34200000,0,0,{100_100 + day},200,Q,1,0");
            LeanZip.WriteEntry(Path.Combine(folder, "minute", "abc", $"{date}_trade.zip"), $"{date}_abc_minute_trade.csv",
                $"34200000,100000,100200,99900,100100,{1000 + day}");
        }

        return folder;
    }

    /// <summary>A day's trades: three share one millisecond, so that a cut can fall among them.</summary>
    private static string[] WeekTrades(int day) =>
    [
        $"34200000,{100_000 + day},100,P,0,0",
        "34200100,100100,200,Q,1,0",
        "34200100,100200,300,Q,1,0",
        "34200100,100300,400,D,1,0",
        "34200500,100400,500,D,1,0",
    ];

    /// <summary>Every partition's times and first price column, in the catalog's order.</summary>
    private static List<string> Rows(string folder)
    {
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        var rows = new List<string>();
        foreach (CatalogPartition partition in catalog.Partitions())
        {
            using TimeSeriesTable table = catalog.OpenPartition(partition);
            string price = table.Schema.Columns[0].Name;
            for (long row = 0; row < partition.RowCount; row++)
            {
                rows.Add($"{partition.Kind}/{partition.Instrument} {table.TimeAt(row):O} {table.Column<double>(price)[row]}");
            }
        }

        return rows;
    }
}

/// <summary>Lean's zips for tests: one CSV inside, no header.</summary>
internal static class LeanZip
{
    /// <summary>Writes <c>symbol_yyyyMMdd_kind.zip</c> (renamed, as in ../shared/data/lean) holding Lean's CSV; returns its path.</summary>
    public static string Write(string folder, string symbol, DateTime day, string tag, params string[] lines)
    {
        string date = day.ToString("yyyyMMdd", System.Globalization.CultureInfo.InvariantCulture);
        return WriteEntry(Path.Combine(folder, $"{symbol}_{date}_{tag.ToLowerInvariant()}.zip"), $"{date}_{symbol}_{tag}.csv", lines);
    }

    public static string WriteEntry(string zip, string entry, params string[] lines)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(zip)!);
        using ZipArchive archive = ZipFile.Open(zip, ZipArchiveMode.Create);
        using var writer = new StreamWriter(archive.CreateEntry(entry).Open());
        writer.Write(string.Join("\r\n", lines) + "\r\n");
        return zip;
    }

    /// <summary>The rows a Lean zip holds: its CSV's lines that are not empty.</summary>
    public static long Lines(string zip)
    {
        using ZipArchive archive = ZipFile.OpenRead(zip);
        using var reader = new StreamReader(archive.Entries.Single().Open());
        long lines = 0;
        while (reader.ReadLine() is { } line)
        {
            lines += line.Length > 0 ? 1 : 0;
        }

        return lines;
    }
}

/// <summary>A test of the real ticks beside the repository (../shared/data/lean): skipped where they are not.</summary>
public sealed class LeanDataFactAttribute : FactAttribute
{
    /// <summary>The folder of real Lean zips, or null.</summary>
    public static string? Folder { get; } = Find();

    public LeanDataFactAttribute()
    {
        if (Folder is null)
        {
            Skip = "needs the real Lean ticks beside the repository (../shared/data/lean), which .ci/run's machine has";
        }
    }

    private static string? Find()
    {
        string folder = Path.GetFullPath(Path.Combine(RepositoryFiles.Root, "..", "shared", "data", "lean"));
        return Directory.Exists(folder) && Directory.EnumerateFiles(folder, "*.zip").Any() ? folder : null;
    }
}
