using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Tool.Files;

namespace ListMmf.Tool.Commands;

/// <summary>Prints rows of a <see cref="Source"/> as aligned columns: the row index, then every column.</summary>
internal static class RowPrinter
{
    public static void Print(TextWriter output, Source source, long start, long end, Func<long, string>? marker = null)
    {
        var header = new List<string> { "row" };
        header.AddRange(source.Columns.Select(column => column.Name));
        var lines = new List<string[]> { header.ToArray() };
        for (long row = start; row < end; row++)
        {
            var cells = new string[header.Count];
            cells[0] = row.ToString("N0", System.Globalization.CultureInfo.InvariantCulture);
            for (int i = 0; i < source.Columns.Count; i++)
            {
                cells[i + 1] = source.Columns[i].Format(row);
            }

            lines.Add(cells);
        }

        int[] widths = Enumerable.Range(0, header.Count).Select(i => lines.Max(line => line[i].Length)).ToArray();
        for (int l = 0; l < lines.Count; l++)
        {
            string prefix = marker is null ? "" : l == 0 ? "    " : marker(start + l - 1) + " ";
            output.WriteLine(prefix + string.Join(
                "  ",
                lines[l].Select((cell, i) => i == 0 ? cell.PadLeft(widths[i]) : cell.PadRight(widths[i]))).TrimEnd());
        }
    }
}
