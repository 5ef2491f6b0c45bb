using System;
using System.Globalization;
using System.IO;
using System.Numerics;
using ListMmf.Sealed;

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
    /// Opens the file at <paramref name="path"/> read-only, in the form it is in, with the item type its code names;
    /// its times (of a time file) as UTC times where <paramref name="timesAreUtc"/>, shown with a Z.
    /// </summary>
    /// <exception cref="DataException">A struct file without a description, which alone records its item size and layout.</exception>
    public static ColumnView Open(string path, string name, DataType dataType, bool timesAreUtc = false)
    {
        DataTypeInfo type = DataTypeInfo.Of(dataType);
        return type.Kind switch
        {
            DataTypeKind.Bits => new BitColumnView(path, name),
            DataTypeKind.Struct => new StructColumnView(StructFile.Open(path), field: null, ownsFile: true),
            _ when type.IsNumber => type.Accept(new NumberView(name, timesAreUtc, new FileItems(path))),
            _ => type.Size switch
            {
                3 => new IntegerColumnView<Raw3>(EitherForm.OpenRead<Raw3>(path), name, dataType),
                5 => new IntegerColumnView<Raw5>(EitherForm.OpenRead<Raw5>(path), name, dataType),
                6 => new IntegerColumnView<Raw6>(EitherForm.OpenRead<Raw6>(path), name, dataType),
                7 => new IntegerColumnView<Raw7>(EitherForm.OpenRead<Raw7>(path), name, dataType),
                _ => throw new DataException($"'{path}': the tool cannot show {type.Name} items."),
            },
        };
    }

    /// <summary>A table's column of numbers, read through the table: its published rows, in the form its file is in.</summary>
    public static ColumnView Of(TimeSeriesTable table, TableColumn column) =>
        DataTypeInfo.Of(column.DataType).Accept(new NumberView(column.Name, TimesAreUtc: false, new TableItems(table, column.Name)));

    /// <summary>Where a <see cref="NumberView"/> takes its items from, and whether the view disposes them.</summary>
    private abstract record Items
    {
        public abstract (IReadOnlyListMmf<T> Items, bool TimesAreUtc, IDisposable? Owned) Open<T>(bool timesAreUtc)
            where T : unmanaged;
    }

    /// <summary>A file's items, opened here and disposed with the view.</summary>
    private sealed record FileItems(string Path) : Items
    {
        public override (IReadOnlyListMmf<T>, bool, IDisposable?) Open<T>(bool timesAreUtc)
        {
            IReadOnlyListMmf<T> items = EitherForm.OpenRead<T>(Path);
            return (items, timesAreUtc, (IDisposable)items);
        }
    }

    /// <summary>A table column's rows, which the table owns; its times are UTC as the table's are.</summary>
    private sealed record TableItems(TimeSeriesTable Table, string Name) : Items
    {
        public override (IReadOnlyListMmf<T>, bool, IDisposable?) Open<T>(bool timesAreUtc)
        {
            TableColumn<T> column = Table.Column<T>(Name);
            return (column, column.TimesAreUtc, null);
        }
    }

    /// <summary>A view of numbers: times (ticks, Unix seconds) formatted as times, other numbers in their invariant form.</summary>
    private sealed record NumberView(string Name, bool TimesAreUtc, Items Source) : IDataTypeVisitor<ColumnView>
    {
        public ColumnView Visit<T>(DataTypeInfo type)
            where T : unmanaged, INumber<T>, IMinMaxValue<T>
        {
            (IReadOnlyListMmf<T> items, bool utc, IDisposable? owned) = Source.Open<T>(TimesAreUtc);
            DateTimeKind kind = utc ? DateTimeKind.Utc : DateTimeKind.Unspecified;
            switch (type.Kind)
            {
                case DataTypeKind.DateTimeTicks:
                    Func<long, DateTime> ticksTime = ticks => new DateTime(ticks, kind);
                    return new ColumnView<long>((IReadOnlyListMmf<long>)items, owned, Name, type.DataType,
                        ticks => Times.Format(ticksTime(ticks), ticks: true), ticksTime);
                case DataTypeKind.UnixSeconds:
                    Func<int, DateTime> secondsTime = seconds => DateTime.SpecifyKind(ListMmfTimeSeriesDateTimeSeconds.ToDateTime(seconds), kind);
                    return new ColumnView<int>((IReadOnlyListMmf<int>)items, owned, Name, type.DataType,
                        seconds => Times.Format(secondsTime(seconds), ticks: false), secondsTime);
                default:
                    return new ColumnView<T>(
                        items, owned, Name, type.DataType, value => value.ToString(null, CultureInfo.InvariantCulture), time: null);
            }
        }
    }
}

/// <summary>A <see cref="ColumnView"/> over <typeparamref name="T"/> items.</summary>
internal sealed class ColumnView<T> : ColumnView
    where T : unmanaged, IUtf8SpanFormattable
{
    private readonly IReadOnlyListMmf<T> _list;
    private readonly IDisposable? _owned;
    private readonly Func<T, string> _format;
    private readonly Func<T, DateTime>? _time;

    /// <summary>A view of <paramref name="items"/>, which it disposes through <paramref name="owned"/> where that is not null.</summary>
    public ColumnView(IReadOnlyListMmf<T> items, IDisposable? owned, string name, DataType dataType, Func<T, string> format, Func<T, DateTime>? time)
        : base(name, dataType)
    {
        _list = items;
        _owned = owned;
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

    public override ulong Hash() => _list.ComputeXxHash3();

    public override void Verify(IProgress<double>? progress) => _list.Verify(progress);

    public override void Dispose() => _owned?.Dispose();
}
