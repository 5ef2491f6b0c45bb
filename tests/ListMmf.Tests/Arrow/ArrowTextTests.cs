using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Apache.Arrow;
using Apache.Arrow.Ipc;
using Apache.Arrow.Types;
using ListMmf.Arrow;
using Xunit;

namespace ListMmf.Tests.Arrow;

/// <summary>A table's text column in Arrow: a dictionary array of Int32 indices over its distinct values, in a batch and in an IPC file.</summary>
public sealed class ArrowTextTests : IDisposable
{
    private static readonly string[] Exchanges = ["Q", "N", "", "Ü-exchange", "N", "P"];
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Folder => _directory.File("trades");

    private string[] Rows { get; } = [.. Enumerable.Range(0, 2500).Select(row => Exchanges[(row * 7) % Exchanges.Length])];

    private void CreateTable()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime).AddText("exchange", DataType.Byte).Add<double>("price");
        using TimeSeriesTable table = TimeSeriesTable.Create(Folder, schema);
        table.Text("exchange").AddRange(Rows);
        table.Column<double>("price").AddRange([.. Rows.Select((_, row) => (double)row)]);
        table.AddRows([.. Rows.Select((_, row) => new DateTime(2024, 1, 2).AddSeconds(row))]);
    }

    private static IEnumerable<string> Values(DictionaryArray array)
    {
        var indices = (Int32Array)array.Indices;
        var values = (StringArray)array.Dictionary;
        return Enumerable.Range(0, array.Length).Select(i => values.GetString(indices.GetValue(i)!.Value));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ATextColumnIsADictionaryArrayOfItsValues(bool seal)
    {
        CreateTable();
        if (seal)
        {
            TimeSeriesTable.Seal(Folder);
        }

        using TimeSeriesTable table = TimeSeriesTable.Open(Folder, FileAccess.Read);
        using RecordBatch batch = table.ToRecordBatch(new IndexRange(100, 600));

        var exchange = (DictionaryArray)batch.Column("exchange");
        Assert.Equal(ArrowTypeId.Dictionary, batch.Schema.GetFieldByName("exchange").DataType.TypeId);
        Assert.Equal(Rows[100..600], Values(exchange));
        Assert.Equal(Rows.Distinct(), Enumerable.Range(0, exchange.Dictionary.Length).Select(i => ((StringArray)exchange.Dictionary).GetString(i)));
    }

    [Fact]
    public async Task AnArrowFileOfManyBatchesHoldsEveryRowsValue()
    {
        CreateTable();
        string path = _directory.File("trades.arrow");
        using (TimeSeriesTable table = TimeSeriesTable.Open(Folder, FileAccess.Read))
        {
            table.WriteArrowFile(path, rowsPerBatch: 1000);
        }

        using var reader = ArrowFileReader.FromFile(path);
        var read = new List<string>();
        while (await reader.ReadNextRecordBatchAsync() is { } batch)
        {
            using (batch)
            {
                read.AddRange(Values((DictionaryArray)batch.Column("exchange")));
            }
        }

        Assert.Equal(Rows, read);
    }

    [Fact]
    public async Task AnArrowFileOfATextTableWithNoRowHasItsSchema()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime).AddText("exchange");
        string path = _directory.File("empty.arrow");
        using (TimeSeriesTable table = TimeSeriesTable.Create(Folder, schema))
        {
            table.WriteArrowFile(path);
        }

        using var reader = ArrowFileReader.FromFile(path);
        Assert.Equal(ArrowTypeId.Dictionary, reader.Schema.GetFieldByName("exchange").DataType.TypeId);
        Assert.Equal(0, await reader.RecordBatchCountAsync());
    }
}
