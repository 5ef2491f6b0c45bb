using System;
using System.Collections.Generic;
using System.IO;
using System.Text.RegularExpressions;
using Xunit;

namespace ListMmf.Tests.Catalog;

/// <summary>The guide's catalog example is this file's <see cref="Example"/>, word for word, and it runs.</summary>
public sealed partial class CatalogGuideExampleTests
{
    [Fact]
    public void TheGuideShowsTheCatalogExampleThatRunsHere()
    {
        string guide = File.ReadAllText(RepositoryFiles.Path("docs", "guide.md"));
        string source = File.ReadAllText(RepositoryFiles.Path("tests", "ListMmf.Tests", "Catalog", "CatalogGuideExampleTests.cs"));

        string shown = GuideBlock().Match(guide).Groups["code"].Value;
        string tested = SourceRegion().Match(source).Groups["code"].Value;

        Assert.NotEqual("", tested);
        Assert.Equal(Normalize(tested), Normalize(shown));
    }

    [Fact]
    public void TheCatalogExampleReplaysTheTradesInTimeOrder()
    {
        using var directory = new TempDirectory();

        List<string> replayed = Example(directory.File("market"));

        Assert.Equal(["SPY 470.25", "QQQ 410.5", "SPY 470.5"], replayed);
    }

    private static List<string> Example(string folder)
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
        return replayed;
    }

    /// <summary>Indentation differs between the guide and the method body; the code must not.</summary>
    private static string Normalize(string code) =>
        string.Join('\n', code.ReplaceLineEndings("\n").Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));

    [GeneratedRegex(@"<!-- catalog-example -->\s*```csharp\r?\n(?<code>.*?)```", RegexOptions.Singleline)]
    private static partial Regex GuideBlock();

    [GeneratedRegex(@"// guide-catalog-start\r?\n(?<code>.*?)\s*// guide-catalog-end", RegexOptions.Singleline)]
    private static partial Regex SourceRegion();
}
