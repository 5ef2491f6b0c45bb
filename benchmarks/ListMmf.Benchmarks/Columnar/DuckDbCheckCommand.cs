using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Numerics;
using System.Text;
using DuckDB.NET.Data;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Columnar;

/// <summary>
/// <c>duckdb-check --table DIR --parquet FILE [--samples N]</c>: DuckDB, a reader nobody here wrote, reads the Parquet
/// file, and it must hold the table's rows: the same count, first and last time, sum of every value column (integers
/// exactly, doubles to 1e-12 relative), and the same time and values in <c>N</c> rows picked at random. Exits 1 on any
/// difference, naming it.
/// </summary>
internal static class DuckDbCheckCommand
{
    public static int Run(string tablePath, string parquet, int samples)
    {
        using var table = TimeSeriesTable.Open(tablePath, FileAccess.Read);
        using var connection = new DuckDBConnection("DataSource=:memory:");
        connection.Open();
        string file = $"read_parquet('{Path.GetFullPath(parquet).Replace('\\', '/').Replace("'", "''", StringComparison.Ordinal)}', file_row_number = true)";
        var problems = new List<string>();
        long rows = table.RowCount;
        string[] names = table.Columns.Select(column => column.Name).ToArray();
        string time = table.Schema.Time.Name;

        // A text column's sum is of its values' UTF-8 bytes (DuckDB's strlen); a sampled row compares the value itself.
        string[] sums = table.Columns.Skip(1).Select(column => column is TextColumn ? $"sum(strlen(\"{column.Name}\"))" : $"sum(\"{column.Name}\")").ToArray();
        object[] summary = Row(connection, $"select count(*), min(\"{time}\"), max(\"{time}\"), {string.Join(", ", sums)} from {file}");
        Compare(problems, "row count", rows, Convert.ToInt64(summary[0], CultureInfo.InvariantCulture));
        if (rows > 0)
        {
            Compare(problems, "first time", table.TimeAt(0), (DateTime)summary[1]);
            Compare(problems, "last time", table.TimeAt(rows - 1), (DateTime)summary[2]);
        }

        for (int c = 1; c < names.Length; c++)
        {
            Compare(problems, $"sum of '{names[c]}'", Sum(table, table.Columns[c], new IndexRange(0, rows)), summary[2 + c]);
        }

        var random = new SplitMix64(20);
        long[] picked = rows == 0 ? [] : Enumerable.Range(0, samples).Select(_ => (long)(random.Next() % (ulong)rows)).Append(0).Append(rows - 1).Distinct().Order().ToArray();
        foreach (long row in picked)
        {
            object[] theirs = Row(connection, $"select {string.Join(", ", names.Select(name => $"\"{name}\""))} from {file} where file_row_number = {row}");
            Compare(problems, $"row {row:N0} '{time}'", table.TimeAt(row), (DateTime)theirs[0]);
            for (int c = 1; c < names.Length; c++)
            {
                object ours = table.Columns[c] is TextColumn text ? text[row] : Sum(table, table.Columns[c], new IndexRange(row, row + 1));
                Compare(problems, $"row {row:N0} '{names[c]}'", ours, theirs[c]);
            }
        }

        foreach (string problem in problems.Take(20))
        {
            Console.Error.WriteLine($"duckdb-check: {problem}");
        }

        Console.WriteLine($"duckdb-check: DuckDB read {rows:N0} rows of '{parquet}'; count, first and last time, the sums of {names.Length - 1} value columns and {picked.Length:N0} sampled rows {(problems.Count == 0 ? "match the table" : $"differ from the table in {problems.Count} places")}");
        return problems.Count == 0 ? 0 : 1;
    }

    private static object[] Row(DuckDBConnection connection, string sql)
    {
        using DuckDBCommand command = connection.CreateCommand();
        command.CommandText = sql;
        using DuckDBDataReader reader = command.ExecuteReader();
        if (!reader.Read())
        {
            throw new IOException($"DuckDB returned no row for: {sql}");
        }

        var values = new object[reader.FieldCount];
        reader.GetValues(values);
        return values;
    }

    /// <summary>
    /// The sum of a value column over some rows: a double for floating-point columns, an exact integer otherwise; for a
    /// text column, of its values' UTF-8 bytes.
    /// </summary>
    private static object Sum(TimeSeriesTable table, TableColumn column, IndexRange rows) => column is TextColumn text
        ? TextBytes(text, rows)
        : DataTypeInfo.Of(column.DataType).Accept(new Summer(table, column.Name, rows));

    private static Int128 TextBytes(TextColumn text, IndexRange rows)
    {
        int[] lengths = [.. Enumerable.Range(0, text.EntryCount).Select(code => Encoding.UTF8.GetByteCount(text.EntryAt(code)))];
        var codes = new int[1 << 16];
        Int128 sum = 0;
        for (long start = rows.Start; start < rows.End; start += codes.Length)
        {
            var piece = new IndexRange(start, Math.Min(rows.End, start + codes.Length));
            text.CopyCodes(piece, codes);
            foreach (int code in codes.AsSpan(0, (int)piece.Length))
            {
                sum += lengths[code];
            }
        }

        return sum;
    }

    private sealed record Summer(TimeSeriesTable Table, string Name, IndexRange Rows) : IDataTypeVisitor<object>
    {
        public object Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            ReadOnlySpan<T> values = Table.Column<T>(Name).AsSpan(Rows);
            return type.Kind == DataTypeKind.FloatingPoint
                ? Add(values, double.CreateTruncating)
                : Add(values, Int128.CreateTruncating);
        }

        private static TSum Add<T, TSum>(ReadOnlySpan<T> values, Func<T, TSum> widen)
            where TSum : IAdditionOperators<TSum, TSum, TSum>, IAdditiveIdentity<TSum, TSum>
        {
            TSum sum = TSum.AdditiveIdentity;
            foreach (T value in values)
            {
                sum += widen(value);
            }

            return sum;
        }
    }

    private static void Compare(List<string> problems, string what, object ours, object theirs)
    {
        bool same = (ours, theirs) switch
        {
            (double a, _) => Math.Abs(a - Convert.ToDouble(theirs, CultureInfo.InvariantCulture)) <= 1e-12 * Math.Max(1, Math.Abs(a)),
            (Int128 a, _) => a.ToString(CultureInfo.InvariantCulture) == Convert.ToString(theirs, CultureInfo.InvariantCulture),
            _ => Equals(ours, theirs),
        };
        if (!same)
        {
            problems.Add($"{what}: the table holds {ours}, DuckDB read {theirs}");
        }
    }
}
