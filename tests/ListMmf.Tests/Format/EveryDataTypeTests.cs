using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Apache.Arrow;
using Apache.Arrow.Types;
using ListMmf.Arrow;
using ListMmf.Tests.Python;
using ListMmf.Tests.Tool;
using Xunit;

namespace ListMmf.Tests.Format;

/// <summary>
/// Every data type through every converter, each type taken from <see cref="DataTypeInfo.All"/>: a type added there
/// and not to a converter fails here, naming the type and the converter.
/// </summary>
public sealed class EveryDataTypeTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>The types a table column holds: every number type.</summary>
    public static TheoryData<DataType> NumberTypes => new(DataTypeInfo.All.Where(type => type.IsNumber).Select(type => type.DataType));

    [Fact]
    public void EveryCodeHasOneDescriptionAtItsOwnIndex()
    {
        Assert.Equal(Enum.GetValues<DataType>(), DataTypeInfo.All.Select(type => type.DataType));
        Assert.Equal(Enum.GetNames<DataType>(), DataTypeInfo.All.Select(type => type.Name));
    }

    [Fact]
    public void EachNumberTypeIsStoredAsTheNetTypeOfItsSize()
    {
        foreach (DataTypeInfo type in DataTypeInfo.All.Where(type => type.IsNumber))
        {
            Assert.Equal((type.StorageType, type.Size), type.Accept(new StorageOf()));
        }
    }

    [Fact]
    public void AListIsCreatedWithTheNumberTypeThatIsNotATimeOrAsStructs()
    {
        foreach (DataTypeInfo type in DataTypeInfo.All.Where(type => type.IsNumber && !type.IsTime))
        {
            Assert.Equal(type, type.Accept(new CreatedWith()));
        }

        Assert.Equal(DataType.AnyStruct, DataTypeInfo.Of<Quote192>().DataType);
        Assert.Equal(DataType.AnyStruct, DataTypeInfo.Of<Int128>().DataType);
    }

    [Fact]
    public void OnlyNumberTypesAreVisited()
    {
        foreach (DataTypeInfo type in DataTypeInfo.All.Where(type => !type.IsNumber))
        {
            Assert.Throws<InvalidOperationException>(() => type.Accept(new StorageOf()));
        }
    }

    [Theory, MemberData(nameof(NumberTypes))]
    public void ATableColumnKeepsTheValuesAndTheTypeAcrossAReopen(DataType code)
    {
        byte[] written = WriteTable(code, "table");

        using TimeSeriesTable table = TimeSeriesTable.Open(_directory.File("table"), FileAccess.Read);
        Assert.Equal(code, VType(table));
        Assert.Equal(written, ValueBytes(table, "v"));
    }

    [Theory, MemberData(nameof(NumberTypes))]
    public void ArrowGetsTheStoredValuesAndTheTypeName(DataType code)
    {
        byte[] written = WriteTable(code, "table");
        using TimeSeriesTable table = TimeSeriesTable.Open(_directory.File("table"), FileAccess.Read);

        RecordBatch stored = table.ToRecordBatch(ArrowTimeColumn.Stored);
        RecordBatch timestamps = table.ToRecordBatch(ArrowTimeColumn.Timestamp);

        Assert.Equal(code.ToString(), stored.Schema.GetFieldByName("v").Metadata["listmmf.data_type"]);
        Assert.Equal(written, stored.Column("v").Data.Buffers[1].Span.ToArray());
        Assert.Equal(DataTypeInfo.Of(code).IsTime, timestamps.Schema.GetFieldByName("v").DataType is TimestampType);
        Assert.Equal(written.Length / DataTypeInfo.Of(code).Size, timestamps.Column("v").Length);
    }

    [Theory, MemberData(nameof(NumberTypes))]
    public void ParquetExportAndImportGiveTheValuesAndTypeBack(DataType code)
    {
        byte[] written = WriteTable(code, "table");
        string parquet = _directory.File("table.parquet");

        ToolResult export = ToolRunner.Run("export", "parquet", _directory.File("table"), "--out", parquet);
        ToolResult import = ToolRunner.Run("import", "parquet", parquet, "--out", _directory.File("back"));

        Assert.True(export.ExitCode == 0, export.Error);
        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable back = TimeSeriesTable.Open(_directory.File("back"), FileAccess.Read);
        Assert.Equal(code, VType(back));
        Assert.Equal(written, ValueBytes(back, "v"));
    }

    [Theory, MemberData(nameof(NumberTypes))]
    public void CsvExportAndImportGiveTheValuesBack(DataType code)
    {
        DataTypeInfo type = DataTypeInfo.Of(code);
        byte[] written = WriteTable(code, "table");
        string csv = _directory.File("table.csv");

        ToolResult export = ToolRunner.Run("export", "csv", _directory.File("table"), "--out", csv);
        string[] columns = type.IsTime
            ? ["--time", "time", "--time-type", type.Kind == DataTypeKind.UnixSeconds ? "seconds" : "ticks", "--column", "n:int"]
            : ["--time", "time", "--column", $"v:{type.Keyword}"];
        ToolResult import = ToolRunner.Run(["import", "csv", csv, "--out", _directory.File("back"), .. columns]);

        Assert.True(export.ExitCode == 0, export.Error);
        Assert.True(import.ExitCode == 0, import.Error);
        using TimeSeriesTable back = TimeSeriesTable.Open(_directory.File("back"), FileAccess.Read);
        Assert.Equal(written, type.IsTime ? TimeBytes(back) : ValueBytes(back, "v"));
    }

    [Theory, MemberData(nameof(NumberTypes))]
    public void SealAndUnsealGiveEveryValueBackBitForBit(DataType code)
    {
        byte[] written = WriteTable(code, "table");
        string column = Path.Combine(_directory.File("table"), "v.mmf");

        Assert.True(SealedListMmf.Seal(column));
        byte[] sealedBytes = DataTypeInfo.Of(code).Accept(new SealedBytesOf(column));
        Assert.True(SealedListMmf.Unseal(column));

        Assert.Equal(written, sealedBytes);
        using TimeSeriesTable back = TimeSeriesTable.Open(_directory.File("table"), FileAccess.Read);
        Assert.Equal(written, ValueBytes(back, "v"));
    }

    [Theory, MemberData(nameof(NumberTypes))]
    public void ASealedBlockOfEveryEdgeValueComesBackBitForBit(DataType code)
    {
        string path = _directory.File("edges.mmf");
        byte[] written = DataTypeInfo.Of(code).Accept(new EdgeList(path));

        SealedListMmf.Seal(path);

        Assert.Equal(written, DataTypeInfo.Of(code).Accept(new SealedBytesOf(path)));
    }

    [Theory, MemberData(nameof(NumberTypes))]
    public void TheToolShowsEachValue(DataType code)
    {
        WriteTable(code, "table");

        ToolResult head = ToolRunner.Run("head", Path.Combine(_directory.File("table"), "v.mmf"), "-n", "100");

        Assert.True(head.ExitCode == 0, head.Error);
        foreach (string text in DataTypeInfo.Of(code).Accept(new Shown()))
        {
            Assert.Contains(text, head.Output, StringComparison.Ordinal);
        }
    }

    [PythonFact]
    public void ThePythonReaderNamesAndSizesEveryCodeAsTheLibraryDoes()
    {
        const string Script = """
            import os, sys
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            for code, info in sorted(listmmf.TYPES.items()):
                print(code, info.name, info.size or 0)
            """;

        (int exitCode, string output) = PythonProcess.Run("python3", ["-c", Script]);

        Assert.True(exitCode == 0, output);
        Assert.Equal(
            DataTypeInfo.All.Select(type => $"{(int)type.DataType} {type.Name} {type.Size}"),
            output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
    }

    [PandasFact]
    public void ThePythonReaderGivesEachNumberTypeItsDtypeAndValues()
    {
        DataTypeInfo[] types = DataTypeInfo.All.Where(type => type.IsNumber).ToArray();
        foreach (DataTypeInfo type in types)
        {
            WriteTable(type.DataType, type.Name);
        }

        const string Script = """
            import os, sys
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            for folder in sys.argv[1:]:
                items = listmmf.open_items(os.path.join(folder, "v.mmf"))
                print(os.path.basename(folder), items.dtype.str, items.tobytes().hex())
            """;
        (int exitCode, string output) = PythonProcess.Run(
            PandasFactAttribute.Python.Value!, ["-c", Script, .. types.Select(type => _directory.File(type.Name))]);

        Assert.True(exitCode == 0, output);
        string[] lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        foreach (DataTypeInfo type in types)
        {
            using TimeSeriesTable table = TimeSeriesTable.Open(_directory.File(type.Name), FileAccess.Read);
            char letter = type.Kind switch
            {
                DataTypeKind.UnsignedInteger => 'u',
                DataTypeKind.FloatingPoint => 'f',
                _ => 'i',
            };
            string expected = $"{type.Name} {(type.Size == 1 ? '|' : '<')}{letter}{type.Size} {Convert.ToHexString(ValueBytes(table, "v")).ToLowerInvariant()}";
            Assert.Contains(expected, lines);
        }
    }

    /// <summary>
    /// A table in <paramref name="folder"/> with a value column "v" of <paramref name="code"/> holding its samples,
    /// and "n" numbering the rows; its time column is of the same type when that is a time, else Unix seconds.
    /// Returns v's bytes.
    /// </summary>
    private byte[] WriteTable(DataType code, string folder)
    {
        DataTypeInfo type = DataTypeInfo.Of(code);
        var schema = new TimeSeriesTableSchema("time", type.IsTime ? code : DataType.UnixSeconds).Add("v", code).Add<int>("n");
        using TimeSeriesTable table = TimeSeriesTable.Create(_directory.File(folder), schema);
        return type.Accept(new Fill(table));
    }

    private static DataType VType(TimeSeriesTable table) => table.Schema.Columns.Single(column => column.Name == "v").DataType;

    private static byte[] ValueBytes(TimeSeriesTable table, string name) =>
        DataTypeInfo.Of(table.Schema.Columns.Single(column => column.Name == name).DataType).Accept(new BytesOf(table, name));

    private static byte[] TimeBytes(TimeSeriesTable table) => DataTypeInfo.Of(table.Schema.Time.DataType).Accept(new BytesOf(table, "time"));

    /// <summary>Edge values of each kind, in ascending order, that every converter must carry over exactly.</summary>
    private static class SamplesOf
    {
        public static T[] Of<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> => type.Kind switch
            {
                DataTypeKind.UnixSeconds => [T.CreateChecked(-86_400), T.Zero, T.CreateChecked(1_704_187_800), T.MaxValue],
                DataTypeKind.DateTimeTicks =>
                [
                    T.CreateChecked(new DateTime(1700, 1, 1).Ticks),
                    T.CreateChecked(DateTime.UnixEpoch.Ticks),
                    T.CreateChecked(new DateTime(2024, 1, 2, 9, 30, 0).Ticks + 1_234_567),
                    T.CreateChecked(new DateTime(2262, 1, 1).Ticks),
                ],
                DataTypeKind.FloatingPoint => [T.MinValue, T.CreateChecked(-1.5), T.Zero, T.CreateChecked(0.1), T.MaxValue],
                DataTypeKind.SignedInteger => [T.MinValue, -T.One, T.Zero, T.One, T.MaxValue],
                _ => [T.Zero, T.One, T.MaxValue],
            };
    }

    private sealed record Fill(TimeSeriesTable Table) : IDataTypeVisitor<byte[]>
    {
        public byte[] Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            T[] values = SamplesOf.Of<T>(type);
            Table.Column<T>("v").AddRange(values);
            Table.Column<int>("n").AddRange(Enumerable.Range(0, values.Length).ToArray());
            switch (type.Kind)
            {
                case DataTypeKind.DateTimeTicks:
                    Table.AddRows(MemoryMarshal.Cast<T, long>(values));
                    break;
                case DataTypeKind.UnixSeconds:
                    Table.AddRows(MemoryMarshal.Cast<T, int>(values));
                    break;
                default:
                    Table.AddRows(Enumerable.Range(1_704_187_800, values.Length).ToArray());
                    break;
            }

            return MemoryMarshal.AsBytes(values.AsSpan()).ToArray();
        }
    }

    private sealed record BytesOf(TimeSeriesTable Table, string Name) : IDataTypeVisitor<byte[]>
    {
        public byte[] Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> =>
            MemoryMarshal.AsBytes(Table.Column<T>(Name).AsSpan(new IndexRange(0, Table.RowCount))).ToArray();
    }

    /// <summary>
    /// A list at <paramref name="Path"/> of 3,000 items: the samples, then for floats -0.0, NaN with payloads, the
    /// infinities and the smallest subnormals, repeated, then a ramp that a codec takes; returns its bytes.
    /// </summary>
    private sealed record EdgeList(string Path) : IDataTypeVisitor<byte[]>
    {
        public byte[] Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            T[] edges = SamplesOf.Of<T>(type);
            if (type.Kind == DataTypeKind.FloatingPoint)
            {
                edges = [.. edges, T.CreateChecked(-0.0), T.CreateChecked(double.PositiveInfinity), T.CreateChecked(double.NegativeInfinity),
                    FromBits<T>(type.Size == 8 ? 0x7FF8_0000_0000_0001 : 0x7FC0_0001), FromBits<T>(type.Size == 8 ? unchecked((long)0xFFF0_0000_0000_00FF) : unchecked((int)0xFF80_00FF)),
                    FromBits<T>(1), FromBits<T>(type.Size == 8 ? long.MinValue + 1 : int.MinValue + 1)];
            }

            T[] values = Enumerable.Range(0, 2_000).Select(i => edges[i % edges.Length])
                .Concat(Enumerable.Range(0, 1_000).Select(i => T.CreateTruncating(i))).ToArray();
            using (var list = new ListMmf<T>(Path, FileAccess.ReadWrite, null, type.DataType, requireDataType: true, description: null))
            {
                list.AddRange(values);
            }

            return MemoryMarshal.AsBytes(values.AsSpan()).ToArray();
        }

        private static T FromBits<T>(long bits)
            where T : unmanaged => Unsafe.SizeOf<T>() == 8 ? Unsafe.BitCast<long, T>(bits) : Unsafe.BitCast<int, T>((int)bits);
    }

    private sealed record SealedBytesOf(string Path) : IDataTypeVisitor<byte[]>
    {
        public byte[] Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            using var list = new SealedListMmf<T>(Path);
            Assert.Equal(type.DataType, list.DataType);
            list.Verify();
            return MemoryMarshal.AsBytes(list.ToArray().AsSpan()).ToArray();
        }
    }

    /// <summary>How the tool shows each sample: numbers invariant, times as their date.</summary>
    private sealed record Shown : IDataTypeVisitor<string[]>
    {
        public string[] Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> =>
            SamplesOf.Of<T>(type).Select(value => type.Kind switch
            {
                DataTypeKind.UnixSeconds => ListMmfTimeSeriesDateTimeSeconds.ToDateTime(int.CreateChecked(value)).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
                DataTypeKind.DateTimeTicks => new DateTime(long.CreateChecked(value)).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
                _ => value.ToString(null, CultureInfo.InvariantCulture),
            }).ToArray();
    }

    private sealed record StorageOf : IDataTypeVisitor<(Type?, int)>
    {
        public (Type?, int) Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> => (typeof(T), Unsafe.SizeOf<T>());
    }

    private sealed record CreatedWith : IDataTypeVisitor<DataTypeInfo>
    {
        public DataTypeInfo Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> => DataTypeInfo.Of<T>();
    }
}
