using System;
using System.IO;
using System.IO.Hashing;
using System.Linq;
using System.Runtime.InteropServices;
using Apache.Arrow;
using ListMmf.Arrow;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// The read contract (<see cref="IReadOnlyListMmf{T}"/>) asked the same of every form over the same values: an
/// appendable list, a sealed list, and a table's column appendable and sealed. Each answer is checked against the
/// values written.
/// </summary>
public sealed class ReadOnlyListContractTests : IDisposable
{
    /// <summary>Many sealed blocks and a partial last one, and more than one range of the hash's reads.</summary>
    private const int Items = 70_000;

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string> Forms => new() { "list", "sealed list", "table column", "sealed table column" };

    /// <summary>A walk of prices in quarter steps, which the sealed form stores in a codec of its own, not plain.</summary>
    private static double[] Values()
    {
        var random = new Random(17);
        double price = 4_500;
        return Enumerable.Range(0, Items).Select(_ => price += random.Next(-3, 4) * 0.25).ToArray();
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void CountAndEveryItemAreTheValuesWritten(string form)
    {
        double[] values = Values();
        using Opened opened = Open(form, values);

        Assert.Equal(Items, opened.Items.Count);
        Assert.Equal(form.StartsWith("sealed", StringComparison.Ordinal), opened.Items.IsSealed);
        for (int i = 0; i < Items; i++)
        {
            Assert.Equal(values[i], opened.Items[i]);
        }
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void AnIndexOutsideTheItemsIsRefused(string form)
    {
        using Opened opened = Open(form, Values());

        Assert.Throws<ArgumentOutOfRangeException>(() => opened.Items[-1]);
        Assert.Throws<ArgumentOutOfRangeException>(() => opened.Items[Items]);
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void RangesCopyAndReadTheirValues(string form)
    {
        double[] values = Values();
        using Opened opened = Open(form, values);

        foreach (IndexRange range in Ranges())
        {
            double[] copied = new double[range.Length];
            opened.Items.CopyTo(range, copied);
            Assert.Equal(values[(int)range.Start..(int)range.End], copied);

            double[] buffer = new double[range.Length];
            Assert.Equal(values[(int)range.Start..(int)range.End], opened.Items.Read(range, buffer).ToArray());
        }
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void RangesOutsideTheItemsAreRefused(string form)
    {
        using Opened opened = Open(form, Values());
        double[] buffer = new double[16];

        Assert.Throws<ArgumentOutOfRangeException>(() => opened.Items.CopyTo(new IndexRange(Items - 8, Items + 8), buffer));
        Assert.Throws<ArgumentOutOfRangeException>(() => opened.Items.Read(new IndexRange(Items - 8, Items + 8), buffer));
        Assert.Throws<ArgumentOutOfRangeException>(() => opened.Items.TryGetMemory(new IndexRange(Items - 8, Items + 8), out _));
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void AGatherReadsTheItemsAtAscendingAndRandomIndices(string form)
    {
        double[] values = Values();
        using Opened opened = Open(form, values);
        var random = new Random(23);
        long[] ascending = Enumerable.Range(0, 20_000).Select(_ => (long)random.Next(-1, Items)).Order().ToArray();
        long[] shuffled = ascending.OrderBy(_ => random.Next()).ToArray();

        foreach (long[] indices in new[] { ascending, shuffled, [Items - 1, 0, -1, Items - 1] })
        {
            double[] gathered = new double[indices.Length];
            opened.Items.Gather(indices, gathered, missing: double.NaN);
            Assert.Equal(indices.Select(index => index == -1 ? double.NaN : values[index]), gathered);
        }
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void AGatherRefusesAnIndexOutsideTheItems(string form)
    {
        using Opened opened = Open(form, Values());
        double[] gathered = new double[2];

        Assert.Throws<ArgumentOutOfRangeException>(() => opened.Items.Gather([0, Items], gathered));
        Assert.Throws<ArgumentOutOfRangeException>(() => opened.Items.Gather([-2], gathered));
        Assert.Throws<ArgumentException>(() => opened.Items.Gather([0, 1, 2], gathered));
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void ADestinationShorterThanTheRangeIsRefused(string form)
    {
        using Opened opened = Open(form, Values());

        Assert.Throws<ArgumentException>(() => opened.Items.CopyTo(new IndexRange(0, 100), new double[99]));
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void MemoryIsGivenExactlyWhereTheFormHasASpan(string form)
    {
        double[] values = Values();
        using Opened opened = Open(form, values);
        var range = new IndexRange(1_000, 3_100);

        bool given = opened.Items.TryGetMemory(range, out ReadOnlyMemory<double> memory);

        Assert.Equal(!opened.Items.IsSealed, given);
        Assert.Equal(given ? values[1_000..3_100] : [], memory.ToArray());
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void AFormWithASpanReadsWithoutTheBuffer(string form)
    {
        double[] values = Values();
        using Opened opened = Open(form, values);
        if (opened.Items.IsSealed)
        {
            Assert.Throws<ArgumentException>(() => opened.Items.Read(new IndexRange(0, 10), Span<double>.Empty));
        }
        else
        {
            Assert.Equal(values[..10], opened.Items.Read(new IndexRange(0, 10), Span<double>.Empty).ToArray());
        }
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void TheHashIsXxh3OfTheValuesBytesInEveryForm(string form)
    {
        double[] values = Values();
        using Opened opened = Open(form, values);

        Assert.Equal(XxHash3.HashToUInt64(MemoryMarshal.AsBytes(values.AsSpan())), opened.Items.ComputeXxHash3());
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void EnumerationGivesTheValuesInOrder(string form)
    {
        double[] values = Values();
        using Opened opened = Open(form, values);

        Assert.Equal(values, opened.Items.ToArray());
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void AHealthyFileVerifiesAndReportsItsProgressToTheEnd(string form)
    {
        using Opened opened = Open(form, Values());
        var fractions = new System.Collections.Generic.List<double>();

        opened.Items.Verify(new SynchronousProgress(fractions.Add));

        Assert.Equal(1.0, fractions[^1]);
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void AnArrowArrayOfARangeHoldsItsValues(string form)
    {
        double[] values = Values();
        using Opened opened = Open(form, values);

        var array = Assert.IsType<DoubleArray>(opened.Items.ToArrowArray(new IndexRange(1_000, 3_100)));

        Assert.Equal(values[1_000..3_100], array.Values.ToArray());
    }

    [Fact]
    public void ATableColumnCountsOnlyThePublishedRows()
    {
        double[] values = Values();
        using Opened opened = Open("table column", values);
        TableColumn<double> column = opened.Table!.Column<double>("price");

        column.Add(1.5);

        Assert.Equal(Items, column.Count);
        Assert.Equal(Items, column.ToArray().Length);
        Assert.Equal(XxHash3.HashToUInt64(MemoryMarshal.AsBytes(values.AsSpan())), column.ComputeXxHash3());
        Assert.Throws<ArgumentOutOfRangeException>(() => column[Items]);
    }

    [Fact]
    public void AColumnOfAUtcTableSaysItsTimesAreUtcAndItsNumbersAreNot()
    {
        string folder = _directory.File("utc");
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.Ascending) { TimesAreUtc = true }
            .Add<double>("price")
            .Add("expiry", DataType.DateTime);
        using TimeSeriesTable table = TimeSeriesTable.Create(folder, schema);

        Assert.True(table.Column<long>("time").TimesAreUtc);
        Assert.True(table.Column<long>("expiry").TimesAreUtc);
        Assert.False(table.Column<double>("price").TimesAreUtc);
    }

    /// <summary>Ranges within a block, across blocks, the whole, the last partial block and an empty one.</summary>
    private static IndexRange[] Ranges() =>
    [
        new(0, 10), new(1_020, 1_030), new(1_000, 3_100), new(0, Items), new(69_632, Items), new(Items, Items), new(700, 700),
    ];

    private Opened Open(string form, double[] values)
    {
        switch (form)
        {
            case "list":
            case "sealed list":
                string path = _directory.File("prices.mmf");
                using (var list = new ListMmf<double>(path))
                {
                    list.AddRange(values);
                }

                if (form == "sealed list")
                {
                    Assert.True(SealedListMmf.Seal(path));
                    var sealedList = new SealedListMmf<double>(path);
                    return new Opened(sealedList, sealedList, null);
                }

                var reader = new ListMmf<double>(path, FileAccess.Read);
                return new Opened(reader, reader, null);
            default:
                string folder = _directory.File("ticks");
                var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual).Add<double>("price");
                using (TimeSeriesTable writer = TimeSeriesTable.Create(folder, schema))
                {
                    writer.Column<double>("price").AddRange(values);
                    writer.AddRows(Enumerable.Range(0, values.Length).Select(i => new DateTime(2024, 1, 2, 9, 30, 0).AddSeconds(i / 4)).ToArray());
                }

                if (form == "sealed table column")
                {
                    TimeSeriesTable.Seal(folder);
                    var sealedTable = TimeSeriesTable.Open(folder, FileAccess.Read);
                    return new Opened(sealedTable.Column<double>("price"), sealedTable, sealedTable);
                }

                // The writer's table: its column is read as a reader's is, bounded by the published rows.
                var table = TimeSeriesTable.Open(folder, FileAccess.ReadWrite);
                return new Opened(table.Column<double>("price"), table, table);
        }
    }

    /// <summary>The form under test, and what owns its file.</summary>
    private sealed record Opened(IReadOnlyListMmf<double> Items, IDisposable Owner, TimeSeriesTable? Table) : IDisposable
    {
        public void Dispose() => Owner.Dispose();
    }
}
