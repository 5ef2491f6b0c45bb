using System;
using System.IO;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;
using ListMmf.Benchmarks.Core;
using ListMmf.Tool.Csv;

namespace ListMmf.Benchmarks.Csv;

/// <summary>
/// <c>listmmf import csv</c> of a generated 3-column tick CSV (10,000,000 rows, about 230 MB, in the page cache) into
/// a new table, beside a plain read of the same file (1 MiB reads, counting the lines: the floor of any import) and
/// the CSV readers it could be built on (CsvHelper 34, its reader today; Sylvan.Data.Csv) finding the same three fields
/// and parsing them with the same parsers, without storing them, and DuckDB's read_csv loading the file into a table.
/// rows/s = 10,000,000 / time. One operation per iteration: each import needs a new table.
/// </summary>
[SimpleJob(RunStrategy.Monitoring, launchCount: 1, warmupCount: 1, iterationCount: 7)]
[MedianColumn]
public class CsvImportBenchmarks
{
    private string _csv = "";
    private string _table = "";

    [Params(10_000_000)]
    public int Rows { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _csv = BenchmarkFiles.Fresh("ticks") + ".csv";
        TickCsv.Write(_csv, Rows);
        _table = BenchmarkFiles.FreshDirectory("csv-import");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        File.Delete(_csv);
        BenchmarkFiles.DeleteDirectory(_table);
    }

    [IterationSetup(Target = nameof(ImportIntoNewTable))]
    public void RemoveTable() => BenchmarkFiles.DeleteDirectory(_table);

    [Benchmark(Baseline = true)]
    public long PlainRead()
    {
        using var file = new FileStream(_csv, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan);
        var buffer = new byte[1 << 20];
        long lines = 0;
        int read;
        while ((read = file.Read(buffer)) > 0)
        {
            lines += buffer.AsSpan(0, read).Count((byte)'\n');
        }

        return lines;
    }

    [Benchmark]
    public long ImportIntoNewTable() => CsvImporter.Run(new ImportRequest(
        _csv, _table, "time", TimeFormat.Unix, [("price", "double"), ("size", "int")], TicksTime: false, TimeSeriesOrder.AscendingOrEqual));

    [Benchmark]
    public long CsvHelperParseOnly() => CsvParsers.CsvHelper(_csv);

    [Benchmark]
    public long SylvanParseOnly() => CsvParsers.Sylvan(_csv);

    [Benchmark]
    public long DuckDbReadCsv() => CsvParsers.DuckDbReadCsv(_csv, Environment.ProcessorCount);
}
