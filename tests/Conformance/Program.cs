using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Text.Json;
using ListMmf;
using ListMmf.Arrow;
using ListMmf.TestHost;

namespace ListMmf.Conformance;

/// <summary>
/// The conformance stage's C# side. Values are compared as canonical text that Node computes the same way:
/// integers in decimal, floating-point numbers as the bits they are stored in (8 hex digits for Single, 16 for
/// Double: NaN payloads, signalling NaNs, signs and -0 all count), times as nanoseconds since 1970.
/// <list type="bullet">
/// <item><c>write DIR</c>: creates DIR/tables/NAME (seconds and ticks tables of every column type: no row, one row,
/// five rows of edge values, the edge values in a table recorded as UTC, 100,000 generated rows; and two tables of
/// text columns, edge values and 100,000 rows, compared as the strings they are), their Arrow IPC
/// files DIR/arrow/NAME.arrow, and what each holds as DIR/expected/NAME.json (each column's ListMmf type too).</item>
/// <item><c>check DIR</c>: every table DIR/imported/NAME (imported by the tool from a file another engine wrote)
/// must hold what DIR/foreign/NAME.json says that engine wrote, each column of the type that engine's type becomes
/// and the table recorded as UTC exactly when the engine wrote zoned times; prints one line per engine.</item>
/// <item><c>catalog DIR</c>: creates DIR/catalog, a catalog of three instruments' trades over four days (the first two
/// sealed), for the tool to export as Hive-partitioned Parquet, and DIR/hive-expected.json: each partition's kind,
/// symbol, date, rows, sum of sizes and first and last times.</item>
/// <item><c>catalog-check DIR</c>: the catalogs DIR/from-duckdb and DIR/from-polars (imported by the tool from the
/// Hive folders each engine wrote from the export) must hold every series of DIR/catalog, each row's time, price (by
/// its bits) and size; prints one line per engine.</item>
/// </list>
/// </summary>
public static class Program
{
    private const int ManyRows = 100_000;
    private static readonly DateTime Start = new(2024, 1, 2, 14, 30, 0);
    private static readonly long EpochTicks = DateTime.UnixEpoch.Ticks;

    public static int Main(string[] args) => args switch
    {
        ["write", string directory] => Write(directory),
        ["check", string directory] => Check(directory),
        ["catalog", string directory] => WriteCatalog(directory),
        ["catalog-check", string directory] => CheckCatalogs(directory),
        _ => Usage(),
    };

    private static int Usage()
    {
        Console.Error.WriteLine("usage: write DIR | check DIR | catalog DIR | catalog-check DIR");
        return 2;
    }

    private static int Write(string directory)
    {
        foreach (string folder in new[] { "tables", "arrow", "expected" })
        {
            Directory.CreateDirectory(Path.Combine(directory, folder));
        }

        int files = 0;
        foreach (DataType timeType in new[] { DataType.UnixSeconds, DataType.DateTime })
        {
            string prefix = timeType == DataType.UnixSeconds ? "seconds" : "ticks";
            foreach ((string kind, int rows) in new[] { ("empty", 0), ("one", 1), ("edges", EdgeValues.Rows), ("utc-edges", EdgeValues.Rows), ("many", ManyRows) })
            {
                string name = $"{prefix}-{kind}";
                string folder = Path.Combine(directory, "tables", name);
                using TimeSeriesTable table = TimeSeriesTable.Create(folder, EdgeValues.Schema(timeType, utc: kind == "utc-edges"));
                for (int row = 0; row < rows; row++)
                {
                    if (kind == "many")
                    {
                        AddGenerated(table, row);
                    }
                    else
                    {
                        EdgeValues.AddRow(table, kind == "one" ? 2 : row);
                    }
                }

                table.Flush();
                table.WriteArrowFile(Path.Combine(directory, "arrow", name + ".arrow"));
                File.WriteAllText(Path.Combine(directory, "expected", name + ".json"), Expected(table));
                files++;
            }
        }

        foreach ((string name, int rows) in new[] { ("text-edges", TextEdges.Length), ("text-many", ManyRows) })
        {
            string folder = Path.Combine(directory, "tables", name);
            using TimeSeriesTable table = TimeSeriesTable.Create(folder, new TimeSeriesTableSchema("time", DataType.DateTime)
                .AddText("exchange", DataType.Byte).AddText("symbol", DataType.UInt16).Add<int>("size"));
            AddText(table, rows);
            table.WriteArrowFile(Path.Combine(directory, "arrow", name + ".arrow"));
            File.WriteAllText(Path.Combine(directory, "expected", name + ".json"), Expected(table));
            files++;
        }

        Console.WriteLine($"wrote {files} tables (the numbers' of {EdgeValues.ValueTypes.Length + 1} columns, two of text columns) " +
            $"into {Path.Combine(directory, "tables")}");
        return 0;
    }

