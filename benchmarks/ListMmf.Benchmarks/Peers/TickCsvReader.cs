using System.Collections.Generic;
using System.Globalization;
using System.IO;

namespace ListMmf.Benchmarks.Peers;

/// <summary>The generated tick CSV's rows, read with CsvHelper (the reader of <c>listmmf import csv</c>) for the stores that load rows one by one.</summary>
internal static class TickCsvReader
{
    public static IEnumerable<TickRow> Read(string csv)
    {
        using var reader = CsvHelper.CsvReader.Create(File.OpenRead(csv), new CsvHelper.CsvReaderOptions(), leaveOpen: false);
        while (reader.Read())
        {
            yield return new TickRow(
                int.Parse(reader.GetSpan(0), CultureInfo.InvariantCulture),
                double.Parse(reader.GetSpan(1), NumberStyles.Float, CultureInfo.InvariantCulture),
                int.Parse(reader.GetSpan(2), CultureInfo.InvariantCulture));
        }
    }
}
