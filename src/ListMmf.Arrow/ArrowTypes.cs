using System;
using System.Collections.Generic;
using Apache.Arrow;
using Apache.Arrow.Types;

namespace ListMmf.Arrow;

/// <summary>The Arrow type of each ListMmf data type: the one place this package maps <see cref="DataTypeInfo"/> to Arrow.</summary>
internal static class ArrowTypes
{
    /// <summary>The zone Arrow records for instants in UTC.</summary>
    public const string Utc = "UTC";

    private static readonly TimestampType Seconds = new(TimeUnit.Second, (string?)null);
    private static readonly TimestampType Nanoseconds = new(TimeUnit.Nanosecond, (string?)null);
    private static readonly TimestampType SecondsUtc = new(TimeUnit.Second, Utc);
    private static readonly TimestampType NanosecondsUtc = new(TimeUnit.Nanosecond, Utc);

    /// <summary>
    /// The timestamp type of a time column: in UTC (<paramref name="utc"/>, a table recorded as UTC, which Arrow's
    /// readers then show as instants) or without a zone.
    /// </summary>
    public static TimestampType Timestamp(bool ticks, bool utc) => (ticks, utc) switch
    {
        (false, false) => Seconds,
        (false, true) => SecondsUtc,
        (true, false) => Nanoseconds,
        (true, true) => NanosecondsUtc,
    };

    /// <summary>
    /// The Arrow type <paramref name="type"/>'s values are handed over as, or null when Arrow has no fixed-width type
    /// for them: times as timestamps (in UTC when <paramref name="utc"/>), or as the stored integers with
    /// <see cref="ArrowTimeColumn.Stored"/>.
    /// </summary>
    public static IArrowType? Of(DataTypeInfo type, ArrowTimeColumn time, bool utc = false) => type.IsNumber
        ? (type.Kind, type.Size, time) switch
        {
            (DataTypeKind.UnixSeconds, _, ArrowTimeColumn.Timestamp) => Timestamp(ticks: false, utc),
            (DataTypeKind.DateTimeTicks, _, ArrowTimeColumn.Timestamp) => Timestamp(ticks: true, utc),
            (DataTypeKind.SignedInteger or DataTypeKind.UnixSeconds or DataTypeKind.DateTimeTicks, var size, _) => SignedInteger(size),
            (DataTypeKind.UnsignedInteger, 1, _) => UInt8Type.Default,
            (DataTypeKind.UnsignedInteger, 2, _) => UInt16Type.Default,
            (DataTypeKind.UnsignedInteger, 4, _) => UInt32Type.Default,
            (DataTypeKind.UnsignedInteger, 8, _) => UInt64Type.Default,
            (DataTypeKind.FloatingPoint, 4, _) => FloatType.Default,
            (DataTypeKind.FloatingPoint, 8, _) => DoubleType.Default,
            _ => null,
        }
        : null;

    /// <summary>The Arrow type of the column <paramref name="name"/>, of <paramref name="type"/>.</summary>
    /// <exception cref="NotSupportedException">Arrow has no type for <paramref name="type"/>.</exception>
    public static IArrowType Required(string name, DataTypeInfo type, ArrowTimeColumn time, bool utc = false) =>
        Of(type, time, utc) ?? throw new NotSupportedException($"Column '{name}': Arrow has no fixed-width type for {type.Name} values.");

    /// <summary>A non-nullable field of <paramref name="type"/>, its metadata naming the ListMmf data type.</summary>
    /// <exception cref="NotSupportedException">Arrow has no type for <paramref name="type"/>.</exception>
    public static Field Field(string name, DataTypeInfo type, ArrowTimeColumn time, bool utc) =>
        new(name, Required(name, type, time, utc), nullable: false,
            [new KeyValuePair<string, string>(ListMmfArrowExtensions.DataTypeKey, type.Name)]);

    /// <summary>
    /// The type of a text column: a dictionary of UTF-8 strings with Int32 indices, the index type every Arrow
    /// reader takes (the format recommends signed indices; a Byte or UInt16 code does not fit a narrower signed one).
    /// </summary>
    public static readonly DictionaryType Text = new(Int32Type.Default, StringType.Default, ordered: false);

    /// <summary>A non-nullable text field, its metadata saying the column is a ListMmf text column.</summary>
    public static Field TextField(string name) =>
        new(name, Text, nullable: false, [new KeyValuePair<string, string>(ListMmfArrowExtensions.DataTypeKey, "Text")]);

    private static IArrowType? SignedInteger(int size) => size switch
    {
        1 => Int8Type.Default,
        2 => Int16Type.Default,
        4 => Int32Type.Default,
        8 => Int64Type.Default,
        _ => null,
    };
}