    /// <summary>
    /// Text a reader could get wrong: empty, CSV's separators and quotes, line breaks, spaces at the ends, accents,
    /// characters of three and four UTF-8 bytes, a long value.
    /// </summary>
    private static readonly string[] TextEdges =
        ["", "Q", "F,I", "say \"hi\"", "line\nbreak\r\n", " padded ", "Ü", "日本", "\U0001F600", "tab\there", new string('x', 1000)];

    /// <summary>
    /// <paramref name="rows"/> rows of text: an exchange of <see cref="TextEdges"/>, and a symbol of a few thousand
    /// that first appear all through the rows, so that readers meet dictionaries of many values.
    /// </summary>
    private static void AddText(TimeSeriesTable table, int rows)
    {
        for (int row = 0; row < rows; row++)
        {
            table.Text("exchange").Add(TextEdges[(int)((uint)row * 2654435761u % (uint)TextEdges.Length)]);
            table.Text("symbol").Add(string.Create(CultureInfo.InvariantCulture, $"S{(row * 7919) % Math.Max(1, rows / 40):D5}"));
            table.Column<int>("size").Add(row);
            table.AddRow(Start.AddTicks(row * 1_234_567L));
        }

        table.Flush();
    }

    /// <summary>
    /// Row <paramref name="row"/> of the many: values spread over each type's range; now and then a -0, and NaNs of
    /// both signs with payloads, quiet and signalling, which every reader must hand over bit for bit.
    /// </summary>
    private static void AddGenerated(TimeSeriesTable table, int row)
    {
        ulong mixed = (ulong)row * 0x9E37_79B9_7F4A_7C15;
        table.Column<sbyte>("sbyte").Add((sbyte)mixed);
        table.Column<byte>("byte").Add((byte)(mixed >> 8));
        table.Column<short>("int16").Add((short)(mixed >> 16));
        table.Column<ushort>("uint16").Add((ushort)(mixed >> 24));
        table.Column<int>("int32").Add((int)(mixed >> 32));
        table.Column<uint>("uint32").Add((uint)(mixed >> 16));
        table.Column<long>("int64").Add((long)mixed);
        table.Column<ulong>("uint64").Add(mixed);
        table.Column<float>("single").Add(row % 1009 == 0 ? NaN32(row) : (float)((row * 0.37) - 5000));
        table.Column<double>("double").Add(row % 997 == 0 ? -0d : row % 499 == 0 ? NaN64(row) : (row * 0.25) - 12345.5);
        table.Column<long>("datetime").Add(Start.Ticks + (row * 987_654L));
        table.Column<int>("unixseconds").Add(1_704_187_800 + (row * 3));
        table.AddRow(table.Schema.Time.DataType == DataType.DateTime ? Start.AddTicks(row * 1_234_567L) : Start.AddSeconds(row));
    }

