using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.TestHost;
using Xunit;
using Form = ListMmf.Tests.Catalog.TimeSeriesCatalogTests.Form;

namespace ListMmf.Tests.Catalog;

/// <summary>A catalog replayed a time at a time (<see cref="TimeSeriesCatalog.Slices"/>).</summary>
public sealed class CatalogSlicesTests
{
    [Theory]
    [InlineData(31, Form.Appendable)]
    [InlineData(32, Form.Sealed)]
    [InlineData(33, Form.Mixed)]
    public void EachSliceHoldsEveryRowOfOneTimeInTheReplayOrder(int seed, Form form)
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(seed);
        TimeSeriesCatalogTests.Write(folder.Path, world, form);
        Dictionary<long, CatalogWorld.Row> byId = world.Rows.ToDictionary(row => row.Id);
        List<string> expected = world.ReplayOrder(DateTime.MinValue, DateTime.MaxValue)
            .GroupBy(id => byId[id].Time).Select(time => Slice(time.Key, time.ToArray())).ToList();

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogSlices slices = catalog.Slices(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);
        var sliced = new List<string>();
        while (slices.MoveNext())
        {
            long[] ids = slices.Values<long>(0).ToArray();
            sliced.Add(Slice(slices.Time, ids));
            for (int i = 0; i < slices.Count; i++)
            {
                CatalogPartition partition = slices.Partitions[i];
                CatalogWorld.Row row = byId[ids[i]];
                Assert.Equal((row.Kind, row.Instrument), (partition.Kind, partition.Instrument));
                using TimeSeriesTable table = catalog.OpenPartition(partition);
                Assert.Equal((row.Time, row.Id), (table.TimeAt(slices.Rows[i]), table.Column<long>("id")[slices.Rows[i]]));
            }
        }

        Assert.True(expected.Count(slice => slice.Contains(',', StringComparison.Ordinal)) > 10, "the world has times shared by several rows");
        Assert.Equal(expected, sliced);
    }

    /// <summary>A slice as text: its time and its rows' ids in order.</summary>
    private static string Slice(DateTime time, long[] ids) => $"{time:O}: {string.Join(",", ids)}";

    [Fact]
    public void SlicesOfSomeInstrumentsAndATimeRangeHoldOnlyTheirRows()
    {
        using var folder = new TempDirectory();
        CatalogWorld world = CatalogWorld.Random(34);
        TimeSeriesCatalogTests.Write(folder.Path, world, Form.Appendable);
        string[] instruments = world.Instruments().Skip(1).Take(3).ToArray();
        DateTime from = CatalogWorld.FirstDay.AddHours(9.5).AddSeconds(10);
        DateTime to = CatalogWorld.FirstDay.AddDays(1).AddHours(9.5).AddSeconds(30);
        Dictionary<long, CatalogWorld.Row> byId = world.Rows.ToDictionary(row => row.Id);
        long[] expected = world.ReplayOrder(from, to).Where(id => instruments.Contains(byId[id].Instrument)).ToArray();

        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogSlices slices = catalog.Slices(from, to, instruments, columns: ["id"]);
        var ids = new List<long>();
        while (slices.MoveNext())
        {
            ids.AddRange(slices.Values<long>(0).ToArray());
        }

        Assert.Equal(expected, ids);
    }

    [Fact]
    public void AColumnOfTwoTypesInTheKindsSlicedIsRefused()
    {
        using var folder = new TempDirectory();
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("a", new TimeSeriesTableSchema("time", DataType.DateTime).Add<double>("x"))
            .Add("b", new TimeSeriesTableSchema("time", DataType.DateTime).Add<long>("x"));
        using var catalog = TimeSeriesCatalog.Create(folder.Path, schema);

        var refused = Assert.Throws<ArgumentException>(() => catalog.Slices(DateTime.MinValue, DateTime.MaxValue, columns: ["x"]));

        Assert.Contains("The column 'x' holds Double in one kind and Int64 in another", refused.Message);
        catalog.Slices(DateTime.MinValue, DateTime.MaxValue, kinds: ["b"], columns: ["x"]).Dispose();
    }

    [Fact]
    public void SlicesOfNoKindHoldNoRow()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogTests.Write(folder.Path, CatalogWorld.Random(36), Form.Appendable);
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);

        using CatalogSlices slices = catalog.Slices(DateTime.MinValue, DateTime.MaxValue, kinds: [], columns: ["id"]);

        Assert.False(slices.MoveNext());
    }

    [Fact]
    public void SlicesOfAColumnNoKindHasAreRefusedNamingIt()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogTests.Write(folder.Path, CatalogWorld.Random(37), Form.Appendable);
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);

        var refused = Assert.Throws<ArgumentException>(() => catalog.Slices(DateTime.MinValue, DateTime.MaxValue, kinds: [], columns: ["volume"]));

        Assert.Contains("has a number column 'volume'", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ValuesAskedAsAnotherTypeAreRefused()
    {
        using var folder = new TempDirectory();
        TimeSeriesCatalogTests.Write(folder.Path, CatalogWorld.Random(35), Form.Appendable);
        using var catalog = TimeSeriesCatalog.Open(folder.Path, FileAccess.Read);
        using CatalogSlices slices = catalog.Slices(DateTime.MinValue, DateTime.MaxValue, columns: ["id"]);
        Assert.True(slices.MoveNext());

        ListMmfDataTypeException refused = Assert.Throws<ListMmfDataTypeException>(() => slices.Values<double>(0).Length);

        Assert.Contains("column 'id' holds Int64", refused.Message);
    }
}
