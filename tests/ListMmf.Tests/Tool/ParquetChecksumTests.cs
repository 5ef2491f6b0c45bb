using System;
using System.Globalization;
using System.IO;
using System.Text;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// Parquet pages carry a CRC-32 when the tool writes them, and the import checks every CRC a page carries: one
/// flipped byte in a page is refused, never imported as a wrong price or time.
/// </summary>
public sealed class ParquetChecksumTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public ParquetChecksumTests()
    {
        var text = new StringBuilder("time,price\n");
        for (int i = 0; i < 3000; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{1704187800 + i},{4500 + ((i % 100) * 0.25)}\n");
        }

        string csv = _directory.File("ticks.csv");
        File.WriteAllText(csv, text.ToString());
        Assert.Equal(0, ToolRunner.Run("import", "csv", csv, "--out", _directory.File("table"), "--time", "time", "--column", "price:double").ExitCode);
        Assert.Equal(0, ToolRunner.Run("export", "parquet", _directory.File("table"), "--out", Parquet, "--compression", "none").ExitCode);
    }

    private string Parquet => _directory.File("ticks.parquet");

    public void Dispose() => _directory.Dispose();

    /// <summary>A column chunk's page offsets and size in row group 0, as DuckDB reads them from the footer.</summary>
    private (long Data, long? Dictionary, long Size) Chunk(int column)
    {
        using var duck = new DuckDb();
        string[] row = duck.Row($"SELECT data_page_offset, dictionary_page_offset, total_compressed_size FROM " +
            $"parquet_metadata({DuckDb.Quote(Parquet)}) WHERE row_group_id = 0 AND column_id = {column}");
        long? dictionary = long.TryParse(row[1], CultureInfo.InvariantCulture, out long at) && at > 0 ? at : null;
        return (long.Parse(row[0], CultureInfo.InvariantCulture), dictionary, long.Parse(row[2], CultureInfo.InvariantCulture));
    }

    [Fact]
    public void AnUndamagedExportImports()
    {
        Assert.NotNull(Chunk(1).Dictionary);
        Assert.Equal(0, ToolRunner.Run("import", "parquet", Parquet, "--out", _directory.File("back")).ExitCode);
    }

    [Theory]
    [InlineData(0, false)]
    [InlineData(1, false)]
    [InlineData(1, true)]
    public void AFlippedByteInAPageIsRefusedAndNothingIsImported(int column, bool dictionaryPage)
    {
        // The last byte before the data page is the dictionary page's last value; a chunk's last byte is its last
        // data page's last value (the file is written uncompressed, so these are the values' own bytes).
        (long data, long? dictionary, long size) = Chunk(column);
        long offset = dictionaryPage ? data - 1 : (dictionary ?? data) + size - 1;

        using (var file = new FileStream(Parquet, FileMode.Open, FileAccess.ReadWrite))
        {
            file.Position = offset;
            int value = file.ReadByte();
            file.Position = offset;
            file.WriteByte((byte)(value ^ 0x10));
        }

        ToolResult result = ToolRunner.Run("import", "parquet", Parquet, "--out", _directory.File("back"));

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.Contains("damaged", result.Error);
        Assert.Contains("Nothing was imported", result.Error);
        Assert.False(Directory.Exists(_directory.File("back")), "a table was made of a damaged file");
    }
}
