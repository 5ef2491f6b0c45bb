using System;
using System.Collections.Generic;
using System.IO;
using System.Text.RegularExpressions;
using Xunit;

namespace ListMmf.Tests.Catalog;

/// <summary>The guide's catalog example is this file's <see cref="Example"/>, word for word, and it runs.</summary>
public sealed class CatalogGuideExampleTests
{
    [Theory]
    [InlineData("catalog-example", "guide-catalog")]
    [InlineData("catalog-state-example", "guide-catalog-state")]
    [InlineData("catalog-runs-example", "guide-catalog-runs")]
    public void TheGuideShowsTheCatalogExampleThatRunsHere(string block, string region)
    {
        string guide = File.ReadAllText(RepositoryFiles.Path("docs", "guide.md"));
        string source = File.ReadAllText(RepositoryFiles.Path("tests", "ListMmf.Tests", "Catalog", "CatalogGuideExampleTests.cs"));

        string shown = Regex.Match(guide, $@"<!-- {block} -->\s*```csharp\r?\n(?<code>.*?)```", RegexOptions.Singleline).Groups["code"].Value;
        string tested = Regex.Match(source, $@"// {region}-start\r?\n(?<code>.*?)\s*// {region}-end", RegexOptions.Singleline).Groups["code"].Value;

        Assert.NotEqual("", tested);
        Assert.Equal(Normalize(tested), Normalize(shown));
    }

    [Fact]
    public void TheCatalogExampleReplaysTheTradesInTimeOrder()
    {
        using var directory = new TempDirectory();

        (List<string> replayed, _, _) = Example(directory.File("market"));

        Assert.Equal(["SPY 470.25", "QQQ 410.5", "SPY 470.5"], replayed);
    }

    [Fact]
    public void TheCatalogExampleGivesEachInstrumentsLastPriceAtATime()
    {
        using var directory = new TempDirectory();

        (_, CatalogState state, double[] last) = Example(directory.File("market"));

        Assert.Equal(["SPY", "QQQ"], state.Instruments);
        Assert.Equal([470.50, 410.50], last);
    }

    [Fact]
    public void TheCatalogRunsExampleGivesEveryTradeInTimeOrder()
    {
        using var directory = new TempDirectory();
        string folder = directory.File("market");
        Example(folder);
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        var open = new DateTime(2024, 3, 12, 13, 30, 0);
        DateTime from = open, to = open.AddHours(1);
        var trades = new List<string>();

        // guide-catalog-runs-start
        using CatalogRuns runs = catalog.Runs(from, to, columns: ["price"]);
        while (runs.MoveNext())                                  // many instruments' next rows at once
        {
            ReadOnlySpan<DateTime> times = runs.Times;
            ReadOnlySpan<CatalogPartition> partitions = runs.Partitions;
            ReadOnlySpan<double> price = runs.Values<double>(0);
            for (int i = 0; i < runs.Count; i++)
            {
                trades.Add($"{partitions[i].Instrument} {times[i]:HH:mm:ss} {price[i]}");
            }
        }
        // guide-catalog-runs-end

        Assert.Equal(["SPY 13:30:00 470.25", "QQQ 13:30:00 410.5", "SPY 13:30:01 470.5"], trades);
    }

    private static (List<string> Replayed, CatalogState State, double[] Last) Example(string folder)
    {
        // guide-catalog-start
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("price"));
        var open = new DateTime(2024, 3, 12, 13, 30, 0);
        using (var catalog = TimeSeriesCatalog.Create(folder, schema))   // one writer per catalog
        {
            foreach ((string symbol, int second, double price) in new[] { ("SPY", 0, 470.25), ("QQQ", 0, 410.50), ("SPY", 1, 470.50) })
            {
                DateTime time = open.AddSeconds(second);
                TimeSeriesTable day = catalog.Partition("trades", symbol, time); // SPY's table of 2024-03-12
                day.Column<double>("price").Add(price);
                day.AddRow(time);
            }

            catalog.Flush(open.AddSeconds(2));                           // durable; every row before 13:30:02 is in
        }

        var replayed = new List<string>();
        using var reader = TimeSeriesCatalog.Open(folder, FileAccess.Read); // any number, any process
        using CatalogReplay replay = reader.Replay(open, open.AddHours(1), columns: ["price"]);
        while (replay.MoveNext())                                         // a batch of one partition's rows
        {
            ReadOnlySpan<double> prices = replay.Values<double>(0);
            foreach (double price in prices)
            {
                replayed.Add($"{replay.Instrument} {price}");
            }
        }
        // guide-catalog-end

        // guide-catalog-state-start
        CatalogState state = reader.StateAt("trades", open.AddSeconds(1), columns: ["price"]);
        ReadOnlySpan<double> last = state.Values<double>(0);              // by state.Instruments: SPY 470.50, QQQ 410.50
        // guide-catalog-state-end
        return (replayed, state, last.ToArray());
    }

    /// <summary>Indentation differs between the guide and the method body; the code must not.</summary>
    private static string Normalize(string code) =>
        string.Join('\n', code.ReplaceLineEndings("\n").Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
}
