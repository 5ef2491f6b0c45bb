using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using DuckDB.NET.Data;
using ListMmf.Benchmarks.Data;
using ListMmf.Benchmarks.LowerBound;

namespace ListMmf.Benchmarks.Sealed;

/// <summary>
/// <c>sealed-sizes --lean DIR [--generated ROWS] [--work DIR]</c>: the bytes a row of each column takes sealed, beside
/// the same values in Parquet with zstd (DuckDB's writer, its defaults otherwise) and the vendor's zipped CSV, on real
/// ticks (Lean's trades and quotes) and on generated ones: the measure of issue 65's "real ticks as small as Parquet".
/// Every column holds the same numbers in both: times as timestamps, prices as doubles, the exchange's letter and the
/// condition as integers.
/// </summary>
internal static class SealedSizesCommand
{
    public static int Run(string? lean, int generated, string work)
    {
        var sets = new List<LeanTicks>();
        if (lean is not null)
        {
            sets.AddRange(LeanTicks.Read(lean));
        }

        if (generated > 0)
        {
            sets.Add(LeanTicks.Generated(generated));
        }

        if (sets.Count == 0)
        {
            throw new UsageException("sealed-sizes needs --lean DIR or --generated ROWS");
        }

        Directory.CreateDirectory(work);
        var totals = new Dictionary<string, (long Rows, long Raw, long Sealed, long Parquet, long Zipped)>(StringComparer.Ordinal);
        foreach (LeanTicks set in sets)
        {
            string name = $"{set.Symbol}_{set.Kind}";
            string folder = Path.Combine(work, name);
            (string Column, long Raw, long Sealed)[] columns = WriteAndSeal(set, folder);
            Dictionary<string, long> parquet = ParquetColumns(set, Path.Combine(work, name + ".parquet"), out long parquetFile);
            Console.WriteLine($"### {name}: {set.Rows:N0} rows");
            Console.WriteLine();
            Console.WriteLine("| column | raw B/row | sealed B/row | Parquet zstd B/row | sealed / Parquet |");
            Console.WriteLine("|---|---|---|---|---|");
            foreach ((string column, long raw, long sealedBytes) in columns)
            {
                long inParquet = parquet[column];
                Console.WriteLine($"| {column} | {Per(raw, set.Rows)} | {Per(sealedBytes, set.Rows)} | {Per(inParquet, set.Rows)} | " +
                    $"{(double)sealedBytes / inParquet:F2} |");
            }

            long sealedTotal = columns.Sum(column => column.Sealed);
            Console.WriteLine($"| **all** | {Per(columns.Sum(column => column.Raw), set.Rows)} | {Per(sealedTotal, set.Rows)} | " +
                $"{Per(parquetFile, set.Rows)} (file) | {(double)sealedTotal / parquetFile:F2} |");
            Console.WriteLine();
            string kind = set.Symbol == "generated" ? "generated" : set.Kind;
            var total = totals.GetValueOrDefault(kind);
            totals[kind] = (total.Rows + set.Rows, total.Raw + columns.Sum(column => column.Raw), total.Sealed + sealedTotal,
                total.Parquet + parquetFile, total.Zipped + set.ZippedBytes);
        }

        Console.WriteLine("| ticks | rows | raw MB | sealed MB | Parquet zstd MB | zipped CSV MB | sealed / Parquet | sealed / zipped CSV |");
        Console.WriteLine("|---|---|---|---|---|---|---|---|");
        foreach ((string kind, var total) in totals)
        {
            string zipped = total.Zipped > 0 ? Mb(total.Zipped) : "-";
            string toZipped = total.Zipped > 0 ? ((double)total.Sealed / total.Zipped).ToString("F2", CultureInfo.InvariantCulture) : "-";
            Console.WriteLine($"| {kind} | {total.Rows:N0} | {Mb(total.Raw)} | {Mb(total.Sealed)} | {Mb(total.Parquet)} | {zipped} | " +
                $"{(double)total.Sealed / total.Parquet:F2} | {toZipped} |");
        }

        return 0;
    }

    /// <summary>The set as a table in <paramref name="folder"/>, sealed; each column's raw bytes (rows times item size) and sealed file.</summary>
    private static (string Column, long Raw, long Sealed)[] WriteAndSeal(LeanTicks set, string folder)
    {
        set.WriteTable(folder);
        TimeSeriesTable.Seal(folder);
        using var sealedTable = TimeSeriesTable.Open(folder, FileAccess.Read);
        // A text column's bytes are its codes' and its distinct values'.
        return sealedTable.Columns.Select(column => (column.Name, (long)set.Rows * ListMmfFileInfo.Read(column.Path).ItemSize,
            new FileInfo(column.Path).Length + (column is TextColumn text ? new FileInfo(text.EntriesPath).Length : 0))).ToArray();
    }

    /// <summary>The set written by DuckDB to a Parquet file with zstd; each column's compressed bytes, and the file's.</summary>
    private static Dictionary<string, long> ParquetColumns(LeanTicks set, string path, out long fileBytes)
    {
        File.Delete(path);
        using var connection = new DuckDBConnection("DataSource=:memory:");
        connection.Open();
        string sides = string.Join(", ", Enumerable.Range(0, set.PriceNames.Length).Select(side =>
            $"\"{set.PriceNames[side]}\" DOUBLE, \"{set.SizeName(side)}\" INTEGER"));
        Execute(connection, $"CREATE TABLE ticks (\"time\" TIMESTAMP, {sides}, exchange VARCHAR, condition VARCHAR, suspicious UTINYINT)");
        string[] exchanges = set.ExchangeTexts();
        string[] conditions = set.ConditionTexts();
        using (DuckDBAppender append = connection.CreateAppender("ticks"))
        {
            for (int row = 0; row < set.Rows; row++)
            {
                var line = append.CreateRow().AppendValue(set.Times[row]);
                for (int side = 0; side < set.PriceNames.Length; side++)
                {
                    line = line.AppendValue(set.Prices[side][row]).AppendValue(set.Sizes[side][row]);
                }

                line.AppendValue(exchanges[row]).AppendValue(conditions[row]).AppendValue(set.Suspicious[row]).EndRow();
            }
        }

        Execute(connection, $"COPY ticks TO '{path}' (FORMAT parquet, COMPRESSION zstd)");
        fileBytes = new FileInfo(path).Length;
        var columns = new Dictionary<string, long>(StringComparer.Ordinal);
        using DuckDBCommand query = connection.CreateCommand();
        query.CommandText = $"SELECT path_in_schema, CAST(sum(total_compressed_size) AS BIGINT) FROM parquet_metadata('{path}') GROUP BY path_in_schema";
        using DuckDBDataReader reader = query.ExecuteReader();
        while (reader.Read())
        {
            columns[reader.GetString(0)] = reader.GetInt64(1);
        }

        return columns;
    }

    private static void Execute(DuckDBConnection connection, string sql)
    {
        using DuckDBCommand command = connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    private static string Per(long bytes, int rows) => ((double)bytes / rows).ToString("F2", CultureInfo.InvariantCulture);

    private static string Mb(long bytes) => (bytes / 1e6).ToString("F1", CultureInfo.InvariantCulture);
}
