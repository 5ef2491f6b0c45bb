using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text.Json;
using ListMmf.Tool.Import;
using ParquetSharp;
using ParquetSharp.Schema;

namespace ListMmf.Tool.Parquet;

/// <summary>How table columns and Parquet columns correspond, both ways, and the metadata that lets a table come back as it was.</summary>
internal static class ParquetColumns
{
    /// <summary>The key-value metadata key naming the time column.</summary>
    public const string TimeColumnKey = "listmmf.time_column";

    /// <summary>The key-value metadata key holding the time column's data type (UnixSeconds or DateTime).</summary>
    public const string TimeTypeKey = "listmmf.time_type";

    /// <summary>The key-value metadata key holding the table's order.</summary>
    public const string OrderKey = "listmmf.order";

    /// <summary>
    /// The key-value metadata key listing the value columns that hold Unix seconds, as a JSON array: they travel as
    /// timestamps like the DateTime ones, and only this tells them apart on the way back.
    /// </summary>
    public const string SecondsColumnsKey = "listmmf.seconds_columns";

    /// <summary>
    /// The Parquet column of a table column, written as the physical values the table holds wherever Parquet has
    /// them. Times are timestamps, adjusted to UTC when the table records UTC times (<paramref name="utc"/>) and
    /// without a zone otherwise: milliseconds for Unix seconds (Parquet has no seconds unit), nanoseconds for ticks
    /// (microseconds would round them). 8- and 16-bit integers are INT32 annotated with their
    /// width, unsigned integers are annotated unsigned, as every writer stores them.
    /// </summary>
    public static PrimitiveNode Node(string name, DataTypeInfo type, bool utc) => (type.Kind, type.Size) switch
    {
        (DataTypeKind.UnixSeconds, _) => Primitive(name, LogicalType.Timestamp(isAdjustedToUtc: utc, TimeUnit.Millis), PhysicalType.Int64),
        (DataTypeKind.DateTimeTicks, _) => Primitive(name, LogicalType.Timestamp(isAdjustedToUtc: utc, TimeUnit.Nanos), PhysicalType.Int64),
        (DataTypeKind.FloatingPoint, 8) => Primitive(name, LogicalType.None(), PhysicalType.Double),
        (DataTypeKind.FloatingPoint, 4) => Primitive(name, LogicalType.None(), PhysicalType.Float),
        (DataTypeKind.SignedInteger, 8) => Primitive(name, LogicalType.None(), PhysicalType.Int64),
        (DataTypeKind.SignedInteger, 4) => Primitive(name, LogicalType.None(), PhysicalType.Int32),
        (DataTypeKind.SignedInteger or DataTypeKind.UnsignedInteger, 1 or 2 or 4 or 8) => Primitive(
            name,
            LogicalType.Int(8 * type.Size, isSigned: type.Kind == DataTypeKind.SignedInteger),
            type.Size == 8 ? PhysicalType.Int64 : PhysicalType.Int32),
        _ => throw new NotSupportedException($"A {type.Name} column has no Parquet type."),
    };

    /// <summary>
    /// The key-value metadata key giving the codes of each text column a table exported (a JSON object of names and
    /// Byte, UInt16 or UInt32), so that a table made from the file gets them back.
    /// </summary>
    public const string TextCodesKey = "listmmf.text_codes";

    /// <summary>
    /// The codes of the text column a Parquet string column becomes when the file does not say: two bytes, 65,536
    /// distinct values, which a column of symbols, exchanges or conditions stays within.
    /// </summary>
    public const DataType TextCodes = DataType.UInt16;

    /// <summary>The codes of each text column the file's metadata names (<see cref="TextCodesKey"/>); unknown types are left out.</summary>
    public static IReadOnlyDictionary<string, DataType> TextCodesOf(IReadOnlyDictionary<string, string> metadata)
    {
        var codes = new Dictionary<string, DataType>(StringComparer.Ordinal);
        if (metadata.TryGetValue(TextCodesKey, out string? json)
            && JsonSerializer.Deserialize<Dictionary<string, string>>(json) is { } named)
        {
            foreach ((string name, string type) in named)
            {
                if (Enum.TryParse(type, out DataType code) && code is DataType.Byte or DataType.UInt16 or DataType.UInt32)
                {
                    codes[name] = code;
                }
            }
        }

        return codes;
    }

    /// <summary>The metadata value naming the codes of each text column of <paramref name="columns"/> (see <see cref="TextCodesKey"/>).</summary>
    public static string TextCodesValue(IEnumerable<TableColumn> columns) =>
        JsonSerializer.Serialize(columns.OfType<TextColumn>().ToDictionary(column => column.Name, column => column.DataType.ToString()));

    /// <summary>A text column's Parquet column: UTF-8 strings (BYTE_ARRAY annotated STRING), dictionary-encoded by the writer.</summary>
    public static PrimitiveNode TextNode(string name) => Primitive(name, LogicalType.String(), PhysicalType.ByteArray);

