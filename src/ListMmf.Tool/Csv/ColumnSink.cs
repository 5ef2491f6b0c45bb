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

    /// <summary>The sink for a column of <paramref name="type"/>: double, float, long, int, short, sbyte, ulong, uint, ushort or byte.</summary>
    public static ColumnSink For(string name, int field, string type, int batch) => type switch
    {
        "double" => new ColumnSink<double>(name, field, batch),
        "float" => new ColumnSink<float>(name, field, batch),
        "long" => new ColumnSink<long>(name, field, batch),
        "int" => new ColumnSink<int>(name, field, batch),
        "short" => new ColumnSink<short>(name, field, batch),
        "sbyte" => new ColumnSink<sbyte>(name, field, batch),
        "ulong" => new ColumnSink<ulong>(name, field, batch),
        "uint" => new ColumnSink<uint>(name, field, batch),
        "ushort" => new ColumnSink<ushort>(name, field, batch),
        "byte" => new ColumnSink<byte>(name, field, batch),
        _ => throw new UsageException($"--column {name}:{type}: the type must be double, float, long, int, short, sbyte, ulong, uint, ushort or byte."),
    };
}

/// <summary>A <see cref="ColumnSink"/> of <typeparamref name="T"/> values.</summary>
internal sealed class ColumnSink<T> : ColumnSink
    where T : unmanaged, INumberBase<T>
{
    private readonly T[] _values;

    public ColumnSink(string name, int field, int batch)
        : base(name, field, DataTypeOf())
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

    private static DataType DataTypeOf() =>
        typeof(T) == typeof(double) ? DataType.Double
        : typeof(T) == typeof(float) ? DataType.Single
        : typeof(T) == typeof(long) ? DataType.Int64
        : typeof(T) == typeof(int) ? DataType.Int32
        : typeof(T) == typeof(short) ? DataType.Int16
        : typeof(T) == typeof(sbyte) ? DataType.SByte
        : typeof(T) == typeof(ulong) ? DataType.UInt64
        : typeof(T) == typeof(uint) ? DataType.UInt32
        : typeof(T) == typeof(ushort) ? DataType.UInt16
        : DataType.Byte;
}
