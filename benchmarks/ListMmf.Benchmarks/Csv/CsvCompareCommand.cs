using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using ListMmf.Benchmarks.Core;
using ListMmf.Tool.Csv;

namespace ListMmf.Benchmarks.Csv;

/// <summary>
/// <c>csv-compare [--rows N] [--rounds R]</c>: <c>listmmf import csv</c> of the generated tick CSV beside the CSV readers
/// it could be built on (parse only) and DuckDB's read_csv of the same file, in interleaved rounds in random order
/// (the file in the page cache); prints the median of each, rows/s and the ratio to the import, as a Markdown table.
/// </summary>
internal static class CsvCompareCommand
{
    public static int Run(long rows, int rounds)
    {
        string csv = BenchmarkFiles.Fresh("compare") + ".csv";
        string table = BenchmarkFiles.FreshDirectory("compare-table");
        try
        {
            Console.Error.WriteLine($"writing {rows:N0} rows to {csv}");
            TickCsv.Write(csv, rows);
            var contenders = new (string Name, Func<long> Run)[]
            {
                ("listmmf import csv (all cores, into a table)", () =>
                {
                    BenchmarkFiles.DeleteDirectory(table);
                    return CsvImporter.Run(new ImportRequest(csv, table, "time", TimeFormat.Unix, [("price", "double"), ("size", "int")], TicksTime: false, TimeSeriesOrder.AscendingOrEqual));
                }),
                ("CsvHelper 34, parse only", () => CsvParsers.CsvHelper(csv)),
                ("Sylvan.Data.Csv 1.4.4, parse only", () => CsvParsers.Sylvan(csv)),
                ($"DuckDB read_csv, {Environment.ProcessorCount} threads (into an in-memory table)", () => CsvParsers.DuckDbReadCsv(csv, Environment.ProcessorCount)),
                ("DuckDB read_csv, 1 thread", () => CsvParsers.DuckDbReadCsv(csv, 1)),
            };
            var seconds = contenders.Select(_ => new List<double>()).ToArray();
            var order = new Random(11);
            int[] sequence = Enumerable.Range(0, contenders.Length).ToArray();
            for (int round = 0; round <= rounds; round++)
            {
                order.Shuffle(sequence);
                foreach (int c in sequence)
                {
                    long start = Stopwatch.GetTimestamp();
                    contenders[c].Run();
                    double elapsed = Stopwatch.GetElapsedTime(start).TotalSeconds;

                    // Round 0 warms the page cache, the JIT and DuckDB's library; it is not counted.
                    if (round > 0)
                    {
                        seconds[c].Add(elapsed);
                    }
                }

                Console.Error.WriteLine($"round {round} of {rounds} done");
            }

            double import = Medians.Of(seconds[0]);
            Console.WriteLine($"CSV load of {rows:N0} tick rows ({new FileInfo(csv).Length / 1e6:N0} MB, page cache warm): median of {rounds} interleaved rounds in random order.");
            Console.WriteLine($"{RuntimeInformation.OSDescription}, {RuntimeInformation.ProcessArchitecture}, {Environment.ProcessorCount} cores, .NET {Environment.Version}");
            Console.WriteLine();
            Console.WriteLine("| load | median | rows/s | time / import's |");
            Console.WriteLine("|---|---|---|---|");
            for (int c = 0; c < contenders.Length; c++)
            {
                double median = Medians.Of(seconds[c]);
                Console.WriteLine($"| {contenders[c].Name} | {median:N2} s | {rows / median / 1e6:N1} M | {median / import:N2} |");
            }

            return 0;
        }
        finally
        {
            File.Delete(csv);
            BenchmarkFiles.DeleteDirectory(table);
        }
    }
}
