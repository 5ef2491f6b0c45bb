using System;
using System.Globalization;
using System.IO;
using DuckDB.NET.Data;

namespace ListMmf.Benchmarks.Csv;

/// <summary>
/// The ways of reading the tick CSV that the import could be built on, each finding the three fields of every row and
/// parsing them with the same .NET parsers (the import's own), without storing them; and DuckDB's read_csv loading
/// the same file into a table of its own, for the ratio to a columnar engine's loader.
/// </summary>
internal static class CsvParsers
{
    /// <summary>CsvHelper 34, the import's reader today: fields as UTF-8 byte spans.</summary>
    public static long CsvHelper(string path)
    {
        using var reader = global::CsvHelper.CsvReader.Create(File.OpenRead(path), new global::CsvHelper.CsvReaderOptions(), leaveOpen: false);
        long sum = 0;
        while (reader.Read())
        {
            long.TryParse(reader.GetSpan(0), CultureInfo.InvariantCulture, out long time);
            double.TryParse(reader.GetSpan(1), NumberStyles.Float, CultureInfo.InvariantCulture, out double price);
            int.TryParse(reader.GetSpan(2), CultureInfo.InvariantCulture, out int size);
            sum += time + (long)price + size;
        }

        return sum;
    }

    /// <summary>Sylvan.Data.Csv 1.4.4: fields as UTF-16 char spans of its decoded buffer.</summary>
    public static long Sylvan(string path)
    {
        using var text = new StreamReader(path, System.Text.Encoding.UTF8, detectEncodingFromByteOrderMarks: true, bufferSize: 1 << 16);
        using var reader = global::Sylvan.Data.Csv.CsvDataReader.Create(text, new global::Sylvan.Data.Csv.CsvDataReaderOptions { BufferSize = 1 << 16 });
        long sum = 0;
        while (reader.Read())
        {
            long.TryParse(reader.GetFieldSpan(0), CultureInfo.InvariantCulture, out long time);
            double.TryParse(reader.GetFieldSpan(1), NumberStyles.Float, CultureInfo.InvariantCulture, out double price);
            int.TryParse(reader.GetFieldSpan(2), CultureInfo.InvariantCulture, out int size);
            sum += time + (long)price + size;
        }

        return sum;
    }

    /// <summary>DuckDB's read_csv into an in-memory table with the column types given (no sniffing of types), on <paramref name="threads"/> threads; returns its rows.</summary>
    public static long DuckDbReadCsv(string path, int threads)
    {
        using var connection = new DuckDBConnection("DataSource=:memory:");
        connection.Open();
        using DuckDBCommand command = connection.CreateCommand();
        command.CommandText = $"set threads = {threads}";
        command.ExecuteNonQuery();
        command.CommandText = $"create table ticks as select * from read_csv('{path.Replace('\\', '/').Replace("'", "''", StringComparison.Ordinal)}', header = true, columns = {{'time': 'INTEGER', 'price': 'DOUBLE', 'size': 'INTEGER'}})";
        command.ExecuteNonQuery();
        command.CommandText = "select count(*) from ticks";
        return (long)command.ExecuteScalar()!;
    }
}
