using System;
using System.Globalization;
using System.Numerics;

namespace ListMmf.Tool.Csv;

/// <summary>A value column being imported: parses its CSV field of each row into a batch, then appends the batch to its table column.</summary>
internal abstract class ColumnSink
{
    protected ColumnSink(string name, int field, DataType dataType)
    {
        Name = name;
        Field = field;
        DataType = dataType;
    }

    public string Name { get; }

    /// <summary>The column's field index in the CSV.</summary>
    public int Field { get; }

    public DataType DataType { get; }

    public abstract bool TryParse(ReadOnlySpan<byte> text, int index);

    public abstract void AppendTo(TimeSeriesTable table, int count);

    /// <summary>The data-type code a column of <paramref name="type"/> is stored with: double, float, long, int, short, sbyte, ulong, uint, ushort or byte.</summary>
    /// <exception cref="UsageException">Another type.</exception>
    public static DataType DataTypeOf(string name, string type) => type switch
    {
        "double" => DataType.Double,
        "float" => DataType.Single,
        "long" => DataType.Int64,
        "int" => DataType.Int32,
        "short" => DataType.Int16,
        "sbyte" => DataType.SByte,
        "ulong" => DataType.UInt64,
        "uint" => DataType.UInt32,
        "ushort" => DataType.UInt16,
        "byte" => DataType.Byte,
        _ => throw new UsageException($"--column {name}:{type}: the type must be double, float, long, int, short, sbyte, ulong, uint, ushort or byte."),
    };

    /// <summary>The sink for a column of <paramref name="type"/> (see <see cref="DataTypeOf"/>), with room for <paramref name="batch"/> rows.</summary>
    public static ColumnSink For(string name, int field, string type, int batch) => DataTypeOf(name, type) switch
    {
        DataType.Double => new ColumnSink<double>(name, field, DataType.Double, batch),
        DataType.Single => new ColumnSink<float>(name, field, DataType.Single, batch),
        DataType.Int64 => new ColumnSink<long>(name, field, DataType.Int64, batch),
        DataType.Int32 => new ColumnSink<int>(name, field, DataType.Int32, batch),
        DataType.Int16 => new ColumnSink<short>(name, field, DataType.Int16, batch),
        DataType.SByte => new ColumnSink<sbyte>(name, field, DataType.SByte, batch),
        DataType.UInt64 => new ColumnSink<ulong>(name, field, DataType.UInt64, batch),
        DataType.UInt32 => new ColumnSink<uint>(name, field, DataType.UInt32, batch),
        DataType.UInt16 => new ColumnSink<ushort>(name, field, DataType.UInt16, batch),
        _ => new ColumnSink<byte>(name, field, DataType.Byte, batch),
    };
}

/// <summary>A <see cref="ColumnSink"/> of <typeparamref name="T"/> values.</summary>
internal sealed class ColumnSink<T> : ColumnSink
    where T : unmanaged, INumberBase<T>
{
    private readonly T[] _values;

    public ColumnSink(string name, int field, DataType dataType, int batch)
        : base(name, field, dataType)
    {
        _values = new T[batch];
    }

    /// <summary>
    /// Invariant numbers without thousands separators (a quoted "4501,25" is no number); a float or double beyond
    /// its range is refused, not stored as infinity, while "Infinity" and "NaN" spelled out are taken as written.
    /// </summary>
    public override bool TryParse(ReadOnlySpan<byte> text, int index)
    {
        NumberStyles style = typeof(T) == typeof(double) || typeof(T) == typeof(float) ? NumberStyles.Float : NumberStyles.Integer;
        return T.TryParse(text, style, CultureInfo.InvariantCulture, out _values[index])
            && (!T.IsInfinity(_values[index]) || text.IndexOfAny((byte)'n', (byte)'N') >= 0);
    }

    public override void AppendTo(TimeSeriesTable table, int count) => table.Column<T>(Name).AddRange(_values.AsSpan(0, count));
}
