using System;
using System.Globalization;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Tool.Import;

/// <summary>
/// A value column being imported: fills a batch, from the CSV field of each row or from a Parquet column chunk,
/// then appends the batch to its table column.
/// </summary>
internal abstract class ColumnSink
{
    protected ColumnSink(string name, int field)
    {
        Name = name;
        Field = field;
    }

    public string Name { get; }

    /// <summary>The column's field index in the CSV, or in the Parquet schema's data fields.</summary>
    public int Field { get; }

    public abstract bool TryParse(ReadOnlySpan<byte> text, int index);

    /// <summary>
    /// Reads the first <paramref name="count"/> values of the batch through <paramref name="reader"/>; returns the
    /// first row whose value is null, or -1.
    /// </summary>
    public abstract int Read(IBatchReader reader, int count);

    public abstract void AppendTo(TimeSeriesTable table, int count);

    /// <summary>
    /// The data-type code a column of <paramref name="type"/> is stored with: double, float, long, int, short,
    /// sbyte, ulong, uint, ushort or byte.
    /// </summary>
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
        _ => throw new UsageException($"--column {name}:{type}: the type must be double, float, long, int, short, " +
            $"sbyte, ulong, uint, ushort or byte."),
    };

    /// <summary>The values a column of <paramref name="type"/> (one <see cref="DataTypeOf"/> takes) holds, for messages.</summary>
    public static string RangeOf(string type) => type switch
    {
        "long" => $"{long.MinValue} to {long.MaxValue}",
        "int" => $"{int.MinValue} to {int.MaxValue}",
        "short" => $"{short.MinValue} to {short.MaxValue}",
        "sbyte" => $"{sbyte.MinValue} to {sbyte.MaxValue}",
        "ulong" => $"0 to {ulong.MaxValue}",
        "uint" => $"0 to {uint.MaxValue}",
        "ushort" => $"0 to {ushort.MaxValue}",
        "byte" => $"0 to {byte.MaxValue}",
        _ => "a floating-point number",
    };

    /// <summary>
    /// The sink for a column of <paramref name="type"/> (one <see cref="DataTypeOf"/> gives), with room for
    /// <paramref name="batch"/> rows.
    /// </summary>
    public static ColumnSink For(string name, int field, DataType type, int batch) =>
        DataTypeDispatch.Invoke(type, new Factory(name, field, batch));

    private sealed record Factory(string Name, int Field, int Batch) : IDataTypeFunc<ColumnSink>
    {
        public ColumnSink Invoke<T>()
            where T : unmanaged, INumber<T> =>
            new ColumnSink<T>(Name, Field, Batch);
    }
}

/// <summary>A <see cref="ColumnSink"/> of <typeparamref name="T"/> values.</summary>
internal sealed class ColumnSink<T> : ColumnSink
    where T : unmanaged, INumberBase<T>
{
    private readonly T[] _values;

    public ColumnSink(string name, int field, int batch)
        : base(name, field)
    {
        _values = new T[batch];
    }

    /// <summary>
    /// Invariant numbers without thousands separators (a quoted "4501,25" is no number); a float or double beyond
    /// its range is refused, not stored as infinity, while "Infinity" and "NaN" spelled out are taken as written.
    /// </summary>
    public override bool TryParse(ReadOnlySpan<byte> text, int index)
    {
        if (typeof(T) == typeof(double) && DecimalText.TryParse(text, out double plain))
        {
            _values[index] = Unsafe.As<double, T>(ref plain);
            return true;
        }

        NumberStyles style = typeof(T) == typeof(double) || typeof(T) == typeof(float) ? NumberStyles.Float : NumberStyles.Integer;
        return T.TryParse(text, style, CultureInfo.InvariantCulture, out _values[index])
            && (!T.IsInfinity(_values[index]) || text.IndexOfAny((byte)'n', (byte)'N') >= 0);
    }

    public override int Read(IBatchReader reader, int count) => reader.Read(_values.AsSpan(0, count));

    public override void AppendTo(TimeSeriesTable table, int count) => table.Column<T>(Name).AddRange(_values.AsSpan(0, count));
}