    /// <summary>
    /// What the <paramref name="index"/>th column of a file holds and what a table makes of it. A column inside a
    /// list, map or struct is not flat, and is refused naming the top-level field it belongs to.
    /// </summary>
    public static ParquetField Field(SchemaDescriptor schema, int index, IReadOnlySet<string> secondsColumns)
    {
        ColumnDescriptor column = schema.Column(index);
        using Node root = schema.ColumnRoot(index);
        if (root.NodeType != NodeType.Primitive || column.MaxRepetitionLevel > 0)
        {
            string kind = root.LogicalType switch
            {
                ListLogicalType => "list",
                MapLogicalType => "map",
                _ when root.Repetition == Repetition.Repeated => "list",
                _ => "struct",
            };
            return new ParquetField(index, root.Name, ParquetValueKind.Unsupported, TimeUnit.Unknown, null, 0, $"is a {kind}");
        }

        string name = column.Name;
        using LogicalType logical = column.LogicalType;
        (ParquetValueKind kind2, TimeUnit unit, DataType? type) = (column.PhysicalType, logical) switch
        {
            (PhysicalType.Int64, TimestampLogicalType timestamp) => (ParquetValueKind.Timestamp, timestamp.TimeUnit, TimeType(name, secondsColumns)),
            (PhysicalType.Int96, NoneLogicalType) => (ParquetValueKind.Int96Timestamp, TimeUnit.Nanos, TimeType(name, secondsColumns)),
            (PhysicalType.Int64, NoneLogicalType) => (ParquetValueKind.Int64, TimeUnit.Unknown, DataType.Int64),
            (PhysicalType.Int32, NoneLogicalType) => (ParquetValueKind.Int32, TimeUnit.Unknown, DataType.Int32),
            (PhysicalType.Int64 or PhysicalType.Int32, IntLogicalType integer) when Integer(column.PhysicalType, integer) is { } tableType =>
                (column.PhysicalType == PhysicalType.Int64 ? ParquetValueKind.Int64 : ParquetValueKind.Int32, TimeUnit.Unknown, tableType),
            (PhysicalType.Float, NoneLogicalType) => (ParquetValueKind.Single, TimeUnit.Unknown, DataType.Single),
            (PhysicalType.Double, NoneLogicalType) => (ParquetValueKind.Double, TimeUnit.Unknown, DataType.Double),
            (PhysicalType.FixedLenByteArray, Float16LogicalType) when column.TypeLength == 2 =>
                (ParquetValueKind.Half, TimeUnit.Unknown, DataType.Single),
            (PhysicalType.ByteArray, StringLogicalType or EnumLogicalType) => (ParquetValueKind.Text, TimeUnit.Unknown, TextCodes),
            _ => (ParquetValueKind.Unsupported, TimeUnit.Unknown, (DataType?)null),
        };
        string description = kind2 == ParquetValueKind.Unsupported
            ? $"holds {Describe(column.PhysicalType, logical)}, which a table cannot hold (numbers: {ColumnSink.TypeNames}; " +
                $"DuckDB: CAST({name} AS DOUBLE))"
            : "";
        bool? utc = logical is TimestampLogicalType zoned ? zoned.IsAdjustedToUtc : null;
        return new ParquetField(index, name, kind2, unit, type, column.MaxDefinitionLevel, description, utc);
    }

    /// <summary>The value columns a file's metadata says hold Unix seconds.</summary>
    public static IReadOnlySet<string> SecondsColumns(IReadOnlyDictionary<string, string> metadata) =>
        new HashSet<string>(
            metadata.TryGetValue(SecondsColumnsKey, out string? names) ? JsonSerializer.Deserialize<string[]>(names) ?? [] : [],
            StringComparer.Ordinal);

    /// <summary>
    /// The metadata value naming the value columns of <paramref name="columns"/> that hold Unix seconds: a JSON array,
    /// since a name may hold any character.
    /// </summary>
    public static string SecondsColumnsValue(IEnumerable<TableColumn> columns) =>
        JsonSerializer.Serialize(columns.Where(column => column.DataType == DataType.UnixSeconds).Select(column => column.Name).ToArray());

    /// <summary>
    /// The table type of a Parquet integer: the number type of its width and sign, or null where the width does not
    /// fit the physical type (64 bits in INT64, 8 to 32 in INT32).
    /// </summary>
    private static DataType? Integer(PhysicalType physical, IntLogicalType integer) =>
        (physical == PhysicalType.Int64) == (integer.BitWidth == 64)
            ? DataTypeInfo.All.FirstOrDefault(type => type.IsNumber && 8 * type.Size == integer.BitWidth
                && type.Kind == (integer.IsSigned ? DataTypeKind.SignedInteger : DataTypeKind.UnsignedInteger))?.DataType
            : null;

    private static DataType TimeType(string name, IReadOnlySet<string> secondsColumns) =>
        secondsColumns.Contains(name) ? DataType.UnixSeconds : DataType.DateTime;

    private static PrimitiveNode Primitive(string name, LogicalType logical, PhysicalType physical)
    {
        using (logical)
        {
            return new PrimitiveNode(name, Repetition.Required, logical, physical);
        }
    }

    /// <summary>A type a table cannot hold, the way a user of the source would name it.</summary>
    private static string Describe(PhysicalType physical, LogicalType logical) => logical switch
    {
        DecimalLogicalType => "DECIMAL",
        DateLogicalType => "DATE",
        TimeLogicalType => "TIME",
        JsonLogicalType => "JSON",
        UuidLogicalType => "UUID",
        IntLogicalType { BitWidth: var bits } => string.Create(CultureInfo.InvariantCulture, $"{bits}-bit integers stored as {physical}"),
        _ => physical switch
        {
            PhysicalType.ByteArray or PhysicalType.FixedLenByteArray => "bytes",
            _ => physical.ToString(),
        },
    };
}
