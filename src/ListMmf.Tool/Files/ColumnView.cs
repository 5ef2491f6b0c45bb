using System;
using System.Globalization;
using System.IO;
using System.Numerics;

namespace ListMmf.Tool.Files;

/// <summary>
/// One file's items, of whatever type its header says, as text: what <c>head</c>, <c>tail</c>, <c>info</c> and
/// <c>verify</c> show. Time files show their items as times, bit files their bits as 0 and 1, and struct files their
/// fields, as their description records them.
/// </summary>
internal abstract class ColumnView : IDisposable
{
    protected ColumnView(string name, DataType dataType)
    {
        Name = name;
        DataType = dataType;
    }

    public string Name { get; }

    public DataType DataType { get; }

    public bool IsTime => DataTypeInfo.Of(DataType).IsTime;

    public abstract long Count { get; }

    public abstract string Format(long index);

    /// <summary>Writes the item at <paramref name="index"/> as UTF-8 text (numbers in their shortest round-trip form).</summary>
    public abstract bool TryWriteUtf8(long index, Span<byte> destination, out int written);

    /// <summary>The item at <paramref name="index"/> of a time file, as a time.</summary>
    public abstract DateTime TimeAt(long index);

    /// <summary>What <c>verify</c> prints to fingerprint the items: their XXH3.</summary>
    public virtual string Fingerprint => $"XXH3 {Hash():x16}";

    public abstract ulong Hash();

    /// <summary>Checks the header again and that every item can be read through the file; see <see cref="ListMmf{T}.Verify()"/>.</summary>
    public abstract void Verify(IProgress<double>? progress);

    public abstract void Dispose();

    /// <summary>
    /// Opens the file at <paramref name="path"/> read-only with the item type its code names; its times (of a time
    /// file) as UTC times where <paramref name="timesAreUtc"/>, shown with a Z.
    /// </summary>
    /// <exception cref="DataException">A struct file without a description, which alone records its item size and layout.</exception>
    public static ColumnView Open(string path, string name, DataType dataType, bool timesAreUtc = false)
    {
        DataTypeInfo type = DataTypeInfo.Of(dataType);
        DateTimeKind kind = timesAreUtc ? DateTimeKind.Utc : DateTimeKind.Unspecified;
        Func<long, DateTime> ticksTime = ticks => new DateTime(ticks, kind);
        Func<int, DateTime> secondsTime = seconds => DateTime.SpecifyKind(ListMmfTimeSeriesDateTimeSeconds.ToDateTime(seconds), kind);
        return type.Kind switch
        {
            DataTypeKind.DateTimeTicks =>
                new ColumnView<long>(path, name, dataType, ticks => Times.Format(ticksTime(ticks), ticks: true), ticksTime),
            DataTypeKind.UnixSeconds =>
                new ColumnView<int>(path, name, dataType, seconds => Times.Format(secondsTime(seconds), ticks: false), secondsTime),
            DataTypeKind.Bits => new BitColumnView(path, name),
            DataTypeKind.Struct => new StructColumnView(StructFile.Open(path), field: null, ownsFile: true),
            _ when type.IsNumber => type.Accept(new NumberView(path, name)),
            _ => type.Size switch
            {
                3 => new IntegerColumnView<Raw3>(path, name, dataType),
                5 => new IntegerColumnView<Raw5>(path, name, dataType),
                6 => new IntegerColumnView<Raw6>(path, name, dataType),
                7 => new IntegerColumnView<Raw7>(path, name, dataType),
                _ => throw new DataException($"'{path}': the tool cannot show {type.Name} items."),
            },
        };
    }

    private sealed record NumberView(string Path, string Name) : IDataTypeVisitor<ColumnView>
    {
        public ColumnView Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T> =>
            new ColumnView<T>(Path, Name, type.DataType, value => value.ToString(null, CultureInfo.InvariantCulture), time: null);
    }
}

/// <summary>A <see cref="ColumnView"/> over <typeparamref name="T"/> items.</summary>
internal sealed class ColumnView<T> : ColumnView
    where T : unmanaged, IUtf8SpanFormattable
{
    private readonly ColumnItems<T> _list;
    private readonly Func<T, string> _format;
    private readonly Func<T, DateTime>? _time;

    public ColumnView(string path, string name, DataType dataType, Func<T, string> format, Func<T, DateTime>? time)
        : base(name, dataType)
    {
        _list = ColumnItems<T>.Open(path);
        _format = format;
        _time = time;
    }

    public override long Count => _list.Count;

    public override string Format(long index)
    {
        T item = _list[index];
        return _format(item);
    }

    public override bool TryWriteUtf8(long index, Span<byte> destination, out int written)
    {
        T item = _list[index];
        return item.TryFormat(destination, out written, default, CultureInfo.InvariantCulture);
    }

    public override DateTime TimeAt(long index)
    {
        T item = _list[index];
        return _time is null ? throw new InvalidOperationException($"{Name} holds no times.") : _time(item);
    }

    public override ulong Hash() => _list.Hash();

    public override void Verify(IProgress<double>? progress) => _list.Verify(progress);

    public override void Dispose() => _list.Dispose();
}
