using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.Json.Nodes;
using Xunit;

namespace ListMmf.Tests.Python;

/// <summary>
/// Dask over a catalog (<c>listmmf.catalog_to_dask</c>): a Dask partition per catalog partition, divisions from the
/// index, the rows the index records (not those a writer appended since), and a named snapshot's rows.
/// </summary>
public sealed class CatalogDaskTests : IDisposable
{
    private static readonly string[] Instruments = ["a", "b", "c"];
    private static readonly DateTime Monday = new(2024, 3, 4, 0, 0, 0, DateTimeKind.Utc);

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [DaskFact]
    public void DaskReadsEachInstrumentsRecordedRowsWithDivisionsFromTheIndex()
    {
        string folder = _directory.File("market");
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime) { TimesAreUtc = true }.Add<double>("price"));
        var recorded = Instruments.ToDictionary(name => name, _ => (Rows: 0L, Sum: 0.0));
        using var writer = TimeSeriesCatalog.Create(folder, schema);
        for (int day = 0; day < 3; day++)
        {
            foreach (string instrument in Instruments)
            {
                recorded[instrument] = Add(writer, instrument, day, recorded[instrument]);
            }
        }

        writer.Flush();
        writer.CreateSnapshot("before");
        var atSnapshot = new Dictionary<string, (long Rows, double Sum)>(recorded);
        recorded["b"] = Add(writer, "b", 3, recorded["b"]);
        writer.Flush();

        // Published in a's last table, after the rows recorded, never recorded themselves: no reader of the catalog sees them.
        DateTime evening = Monday.AddDays(2).AddHours(20);
        TimeSeriesTable last = writer.Partition("trades", "a", evening);
        for (int row = 0; row < 10; row++)
        {
            last.Column<double>("price").Add(1);
            last.AddRow(evening.AddSeconds(row));
        }

        (int exitCode, string output) = PythonProcess.Run(DaskFactAttribute.Python.Value!,
            ["tests/python/dask_catalog.py", folder, "trades", "before"]);

        Assert.True(exitCode == 0, output);
        JsonNode result = JsonNode.Parse(output)!;
        foreach (string instrument in Instruments)
        {
            JsonNode each = result["each"]![instrument]!;
            Assert.Equal((instrument == "b" ? 4 : 3, true), (each["partitions"]!.GetValue<int>(), each["known"]!.GetValue<bool>()));
            Assert.Equal("2024-03-04 09:00:00+00:00", each["from"]!.GetValue<string>());
            Assert.Equal(recorded[instrument], (each["rows"]!.GetValue<long>(), each["sum"]!.GetValue<double>()));
            JsonNode snapshot = result["snapshot"]![instrument]!;
            Assert.Equal(atSnapshot[instrument], (snapshot["rows"]!.GetValue<long>(), snapshot["sum"]!.GetValue<double>()));
        }

        // Three instruments' partitions of the same days overlap in time: Dask is told their divisions are unknown.
        JsonNode all = result["all"]!;
        Assert.Equal((10, false), (all["partitions"]!.GetValue<int>(), all["known"]!.GetValue<bool>()));
        Assert.Equal(recorded.Values.Sum(value => value.Rows), all["rows"]!.GetValue<long>());
    }

    /// <summary>
    /// A day of <paramref name="instrument"/>'s trades from 09:00 UTC, prices in halves so that every sum is exact;
    /// returns <paramref name="before"/> with their count and sum added.
    /// </summary>
    private static (long Rows, double Sum) Add(TimeSeriesCatalog writer, string instrument, int day, (long Rows, double Sum) before)
    {
        int ordinal = Array.IndexOf(Instruments, instrument);
        int rows = 50 + (7 * ordinal) + day;
        DateTime open = Monday.AddDays(day).AddHours(9);
        TimeSeriesTable table = writer.Partition("trades", instrument, open);
        double sum = 0;
        for (int row = 0; row < rows; row++)
        {
            double price = (ordinal * 1000) + (row * 0.5);
            table.Column<double>("price").Add(price);
            table.AddRow(open.AddSeconds(row * (ordinal + 1)));
            sum += price;
        }

        return (before.Rows + rows, before.Sum + sum);
    }
}
