using System;
using System.Globalization;
using System.Linq;
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
    /// The column given as <c>name:type</c>: <paramref name="type"/> is the C# keyword of a number type
    /// (<see cref="DataTypeInfo.Keyword"/>), or text: <c>text</c> (codes of two bytes, 65,536 distinct values),
    /// <c>text8</c> (one byte, 256) or <c>text32</c> (four bytes).
    /// </summary>
    /// <exception cref="UsageException">Another type.</exception>
    public static ImportColumn ColumnOf(string name, string type) => type switch
    {
        "text" or "text16" => new ImportColumn(name, DataType.UInt16, IsText: true),
        "text8" => new ImportColumn(name, DataType.Byte, IsText: true),
        "text32" => new ImportColumn(name, DataType.UInt32, IsText: true),
        _ => new ImportColumn(name, DataTypeInfo.All.FirstOrDefault(info => info.Keyword == type)?.DataType
            ?? throw new UsageException($"--column {name}:{type}: the type must be {TypeNames}, or text, text8 or text32.")),
    };

    /// <summary>The number types a value column takes, for help and messages: "sbyte, byte, …, float or double".</summary>
    public static string TypeNames => $"{string.Join(", ", Keywords.SkipLast(1))} or {Keywords[^1]}";

    /// <summary>The values a column of <paramref name="type"/> holds, for messages.</summary>
    public static string RangeOf(DataType type) => DataTypeInfo.Of(type).Accept(new Range());

    /// <summary>The sink for <paramref name="column"/>, with room for <paramref name="batch"/> rows.</summary>
    public static ColumnSink For(ImportColumn column, int field, int batch) => column.IsText
        ? new TextSink(column.Name, field, batch)
        : DataTypeInfo.Of(column.Type).Accept(new Factory(column.Name, field, batch));

    private static string[] Keywords => DataTypeInfo.All.Select(info => info.Keyword).OfType<string>().ToArray();

    private sealed record Factory(string Name, int Field, int Batch) : IDataTypeVisitor<ColumnSink>
    {
        public ColumnSink Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> =>
            new ColumnSink<T>(Name, Field, Batch, type.Kind == DataTypeKind.FloatingPoint);
    }

    private sealed record Range : IDataTypeVisitor<string>
    {
        public string Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> =>
            type.Kind == DataTypeKind.FloatingPoint
                ? "a floating-point number"
                : string.Create(CultureInfo.InvariantCulture, $"{T.MinValue} to {T.MaxValue}");
    }
}

/// <summary>A <see cref="ColumnSink"/> of <typeparamref name="T"/> values.</summary>
internal sealed class ColumnSink<T> : ColumnSink
    where T : unmanaged, INumberBase<T>
{
    private readonly T[] _values;
    private readonly NumberStyles _style;

    public ColumnSink(string name, int field, int batch, bool floatingPoint)
        : base(name, field)
    {
        _values = new T[batch];
        _style = floatingPoint ? NumberStyles.Float : NumberStyles.Integer;
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

        if (typeof(T) == typeof(int) && IntegerText.TryParse(text, out long whole) && whole == (int)whole)
        {
            int narrow = (int)whole;
            _values[index] = Unsafe.As<int, T>(ref narrow);
            return true;
        }

        if (typeof(T) == typeof(long) && IntegerText.TryParse(text, out long wide))
        {
            _values[index] = Unsafe.As<long, T>(ref wide);
            return true;
        }

        return T.TryParse(text, _style, CultureInfo.InvariantCulture, out _values[index])
            && (!T.IsInfinity(_values[index]) || text.IndexOfAny((byte)'n', (byte)'N') >= 0);
    }

    public override int Read(IBatchReader reader, int count) => reader.Read(_values.AsSpan(0, count));

    public override void AppendTo(TimeSeriesTable table, int count) => table.Column<T>(Name).AddRange(_values.AsSpan(0, count));
}
