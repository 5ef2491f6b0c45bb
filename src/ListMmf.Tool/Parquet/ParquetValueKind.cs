namespace ListMmf.Tool.Parquet;

/// <summary>How a Parquet column stores its values, as far as a table column cares.</summary>
internal enum ParquetValueKind
{
    /// <summary>Nothing a table can hold: decimals, dates, booleans, bytes, nested columns.</summary>
    Unsupported,

    /// <summary>BYTE_ARRAY annotated STRING or ENUM: UTF-8 text, for a text column.</summary>
    Text,

    /// <summary>INT32, of any width and signedness its annotation gives.</summary>
    Int32,

    /// <summary>INT64, signed or unsigned.</summary>
    Int64,

    /// <summary>FLOAT.</summary>
    Single,

    /// <summary>DOUBLE.</summary>
    Double,

    /// <summary>FLOAT16: two bytes of an IEEE half, read as a float.</summary>
    Half,

    /// <summary>INT64 annotated TIMESTAMP in milliseconds, microseconds or nanoseconds since 1970.</summary>
    Timestamp,

    /// <summary>INT96, the legacy timestamp of Impala, Hive and Spark: nanoseconds of the day, then the Julian day.</summary>
    Int96Timestamp,
}
