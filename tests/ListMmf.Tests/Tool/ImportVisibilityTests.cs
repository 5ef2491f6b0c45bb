using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.IO.Compression;
using System.Text;
using ListMmf.Tool;
using ListMmf.Tool.Csv;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// A reader of a table sees all of an import or none of it: while rows are imported into a table it reads, its row
/// count stays what it was until the import completes, and an import that fails leaves nothing a reader ever saw.
/// </summary>
public sealed class ImportVisibilityTests : IDisposable
{
    private const int Existing = 10;
    private const int Imported = 300_000;
    private readonly TempDirectory _directory = new();

    public ImportVisibilityTests()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.Ascending).Add<double>("price").Add<int>("size");
        using TimeSeriesTable table = TimeSeriesTable.Create(Table, schema);
        for (int row = 0; row < Existing; row++)
        {
            table.Column<double>("price").Add(row);
            table.Column<int>("size").Add(row);
            table.AddRow(DateTime.UnixEpoch.AddSeconds(1_700_000_000 + row));
        }
    }

    public void Dispose() => _directory.Dispose();

    private string Table => _directory.File("table");

    /// <summary>
    /// Imports <see cref="Imported"/> rows (and a last row that is refused when <paramref name="failAtTheEnd"/>),
    /// reading the table's row count in another reader at every progress report; returns the counts seen and the
    /// refusal, if any.
    /// </summary>
    private (List<long> Seen, DataException? Refused) Import(bool gzip, bool failAtTheEnd)
    {
        var text = new StringBuilder("time,price,size\n");
        for (int row = 0; row < Imported; row++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{1_700_001_000 + row},{row * 0.25},{row % 100}\n");
        }

        text.Append(failAtTheEnd ? "1700000000,1,1\n" : "");
        string csv = _directory.File("rows.csv");
        byte[] bytes = Encoding.UTF8.GetBytes(text.ToString());
        using (FileStream file = File.Create(csv))
        using (Stream output = gzip ? new GZipStream(file, CompressionLevel.Fastest) : file)
        {
            output.Write(bytes);
        }

        var seen = new List<long>();
        using var reader = TimeSeriesTable.Open(Table, FileAccess.Read);
        var request = new ImportRequest(csv, Table, "time", null, [("price", "double"), ("size", "int")], TicksTime: null, Order: null);
        try
        {
            CsvImporter.Run(request, (_, _) => seen.Add(reader.RowCount), chunkBytes: 1 << 16);
            seen.Add(reader.RowCount);
            return (seen, null);
        }
        catch (DataException refused)
        {
            seen.Add(reader.RowCount);
            return (seen, refused);
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void AReaderSeesNoRowOfAnImportThatFails(bool gzip)
    {
        (List<long> seen, DataException? refused) = Import(gzip, failAtTheEnd: true);

        Assert.NotNull(refused);
        Assert.True(seen.Count > 2, $"only {seen.Count} progress reports: the import was not watched while it ran");
        Assert.All(seen, rows => Assert.Equal(Existing, rows));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void AReaderSeesAnImportWholeOnceItCompletes(bool gzip)
    {
        (List<long> seen, DataException? refused) = Import(gzip, failAtTheEnd: false);

        Assert.Null(refused);
        Assert.All(seen, rows => Assert.True(rows is Existing or Existing + Imported, $"a reader saw {rows:N0} rows"));
        Assert.True(seen.FindAll(rows => rows == Existing).Count > 2, "the import was not watched while it ran");
        Assert.Equal(Existing + Imported, seen[^1]);
    }
}
