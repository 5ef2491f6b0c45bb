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
        var lastRecorded = new Dictionary<string, DateTime>();
        using var writer = TimeSeriesCatalog.Create(folder, schema);
        for (int day = 0; day < 3; day++)
        {
            foreach (string instrument in Instruments)
            {
                recorded[instrument] = Add(writer, instrument, day, recorded[instrument]);
                lastRecorded[instrument] = LastTime(instrument, day);
            }
        }

        writer.Flush();
        writer.CreateSnapshot("before");
        var atSnapshot = new Dictionary<string, (long Rows, double Sum)>(recorded);
        recorded["b"] = Add(writer, "b", 3, recorded["b"]);
        lastRecorded["b"] = LastTime("b", 3);
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
            // The divisions from the index to the tick: the first row's time, and the last recorded row's (inclusive).
            Assert.Equal(Nanoseconds(Monday.AddHours(9)), each["from"]!.GetValue<long>());
            Assert.Equal(Nanoseconds(lastRecorded[instrument]), each["to"]!.GetValue<long>());
            Assert.Equal(recorded[instrument], (each["rows"]!.GetValue<long>(), each["sum"]!.GetValue<double>()));
            JsonNode snapshot = result["snapshot"]![instrument]!;
            Assert.Equal(atSnapshot[instrument], (snapshot["rows"]!.GetValue<long>(), snapshot["sum"]!.GetValue<double>()));
        }

        // Three instruments' partitions of the same days overlap in time: Dask is told their divisions are unknown.
        JsonNode all = result["all"]!;
        Assert.Equal((10, false), (all["partitions"]!.GetValue<int>(), all["known"]!.GetValue<bool>()));
        Assert.Equal(recorded.Values.Sum(value => value.Rows), all["rows"]!.GetValue<long>());
    }

    private static long Nanoseconds(DateTime time) => (time - DateTime.UnixEpoch).Ticks * 100;

    /// <summary>The time of the last of a day's trades <see cref="Add"/> writes.</summary>
    private static DateTime LastTime(string instrument, int day) =>
        TimeOf(Array.IndexOf(Instruments, instrument), day, RowsOf(instrument, day) - 1);

    private static int RowsOf(string instrument, int day) => 50 + (7 * Array.IndexOf(Instruments, instrument)) + day;

    /// <summary>A row's time: seconds apart from 09:00 UTC, and ticks past the second, finer than a microsecond.</summary>
    private static DateTime TimeOf(int ordinal, int day, int row) =>
        Monday.AddDays(day).AddHours(9).AddSeconds(row * (ordinal + 1)).AddTicks(row % 7);

    /// <summary>
    /// A day of <paramref name="instrument"/>'s trades from 09:00 UTC, prices in halves so that every sum is exact;
    /// returns <paramref name="before"/> with their count and sum added.
    /// </summary>
    private static (long Rows, double Sum) Add(TimeSeriesCatalog writer, string instrument, int day, (long Rows, double Sum) before)
    {
        int ordinal = Array.IndexOf(Instruments, instrument);
        int rows = RowsOf(instrument, day);
        TimeSeriesTable table = writer.Partition("trades", instrument, TimeOf(ordinal, day, 0));
        double sum = 0;
        for (int row = 0; row < rows; row++)
        {
            double price = (ordinal * 1000) + (row * 0.5);
            table.Column<double>("price").Add(price);
            table.AddRow(TimeOf(ordinal, day, row));
            sum += price;
        }

        return (before.Rows + rows, before.Sum + sum);
    }
}
