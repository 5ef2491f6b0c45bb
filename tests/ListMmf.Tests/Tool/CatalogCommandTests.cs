using System;
using System.IO;
using System.Linq;
using ListMmf.Tests.Catalog;
using ListMmf.TestHost;
using Xunit;
using Form = ListMmf.Tests.Catalog.TimeSeriesCatalogTests.Form;

namespace ListMmf.Tests.Tool;

/// <summary><c>listmmf catalog ls|info|verify|seal</c> on catalogs written by the library.</summary>
public sealed class CatalogCommandTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Market(Form form, int seed = 91)
    {
        string folder = _directory.File("market");
        TimeSeriesCatalogTests.Write(folder, CatalogWorld.Random(seed), form);
        return folder;
    }

    [Fact]
    public void LsListsEveryPartitionTheIndexRecordsWithItsRowsTimesAndForm()
    {
        string folder = Market(Form.Mixed);
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);

        ToolResult ls = ToolRunner.Run("catalog", "ls", folder);

        Assert.True(ls.ExitCode == 0, ls.Error);
        string[] lines = ls.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(catalog.Partitions().Count, lines.Length);
        CatalogPartition first = catalog.Partitions()[0];
        Assert.StartsWith($"{first.Kind}/{first.Instrument}/{first.PeriodStart:yyyy-MM-dd}  {first.RowCount:N0} rows  ", lines[0]);
        Assert.EndsWith(first.IsSealed ? "sealed" : "appendable", lines[0].TrimEnd('\r'));
    }

    [Fact]
    public void LsOfOneKindAndInstrumentListsOnlyTheirPartitions()
    {
        string folder = Market(Form.Appendable);
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        string instrument = catalog.Instruments[0];

        ToolResult ls = ToolRunner.Run("catalog", "ls", folder, "--kind", "quotes", "--instrument", instrument);

        Assert.True(ls.ExitCode == 0, ls.Error);
        string[] lines = ls.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(catalog.Partitions("quotes", instrument).Count, lines.Length);
        Assert.All(lines, line => Assert.StartsWith($"quotes/{instrument}/", line));
    }

    [Fact]
    public void InfoShowsTheKindsRowsWatermarkAndSnapshots()
    {
        string folder = Market(Form.Appendable);
        using (var writer = TimeSeriesCatalog.Open(folder))
        {
            writer.Flush(CatalogWorld.FirstDay.AddDays(5));
            writer.CreateSnapshot("run-1");
        }

        ToolResult info = ToolRunner.Run("catalog", "info", folder);

        Assert.True(info.ExitCode == 0, info.Error);
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        long rows = catalog.Partitions().Sum(partition => partition.RowCount);
        Assert.Contains($"period Day, 2 kinds, {catalog.Instruments.Count} instruments, {catalog.Partitions().Count} partitions (0 sealed), " +
            $"{rows:N0} rows recorded", info.Output);
        Assert.Contains("watermark 2024-03-09 00:00:00", info.Output);
        Assert.Contains("kind trades (time DateTime, price Double, id Int64): ", info.Output);
        Assert.Contains("snapshot run-1, taken ", info.Output);
    }

    [Theory]
    [InlineData(Form.Appendable)]
    [InlineData(Form.Sealed)]
    public void VerifyPassesAHealthyCatalog(Form form)
    {
        string folder = Market(form);

        ToolResult verify = ToolRunner.Run("catalog", "verify", folder);

        Assert.True(verify.ExitCode == 0, verify.Output + verify.Error);
        Assert.DoesNotContain("FAILED", verify.Output, StringComparison.Ordinal);
        Assert.Contains("partitions hold the rows the index records", verify.Output);
    }

    [Fact]
    public void VerifyFailsAPartitionTruncatedBehindTheCatalogsBackNamingIt()
    {
        string folder = Market(Form.Appendable);
        CatalogPartition victim;
        using (var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read))
        {
            victim = catalog.Partitions().First(partition => partition.RowCount > 1);
        }

        using (TimeSeriesTable table = TimeSeriesTable.Open(victim.Path))
        {
            table.Truncate(1);
        }

        ToolResult verify = ToolRunner.Run("catalog", "verify", folder);

        Assert.Equal(1, verify.ExitCode);
        Assert.Contains($"FAILED {victim.Kind}/{victim.Instrument}/{victim.PeriodStart:yyyy-MM-dd}: ", verify.Output);
        Assert.Contains($"records {victim.RowCount:N0} rows of this partition, but its table holds 1", verify.Output);
    }

    [Fact]
    public void VerifyFailsASealedPartitionWithADamagedBlock()
    {
        string folder = Market(Form.Sealed);
        CatalogPartition victim;
        using (var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read))
        {
            victim = catalog.Partitions().First(partition => partition.RowCount > 1);
        }

        Sealed.SealedDamageTests.FlipByteInFirstBlock(Path.Combine(victim.Path, "id.mmf"));

        ToolResult verify = ToolRunner.Run("catalog", "verify", folder);

        Assert.Equal(1, verify.ExitCode);
        Assert.Contains($"FAILED {victim.Kind}/{victim.Instrument}/{victim.PeriodStart:yyyy-MM-dd}: ", verify.Output);
    }

    [Fact]
    public void ExportWritesHivePartitionedParquetThatDuckDbReadsPartitionByPartitionWithTheSameRows()
    {
        string folder = Market(Form.Mixed);
        string hive = _directory.File("hive");

        ToolResult export = ToolRunner.Run("catalog", "export", folder, "--out", hive, "--compression", "zstd");

        Assert.True(export.ExitCode == 0, export.Error);
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        using var duck = new DuckDb();
        foreach (CatalogPartition partition in catalog.Partitions().Where(partition => partition.RowCount > 0))
        {
            string files = DuckDb.Quote(Path.Combine(hive, partition.Kind, "*", "*", "*.parquet"));
            string[] found = duck.Row($"select count(*), sum(id), min(time), max(time) from read_parquet({files}, hive_partitioning = true) " +
                $"where symbol = '{partition.Instrument}' and date = DATE '{partition.PeriodStart:yyyy-MM-dd}'");

            using TimeSeriesTable table = catalog.OpenPartition(partition);
            long[] recorded = new long[partition.RowCount];
            table.Column<long>("id").CopyTo(new IndexRange(0, partition.RowCount), recorded);
            long ids = recorded.Sum();
            Assert.Equal([$"{partition.RowCount}", $"{ids}", Time(partition.FirstTime), Time(partition.LastTime)], found);
        }
    }

    [Fact]
    public void ExportLeavesOutRowsTheWriterHasNotRecorded()
    {
        string folder = Market(Form.Appendable);
        string hive = _directory.File("hive");
        using var writer = TimeSeriesCatalog.Open(folder);
        CatalogPartition last = writer.Partitions("trades").Last(partition => partition.RowCount > 0);
        TimeSeriesCatalogTests.AddTrade(writer, last.Instrument, last.LastTime, 999_999);

        ToolResult export = ToolRunner.Run("catalog", "export", folder, "--out", hive, "--kind", "trades");

        Assert.True(export.ExitCode == 0, export.Error);
        using var duck = new DuckDb();
        string files = DuckDb.Quote(Path.Combine(hive, "trades", "*", "*", "*.parquet"));
        Assert.Equal(["0"], duck.Row($"select count(*) from read_parquet({files}, hive_partitioning = true) where id = 999999"));
        Assert.Equal([$"{writer.Partitions("trades").Sum(partition => partition.RowCount)}"], duck.Row($"select count(*) from read_parquet({files})"));
    }

    [Fact]
    public void ExportIntoAFolderThatHoldsFilesIsRefused()
    {
        string folder = Market(Form.Appendable);
        string hive = _directory.File("hive");
        Directory.CreateDirectory(hive);
        File.WriteAllText(Path.Combine(hive, "keep.txt"), "mine");

        ToolResult export = ToolRunner.Run("catalog", "export", folder, "--out", hive);

        Assert.Equal(1, export.ExitCode);
        Assert.Contains("is not empty", export.Error, StringComparison.Ordinal);
        Assert.Equal(["keep.txt"], Directory.EnumerateFileSystemEntries(hive).Select(Path.GetFileName));
    }

    private static string Time(DateTime time) => time.ToString("yyyy-MM-dd HH:mm:ss.fffffff", System.Globalization.CultureInfo.InvariantCulture);

    [Fact]
    public void SealWithoutATimeLeavesTodaysPartitionAppendable()
    {
        string folder = _directory.File("market");
        DateTime today = DateTime.SpecifyKind(DateTime.Now.Date, DateTimeKind.Unspecified);
        using (var writer = TimeSeriesCatalog.Create(folder, CatalogWorld.Schema()))
        {
            TimeSeriesCatalogTests.AddTrade(writer, "SPY", CatalogWorld.FirstDay.AddHours(10), 1);
            TimeSeriesCatalogTests.AddTrade(writer, "SPY", today, 2);
        }

        ToolResult seal = ToolRunner.Run("catalog", "seal", folder);

        Assert.True(seal.ExitCode == 0, seal.Error);
        Assert.Contains("1 partition sealed", seal.Output);
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        Assert.Equal([true, false], catalog.Partitions().Select(partition => partition.IsSealed));
    }

    [Fact]
    public void SealSealsThePartitionsOfEndedPeriods()
    {
        string folder = Market(Form.Appendable);

        ToolResult seal = ToolRunner.Run("catalog", "seal", folder, "--before", "2024-03-05");

        Assert.True(seal.ExitCode == 0, seal.Error);
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        CatalogPartition[] firstDay = catalog.Partitions().Where(partition => partition.PeriodStart == CatalogWorld.FirstDay).ToArray();
        Assert.Contains($"{firstDay.Count(partition => partition.RowCount > 0)} partitions sealed", seal.Output);
        Assert.All(firstDay.Where(partition => partition.RowCount > 0), partition => Assert.True(partition.IsSealed));
        Assert.All(catalog.Partitions().Where(partition => partition.PeriodStart > CatalogWorld.FirstDay), partition => Assert.False(partition.IsSealed));
    }
}
