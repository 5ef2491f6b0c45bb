using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Text;
using ListMmf.Tool;
using ListMmf.Tool.Csv;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// The CSV import on every core, cut into chunks of a few lines: whatever it is given, it keeps the rows and refuses
/// the row that the one-thread reader (CsvHelper, which reads gzip files) keeps and refuses, with the same words.
/// </summary>
public sealed class ParallelCsvImportTests : IDisposable
{
    /// <summary>A few lines a chunk, so that every file is cut into many.</summary>
    private const int ChunkBytes = 96;
    private const int FirstTime = 1704187800;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>Rows of 'time,price,size', one a second from <see cref="FirstTime"/>.</summary>
    private static List<string> Lines(int count) =>
        Enumerable.Range(0, count).Select(i => string.Create(CultureInfo.InvariantCulture, $"{FirstTime + i},{4500 + (i * 0.25)},{(i % 97) + 1}")).ToList();

    private static string Csv(IEnumerable<string> lines, string newLine = "\n") => "time,price,size" + newLine + string.Join(newLine, lines) + newLine;

    public static TheoryData<string> RefusedRows()
    {
        var data = new TheoryData<string>();
        foreach (int row in new[] { 0, 1, 5, 9, 10, 11, 17, 33, 59 })
        {
            List<string> badPrice = Lines(60);
            badPrice[row] = $"{FirstTime + row},4500.x,3";
            data.Add(Csv(badPrice));

            List<string> shortRow = Lines(60);
            shortRow[row] = $"{FirstTime + row},4500";
            data.Add(Csv(shortRow));

            if (row > 0)
            {
                List<string> early = Lines(60);
                early[row] = $"{FirstTime - 100},4500,3";
                data.Add(Csv(early));
            }
        }

        List<string> twoFaults = Lines(60);
        twoFaults[40] = $"{FirstTime + 40},x,3";
        twoFaults[12] = $"{FirstTime - 5},4500,3";
        data.Add(Csv(twoFaults));

        List<string> timeAndValue = Lines(60);
        timeAndValue[25] = $"{FirstTime},x,3";
        data.Add(Csv(timeAndValue));

        List<string> badTime = Lines(60);
        badTime[31] = "17041878xx,4500,3";
        data.Add(Csv(badTime));

        List<string> quoted = Lines(60);
        quoted[20] = $"{FirstTime + 20},\"4500\",3";
        quoted[44] = $"{FirstTime + 44},y,3";
        data.Add(Csv(quoted));

        List<string> blank = Lines(60);
        blank.Insert(14, "");
        blank.Insert(30, "");
        blank[50] = $"{FirstTime + 48},z,3";
        data.Add(Csv(blank));

        List<string> crlf = Lines(60);
        crlf[37] = $"{FirstTime + 37},4500,q";
        data.Add(Csv(crlf, "\r\n"));

        List<string> longShort = Lines(60);
        longShort[29] = $"{FirstTime + 29},{new string('9', 90)}";
        data.Add(Csv(longShort));

        List<string> loneReturn = Lines(60);
        loneReturn[22] = $"{FirstTime + 22},4500,3\r{FirstTime + 23},w,3";
        data.Add(Csv(loneReturn));
        return data;
    }

    public static TheoryData<string> KeptFiles() => new()
    {
        Csv(Lines(1_000)),
        Csv(Lines(1_000), "\r\n"),
        Csv(Lines(500).Select((line, i) => i % 7 == 0 ? string.Join(",", line.Split(',').Select(field => $"\"{field}\"")) : line)),
        Csv(Lines(500).SelectMany((line, i) => i % 11 == 0 ? new[] { line, "" } : [line])),
        Csv(Lines(300))[..^1],
        Csv(Lines(1)),
        WithNotes(Lines(400)),
    };

    /// <summary>A fourth field, not imported, of up to 150 bytes: lines that span the 64-byte blocks a plain chunk is read in.</summary>
    private static string WithNotes(List<string> lines) =>
        "time,price,size,note\n" + string.Concat(lines.Select((line, i) => $"{line},{new string((char)('a' + (i % 26)), i * 7 % 151)}\n"));

    [Theory]
    [MemberData(nameof(RefusedRows))]
    public void EveryCoreRefusesTheRowOneThreadRefusesWithTheSameWords(string text)
    {
        string parallel = Refusal(Import(text, gzip: false, "parallel"));
        string oneThread = Refusal(Import(text, gzip: true, "one-thread"));

        Assert.Equal(oneThread.Replace("one-thread", "parallel", StringComparison.Ordinal), parallel);
        Assert.False(Directory.Exists(_directory.File("parallel")), "a refused import left its table behind");
    }