    /// <summary>A NaN with a payload from <paramref name="row"/>: signalling (quiet bit clear) every other time, negative every fourth.</summary>
    private static float NaN32(int row) => BitConverter.UInt32BitsToSingle(
        0x7F80_0000u | (row % 2 == 0 ? 0x0040_0000u : 0) | (uint)((row % 0x1000) + 1) | (row % 4 == 0 ? 0x8000_0000u : 0));

    /// <inheritdoc cref="NaN32"/>
    private static double NaN64(int row) => BitConverter.UInt64BitsToDouble(
        0x7FF0_0000_0000_0000ul | (row % 2 == 0 ? 0x0008_0000_0000_0000ul : 0) | (uint)(row + 1) | (row % 4 == 0 ? 0x8000_0000_0000_0000ul : 0));

    private static string Expected(TimeSeriesTable table)
    {
        var all = new IndexRange(0, table.RowCount);
        var columns = table.Columns.Select(column => column is TextColumn text
            ? new ExpectedColumn(column.Name, "text", "Text", Texts(text, all))
            : new ExpectedColumn(
                column.Name,
                DataTypeInfo.Of(column.DataType) switch
                {
                    { IsTime: true } => "time",
                    { Kind: DataTypeKind.FloatingPoint } => "float",
                    _ => "int",
                },
                column.DataType.ToString(),
                DataTypeInfo.Of(column.DataType).Accept(new CanonicalValues(table, column, all)))).ToArray();
        return JsonSerializer.Serialize(new ExpectedFile(table.RowCount, table.Schema.TimesAreUtc, columns));
    }

