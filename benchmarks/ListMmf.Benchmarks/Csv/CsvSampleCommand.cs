using System;

namespace ListMmf.Benchmarks.Csv;

/// <summary><c>csv-sample --rows N --out FILE</c>: writes the generated tick CSV that the import benchmark and CI's round trip use.</summary>
internal static class CsvSampleCommand
{
    public static int Run(long rows, string path)
    {
        TickCsv.Write(path, rows);
        Console.WriteLine($"wrote {rows:N0} rows to '{path}'; import it with: listmmf import csv {path} --out DIR {TickCsv.ImportArguments}");
        return 0;
    }
}
