using System;
using System.Buffers.Binary;
using System.IO;
using System.Linq;
using System.Text;
using ParquetSharp;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// The tool is as strict as the library with what another user may have written (issue 63): a struct file whose count
/// overflows its item bytes, CSV lines and fields of megabytes, and a Parquet footer claiming rows its pages lack.
/// </summary>
public sealed class HostileToolInputTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>
    /// A version 1 struct file counting 2^62 items of 192 bytes: the product wrapped (to 0 bytes), so verify said OK
    /// and export wrote zeros without end before.
    /// </summary>
    [Fact]
    public void AStructFileWhoseCountOverflowsItsBytesIsRefused()
    {
        string path = _directory.File("quotes.bt");
        using (var list = new ListMmf<Quote192>(path, FileAccess.ReadWrite, ListMmfOptions.Default with { FormatVersion = ListMmfFormatVersion.Version1 }))
        {
            list.Add(default);
        }

        using (FileStream file = File.OpenWrite(path))
        {
            Span<byte> count = stackalloc byte[sizeof(long)];
            BinaryPrimitives.WriteInt64LittleEndian(count, 1L << 62);
            file.Position = 8;
            file.Write(count);
        }

        ToolResult verify = ToolRunner.Run("verify", path);
        ToolResult head = ToolRunner.Run("head", path, "-n", "2");

        Assert.NotEqual(0, verify.ExitCode);
        Assert.Equal(1, head.ExitCode);
        Assert.Contains("the file is damaged", head.Error, StringComparison.Ordinal);
    }

    /// <summary>
    /// A line of 80 MB: refused before it is read whole (a 400 MB field took 5.3 GB before, most of it the message
    /// that quoted it).
    /// </summary>
    [Fact]
    public void ALineLongerThanAnyRowIsRefusedBeforeItIsRead()
    {
        string csv = WriteCsvWithAnEightyMegabyteLine(quoted: false);

        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", _directory.File("table"), "--time", "time", "--column", "price:double");

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("longer than 64 MiB", import.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(_directory.File("table")));
    }

    /// <summary>
    /// The same line in a file with a quote, which CsvHelper reads on one thread: refused at the same cap, not read
    /// into memory whole.
    /// </summary>
    [Fact]
    public void ALineLongerThanAnyRowIsRefusedByTheOneThreadReaderToo()
    {
        string csv = WriteCsvWithAnEightyMegabyteLine(quoted: true);

        long before = GC.GetAllocatedBytesForCurrentThread();
        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", _directory.File("table"), "--time", "time", "--column", "price:double");
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("longer than 64 MiB", import.Error, StringComparison.Ordinal);
        Assert.True(allocated < 512L << 20, $"the refusal allocated {allocated:N0} bytes");
        Assert.False(Directory.Exists(_directory.File("table")));
    }

    /// <summary>
    /// A footer claiming 2^28 rows for a row group whose pages hold 1,000: refused where the pages end, having read a
    /// slice at a time (before, the import allocated an array of every claimed row per column, 2 GiB each, first).
    /// </summary>
    [Fact]
    public void AParquetFooterClaimingRowsItsPagesLackIsRefusedWithoutAllocatingThem()
    {
        const long Claimed = 1L << 28;
        string parquet = _directory.File("ticks.parquet");
        WriteParquet(parquet, rows: 1000);
        ClaimRows(parquet, from: 1000, to: Claimed);
        using (var reader = new ParquetFileReader(parquet))
        using (RowGroupReader group = reader.RowGroup(0))
        {
            Assert.Equal(Claimed, group.MetaData.NumRows);
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        ToolResult import = ToolRunner.Run("import", "parquet", parquet, "--out", _directory.File("table"));
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("ends before the rows its row group's footer counts", import.Error, StringComparison.Ordinal);
        Assert.True(allocated < 64L << 20, $"the refusal allocated {allocated:N0} bytes");
        Assert.False(Directory.Exists(_directory.File("table")));
    }

    /// <summary>
    /// A CSV whose third line is a field of 80 MB; <paramref name="quoted"/>, its first row's time quoted, which sends
    /// the rest of the file to the one-thread reader.
    /// </summary>
    private string WriteCsvWithAnEightyMegabyteLine(bool quoted)
    {
        string csv = _directory.File("ticks.csv");
        using var writer = new StreamWriter(csv, append: false, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        writer.Write(quoted ? "time,price\n\"1704187800\",4500.25\n1704187801," : "time,price\n1704187800,4500.25\n1704187801,");
        writer.Write(new string('9', 80_000_000));
        writer.Write("\n1704187802,4500.5\n");
        return csv;
    }

    private static void WriteParquet(string path, int rows)
    {
        var columns = new Column[] { new Column<DateTime>("time"), new Column<double>("price") };
        using WriterProperties properties = new WriterPropertiesBuilder().DisableDictionary().DisableStatistics().Compression(Compression.Uncompressed).Build();
        using var writer = new ParquetFileWriter(path, columns, properties);
        using RowGroupWriter group = writer.AppendRowGroup();
        using (LogicalColumnWriter<DateTime> times = group.NextColumn().LogicalWriter<DateTime>())
        {
            times.WriteBatch(Enumerable.Range(0, rows).Select(i => new DateTime(2024, 1, 2).AddSeconds(i)).ToArray());
        }

        using (LogicalColumnWriter<double> prices = group.NextColumn().LogicalWriter<double>())
        {
            prices.WriteBatch(Enumerable.Range(0, rows).Select(i => 4500 + (i * 0.25)).ToArray());
        }

        writer.Close();
    }

    /// <summary>
    /// Rewrites every count of <paramref name="from"/> rows or values in the footer (Thrift compact: an i64 field's
    /// header byte, type 6, then the zigzag varint) as <paramref name="to"/>, and the footer's length with it.
    /// </summary>
    private static void ClaimRows(string path, long from, long to)
    {
        byte[] file = File.ReadAllBytes(path);
        int footerLength = BinaryPrimitives.ReadInt32LittleEndian(file.AsSpan(file.Length - 8));
        int footerStart = file.Length - 8 - footerLength;
        byte[] old = Varint((ulong)from << 1);
        byte[] claimed = Varint((ulong)to << 1);
        var footer = new MemoryStream();
        int replaced = 0;
        for (int i = footerStart; i < file.Length - 8; i++)
        {
            if ((file[i] & 0x0F) == 6 && file.AsSpan(i + 1).StartsWith(old))
            {
                footer.WriteByte(file[i]);
                footer.Write(claimed);
                i += old.Length;
                replaced++;
                continue;
            }

            footer.WriteByte(file[i]);
        }

        Assert.True(replaced >= 2, $"the footer holds {replaced} counts of {from} rows");
        using FileStream output = File.Create(path);
        output.Write(file.AsSpan(0, footerStart));
        output.Write(footer.ToArray());
        Span<byte> tail = stackalloc byte[8];
        BinaryPrimitives.WriteInt32LittleEndian(tail, (int)footer.Length);
        "PAR1"u8.CopyTo(tail[4..]);
        output.Write(tail);
    }

    private static byte[] Varint(ulong value)
    {
        var bytes = new MemoryStream();
        for (; value >= 0x80; value >>= 7)
        {
            bytes.WriteByte((byte)(value | 0x80));
        }

        bytes.WriteByte((byte)value);
        return bytes.ToArray();
    }

    /// <summary>A field of a megabyte that is not a number: the refusal quotes its start and says its length, not all of it.</summary>
    [Fact]
    public void ARefusalQuotesAtMostTheStartOfAHugeField()
    {
        string csv = _directory.File("ticks.csv");
        File.WriteAllText(csv, $"time,price\n1704187800,{new string('x', 1_000_000)}\n", new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));

        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", _directory.File("table"), "--time", "time", "--column", "price:double");

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("(1,000,000 bytes)", import.Error, StringComparison.Ordinal);
        Assert.True(import.Error.Length < 1_000, $"the message is {import.Error.Length:N0} characters long");
    }
}