    private static int WriteCatalog(string directory)
    {
        var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
            .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.AscendingOrEqual).Add<double>("price").Add<int>("size"));
        string folder = Path.Combine(directory, "catalog");
        string[] symbols = ["AAPL", "BRK.B", "MSFT"];
        using (var catalog = TimeSeriesCatalog.Create(folder, schema))
        {
            for (int day = 0; day < 4; day++)
            {
                for (int i = 0; i < 3_000; i++)
                {
                    for (int s = 0; s < symbols.Length; s++)
                    {
                        if ((i + s) % (s + 2) != 0)
                        {
                            continue;
                        }

                        DateTime time = Start.Date.AddDays(day).AddHours(9.5).AddTicks((i * 1_234_567L) + s);
                        TimeSeriesTable partition = catalog.Partition("trades", symbols[s], time);
                        partition.Column<double>("price").Add(100 + s + (i * 0.01));
                        partition.Column<int>("size").Add((i % 700) + s);
                        partition.AddRow(time);
                    }
                }

                catalog.Flush();
            }

            catalog.Seal(Start.Date.AddDays(2));
        }

        using var reader = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        var expected = reader.Partitions().Where(partition => partition.RowCount > 0).Select(partition =>
        {
            using TimeSeriesTable table = reader.OpenPartition(partition);
            int[] sizes = new int[partition.RowCount];
            table.Column<int>("size").CopyTo(new IndexRange(0, partition.RowCount), sizes);
            return new HivePartition(partition.Kind, partition.Instrument, partition.PeriodStart.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
                partition.RowCount, sizes.Sum(size => (long)size).ToString(CultureInfo.InvariantCulture),
                Nanoseconds(partition.FirstTime), Nanoseconds(partition.LastTime));
        }).ToArray();
        File.WriteAllText(Path.Combine(directory, "hive-expected.json"), JsonSerializer.Serialize(expected));
        Console.WriteLine($"wrote a catalog of {expected.Length} partitions ({expected.Sum(partition => partition.Rows):N0} rows) into {folder}");
        return 0;
    }

    private static int CheckCatalogs(string directory)
    {
        string[] expected = SeriesRows(Path.Combine(directory, "catalog"));
        bool ok = true;
        foreach (string engine in new[] { "duckdb", "polars" })
        {
            string[] imported = SeriesRows(Path.Combine(directory, $"from-{engine}"));
            int different = imported.Length == expected.Length ? expected.Where((row, i) => row != imported[i]).Count() : -1;
            string first = different > 0 ? expected.Zip(imported).First(pair => pair.First != pair.Second).ToString() : "";
            Console.WriteLine($"{$"{engine} (Hive, imported)",-28} {expected.Length:N0} rows of the catalog: " +
                (different == 0 ? "all equal" : different < 0 ? $"{imported.Length:N0} rows imported" : $"{different:N0} differ, first {first}"));
            ok &= different == 0;
        }

        return ok ? 0 : 1;
    }

    /// <summary>Every row of every series, as "kind/symbol time price-bits size", series in name order.</summary>
    private static string[] SeriesRows(string folder)
    {
        using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
        return catalog.Partitions().Where(partition => partition.RowCount > 0)
            .OrderBy(partition => partition.Kind, StringComparer.Ordinal).ThenBy(partition => partition.Instrument, StringComparer.Ordinal)
            .ThenBy(partition => partition.PeriodStart)
            .SelectMany(partition =>
            {
                using TimeSeriesTable table = catalog.OpenPartition(partition);
                TableColumn<double> price = table.Column<double>("price");
                TableColumn<int> size = table.Column<int>("size");
                return Enumerable.Range(0, (int)partition.RowCount).Select(row => string.Create(CultureInfo.InvariantCulture,
                    $"{partition.Kind}/{partition.Instrument} {table.TimeAt(row).Ticks} {BitConverter.DoubleToInt64Bits(price[row]):x16} {size[row]}"))
                    .ToArray();
            }).ToArray();
    }

    private static string Nanoseconds(DateTime time) => ((time.Ticks - EpochTicks) * 100).ToString(CultureInfo.InvariantCulture);

    private sealed record HivePartition(string Kind, string Symbol, string Date, long Rows, string Size, string First, string Last);

    private static string[] Texts(TextColumn column, IndexRange rows)
    {
        var values = new string[rows.Length];
        column.CopyTo(rows, values);
        return values;
    }

    private static int Check(string directory)
    {
        long files = 0, values = 0, different = 0;
        var byEngine = new SortedDictionary<string, (long Files, long Values, long Different)>(StringComparer.Ordinal);
        foreach (string expectedPath in Directory.GetFiles(Path.Combine(directory, "foreign"), "*.json").Order(StringComparer.Ordinal))
        {
            string name = Path.GetFileNameWithoutExtension(expectedPath);
            ExpectedFile expected = JsonSerializer.Deserialize<ExpectedFile>(File.ReadAllText(expectedPath))!;
            using TimeSeriesTable table = TimeSeriesTable.Open(Path.Combine(directory, "imported", name), FileAccess.Read);
            var all = new IndexRange(0, table.RowCount);
            long fileValues = 0, fileDifferent = 0;
            if (table.RowCount != expected.Rows)
            {
                Console.WriteLine($"{name}: {table.RowCount:N0} rows imported, {expected.Rows:N0} written");
                fileDifferent++;
            }

            fileValues++;
            if (table.Schema.TimesAreUtc != expected.Utc)
            {
                Console.WriteLine($"{name}: the table is {(table.Schema.TimesAreUtc ? "" : "not ")}recorded as UTC; the " +
                    $"engine wrote times {(expected.Utc ? "with" : "without")} a zone");
                fileDifferent++;
            }

            foreach (ExpectedColumn column in expected.Columns)
            {
                TableColumn? imported = table.Columns.FirstOrDefault(c => c.Name == column.Name);
                if (imported is null)
                {
                    Console.WriteLine($"{name}: column '{column.Name}' was not imported");
                    fileDifferent++;
                    continue;
                }

                fileValues++;
                string importedType = imported is TextColumn ? "Text" : imported.DataType.ToString();
                if (importedType != column.Type)
                {
                    Console.WriteLine($"{name}: column '{column.Name}' was imported as {importedType}, not {column.Type}");
                    fileDifferent++;
                }

                string[] ours = imported is TextColumn text
                    ? Texts(text, all)
                    : DataTypeInfo.Of(imported.DataType).Accept(new CanonicalValues(table, imported, all));
                for (int i = 0; i < column.Values.Length; i++)
                {
                    fileValues++;
                    string got = i < ours.Length ? ours[i] : "(missing)";
                    string written = column.Kind == "time" ? FlooredToTick(column.Values[i]) : column.Values[i];
                    if (got != written)
                    {
                        if (fileDifferent++ < 5)
                        {
                            Console.WriteLine($"{name}: column '{column.Name}' row {i}: written {column.Values[i]}, imported {got}");
                        }
                    }
                }
            }

            string engine = name.Split('-')[0];
            (long f, long v, long d) = byEngine.GetValueOrDefault(engine);
            byEngine[engine] = (f + 1, v + fileValues, d + fileDifferent);
            files++;
            values += fileValues;
            different += fileDifferent;
        }

        foreach ((string engine, (long f, long v, long d)) in byEngine)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"import of {engine}'s files: {f} files, {v:N0} values compared, {d} different"));
        }

        return files > 0 && different == 0 ? 0 : 1;
    }

    /// <summary>
    /// Nanoseconds as a table keeps them: floored to the 100 ns tick (the import's documented rule), so a written
    /// 1,704,187,800,000,001,234 is read back as 1,704,187,800,000,001,200.
    /// </summary>
    private static string FlooredToTick(string nanoseconds)
    {
        BigInteger value = BigInteger.Parse(nanoseconds, CultureInfo.InvariantCulture);
        BigInteger floored = BigInteger.Divide(value, 100) * 100;
        return (floored > value ? floored - 100 : floored).ToString(CultureInfo.InvariantCulture);
    }

    /// <summary>The canonical text of every value of a column (see <see cref="Program"/>).</summary>
    private sealed record CanonicalValues(TimeSeriesTable Table, TableColumn Column, IndexRange Rows) : IDataTypeVisitor<string[]>
    {
        public string[] Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            ReadOnlySpan<T> values = Table.Column<T>(Column.Name).AsSpan(Rows);
            var text = new string[values.Length];
            for (int i = 0; i < values.Length; i++)
            {
                text[i] = type.Kind switch
                {
                    DataTypeKind.UnixSeconds => Nanoseconds(ListMmfTimeSeriesDateTimeSeconds.ToDateTime(int.CreateTruncating(values[i])).Ticks),
                    DataTypeKind.DateTimeTicks => Nanoseconds(long.CreateTruncating(values[i])),
                    DataTypeKind.FloatingPoint => Bits(values[i]),
                    _ => values[i].ToString(null, CultureInfo.InvariantCulture),
                };
            }

            return text;
        }

        private static string Nanoseconds(long ticks) => ((BigInteger)(ticks - EpochTicks) * 100).ToString(CultureInfo.InvariantCulture);

        /// <summary>The bits a float or double is stored in, never through a conversion, which could quiet a NaN.</summary>
        private static unsafe string Bits<T>(T value)
            where T : unmanaged => sizeof(T) == sizeof(float)
            ? Unsafe.BitCast<T, uint>(value).ToString("x8", CultureInfo.InvariantCulture)
            : Unsafe.BitCast<T, ulong>(value).ToString("x16", CultureInfo.InvariantCulture);
    }

    /// <summary>A column: its canonical values, and the ListMmf type it is (written) or must become (imported).</summary>
    private sealed record ExpectedColumn(string Name, string Kind, string Type, string[] Values);

    /// <summary>A file's rows and columns, and whether its times are instants in UTC.</summary>
    private sealed record ExpectedFile(long Rows, bool Utc, ExpectedColumn[] Columns);
}