    [Theory]
    [MemberData(nameof(KeptFiles))]
    public void EveryCoreKeepsTheRowsOneThreadKeepsInTheirOrder(string text)
    {
        Assert.Null(Import(text, gzip: true, "one-thread"));
        Assert.Null(Import(text, gzip: false, "parallel"));

        using TimeSeriesTable expected = TimeSeriesTable.Open(_directory.File("one-thread"), FileAccess.Read);
        using TimeSeriesTable actual = TimeSeriesTable.Open(_directory.File("parallel"), FileAccess.Read);
        Assert.True(expected.RowCount > 0);
        Assert.Equal(expected.RowCount, actual.RowCount);
        int rows = (int)expected.RowCount;
        Assert.Equal(expected.Column<double>("price").AsSpan(0, rows).ToArray(), actual.Column<double>("price").AsSpan(0, rows).ToArray());
        Assert.Equal(expected.Column<int>("size").AsSpan(0, rows).ToArray(), actual.Column<int>("size").AsSpan(0, rows).ToArray());
        Assert.Equal(Enumerable.Range(0, rows).Select(i => expected.TimeAt(i)), Enumerable.Range(0, rows).Select(i => actual.TimeAt(i)));
    }

    [Fact]
    public void AnAppendToATableRefusesATimeBeforeItsLastAtTheFirstRow()
    {
        Assert.Null(Import(Csv(Lines(100)), gzip: false, "parallel"));

        string refusal = Refusal(Import(Csv(Lines(100)), gzip: false, "parallel"));

        Assert.Contains("line 2: time '1704187800' (2024-01-02 09:30:00.0000000) is before the previous row's", refusal);
        using TimeSeriesTable table = TimeSeriesTable.Open(_directory.File("parallel"), FileAccess.Read);
        Assert.Equal(100, table.RowCount);
    }

    /// <summary>Imports <paramref name="text"/> into the table folder <paramref name="name"/>; the refusal, or null.</summary>
    private DataException? Import(string text, bool gzip, string name)
    {
        string csv = _directory.File(name + ".csv");
        byte[] bytes = Encoding.UTF8.GetBytes(text);
        if (gzip)
        {
            using var file = File.Create(csv);
            using var zip = new GZipStream(file, CompressionLevel.Fastest);
            zip.Write(bytes);
        }
        else
        {
            File.WriteAllBytes(csv, bytes);
        }

        var request = new ImportRequest(csv, _directory.File(name), "time", null, [("price", "double"), ("size", "int")], TicksTime: false, TimeSeriesOrder.Ascending);
        try
        {
            CsvImporter.Run(request, chunkBytes: ChunkBytes);
            return null;
        }
        catch (DataException refused)
        {
            return refused;
        }
    }

    private static string Refusal(DataException? refused) => refused?.Message ?? "(nothing was refused)";

    [Fact]
    public void TextColumnsImportedOnEveryCoreHoldWhatTheOneThreadReaderImports()
    {
        string[] exchanges = ["Q", "N", "Ü", "", "P", "日本"];
        string text = "time,exchange,size\n" + string.Concat(Enumerable.Range(0, 3000).Select(i =>
            string.Create(CultureInfo.InvariantCulture, $"{FirstTime + i},{exchanges[(i * 7) % exchanges.Length]},{i}\n")));
        string[] read = new string[3000];
        var tables = new List<string[]>();
        foreach (bool gzip in new[] { false, true })
        {
            string name = gzip ? "one-thread" : "parallel";
            string csv = _directory.File(name + ".csv" + (gzip ? ".gz" : ""));
            using (var file = File.Create(csv))
            using (Stream output = gzip ? new GZipStream(file, CompressionLevel.Fastest) : file)
            {
                output.Write(Encoding.UTF8.GetBytes(text));
            }

            var request = new ImportRequest(csv, _directory.File(name), "time", null, [("exchange", "text8"), ("size", "int")],
                TicksTime: false, TimeSeriesOrder.Ascending);
            CsvImporter.Run(request, chunkBytes: ChunkBytes);
            using TimeSeriesTable table = TimeSeriesTable.Open(_directory.File(name), FileAccess.Read);
            table.Text("exchange").CopyTo(new IndexRange(0, table.RowCount), read);
            tables.Add([.. read]);
        }

        Assert.Equal(Enumerable.Range(0, 3000).Select(i => exchanges[(i * 7) % exchanges.Length]), tables[0]);
        Assert.Equal(tables[0], tables[1]);
    }
}
