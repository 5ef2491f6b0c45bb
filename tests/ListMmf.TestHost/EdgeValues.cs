using System;
using System.Linq;

namespace ListMmf.TestHost;

/// <summary>
/// A table with a column of every value type and five rows of edge values: each type's minimum and maximum, -1, 0
/// and 1 or their neighbours, NaN, -0 and infinities, unsigned values above the signed range, times at the ends of
/// what a time column and a Parquet or Arrow nanosecond timestamp hold. Shared by the Parquet tests and the
/// conformance stage (tests/Conformance links this file).
/// </summary>
public static class EdgeValues
{
    public const int Rows = 5;

    /// <summary>Every number type: a type added to <see cref="DataTypeInfo.All"/> gets a column, which <see cref="AddRow"/> must fill.</summary>
    public static readonly DataType[] ValueTypes = DataTypeInfo.All.Where(type => type.IsNumber).Select(type => type.DataType).ToArray();

    private static readonly DateTime Start = new(2024, 1, 2, 14, 30, 0);

    /// <summary>A time column of <paramref name="timeType"/> and a value column per type, named after it in lower case.</summary>
    public static TimeSeriesTableSchema Schema(DataType timeType, bool utc = false)
    {
        var schema = new TimeSeriesTableSchema("time", timeType, TimeSeriesOrder.Ascending) { TimesAreUtc = utc };
        foreach (DataType type in ValueTypes)
        {
            schema.Add(type.ToString().ToLowerInvariant(), type);
        }

        return schema;
    }

    /// <summary>Adds row <paramref name="row"/> (0 to 4) of the edge values to a table of <see cref="Schema"/>.</summary>
    public static void AddRow(TimeSeriesTable table, int row)
    {
        T Pick<T>(params T[] values) => values[row];
        long epoch = DateTime.UnixEpoch.Ticks;
        table.Column<sbyte>("sbyte").Add(Pick<sbyte>(sbyte.MinValue, -1, 0, 1, sbyte.MaxValue));
        table.Column<byte>("byte").Add(Pick<byte>(0, 1, 127, 128, byte.MaxValue));
        table.Column<short>("int16").Add(Pick<short>(short.MinValue, -1, 0, 1, short.MaxValue));
        table.Column<ushort>("uint16").Add(Pick<ushort>(0, 1, 32767, 32768, ushort.MaxValue));
        table.Column<int>("int32").Add(Pick(int.MinValue, -1, 0, 1, int.MaxValue));
        table.Column<uint>("uint32").Add(Pick<uint>(0, 1, int.MaxValue, 1u << 31, uint.MaxValue));
        table.Column<long>("int64").Add(Pick(long.MinValue, -1L, 0L, 1L, long.MaxValue));
        table.Column<ulong>("uint64").Add(Pick<ulong>(0, 1, long.MaxValue, 1ul << 63, ulong.MaxValue));
        table.Column<float>("single").Add(Pick(float.NegativeInfinity, -0f, float.NaN, float.Epsilon, float.MaxValue));
        table.Column<double>("double").Add(Pick(double.NegativeInfinity, -0d, double.NaN, double.Epsilon, double.PositiveInfinity));
        table.Column<long>("datetime").Add(Pick(new DateTime(1677, 9, 22).Ticks, epoch - 1, epoch, Start.Ticks + 1, new DateTime(2262, 4, 10).Ticks));
        table.Column<int>("unixseconds").Add(Pick(int.MinValue, int.MinValue + 1, -1, 0, int.MaxValue));
        DateTime time = table.Schema.Time.DataType == DataType.DateTime
            ? Pick(new DateTime(1677, 9, 22), DateTime.UnixEpoch.AddTicks(-1), DateTime.UnixEpoch, Start.AddTicks(1), new DateTime(2262, 4, 10))
            : Pick(DateTime.MinValue, new DateTime(1901, 12, 14), DateTime.UnixEpoch.AddSeconds(-1), Start, new DateTime(2038, 1, 19));

        // A table recorded as UTC takes a UTC time only; the clock reading is the same either way.
        table.AddRow(DateTime.SpecifyKind(time, table.Schema.TimesAreUtc ? DateTimeKind.Utc : DateTimeKind.Unspecified));
    }
}
