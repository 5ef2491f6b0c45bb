using System;
using System.Collections.Generic;
using Parquet.Schema;

namespace ListMmf.Tool.Parquet;

/// <summary>How table columns and Parquet fields correspond, both ways, and the metadata that lets a table come back as it was.</summary>
internal static class ParquetColumns
{
    /// <summary>The key-value metadata key naming the time column.</summary>
    public const string TimeColumnKey = "listmmf.time_column";

    /// <summary>The key-value metadata key holding the time column's data type (UnixSeconds or DateTime).</summary>
    public const string TimeTypeKey = "listmmf.time_type";

    /// <summary>The key-value metadata key holding the table's order.</summary>
    public const string OrderKey = "listmmf.order";

    private static readonly Dictionary<Type, DataType> ValueTypes = new()
    {
        [typeof(double)] = DataType.Double,
        [typeof(float)] = DataType.Single,
        [typeof(long)] = DataType.Int64,
        [typeof(int)] = DataType.Int32,
        [typeof(short)] = DataType.Int16,
        [typeof(sbyte)] = DataType.SByte,
        [typeof(ulong)] = DataType.UInt64,
        [typeof(uint)] = DataType.UInt32,
        [typeof(ushort)] = DataType.UInt16,
        [typeof(byte)] = DataType.Byte,
    };

    /// <summary>
    /// The Parquet field of a table column. Times are Parquet timestamps without a time zone: milliseconds for a
    /// Unix-seconds column (Parquet has no seconds unit), nanoseconds for ticks (microseconds would round them).
    /// </summary>
    public static DataField Field(string name, DataType dataType) => dataType switch
    {
        DataType.UnixSeconds => new DateTimeDataField(
            name,
            DateTimeFormat.Timestamp,
            isAdjustedToUTC: false,
            DateTimeTimeUnit.Millis,
            isNullable: false),
        DataType.DateTime => new DateTimeDataField(name, DateTimeFormat.Timestamp, isAdjustedToUTC: false, DateTimeTimeUnit.Nanos, isNullable: false),
        _ => new DataField(name, ClrType(dataType), isNullable: false),
    };

    /// <summary>The table column type a Parquet field becomes, or null when a table cannot hold it.</summary>
    public static DataType? ValueType(DataField field) => ValueTypes.TryGetValue(field.ClrType, out DataType type) ? type : null;

    public static bool IsTime(DataField field) => field is DateTimeDataField
    {
        DateTimeFormat: DateTimeFormat.Timestamp or DateTimeFormat.DateAndTime or DateTimeFormat.DateAndTimeMicros or DateTimeFormat.Impala,
    };

    /// <summary>A type a table cannot hold, the way a user of the source would name it.</summary>
    public static string Describe(DataField field) => field switch
    {
        DecimalDataField => "DECIMAL",
        DateTimeDataField { DateTimeFormat: DateTimeFormat.Date } => "DATE",
        _ when field.IsArray => $"a list of {field.ClrType.Name}",
        _ when field.ClrType == typeof(string) || field.ClrType == typeof(ReadOnlyMemory<char>) => "text",
        _ when field.ClrType == typeof(byte[]) || field.ClrType == typeof(ReadOnlyMemory<byte>) => "bytes",
        _ => field.ClrType.Name,
    };

    private static Type ClrType(DataType dataType)
    {
        foreach ((Type clr, DataType type) in ValueTypes)
        {
            if (type == dataType)
            {
                return clr;
            }
        }

        throw new NotSupportedException($"A {dataType} column has no Parquet type.");
    }
}
