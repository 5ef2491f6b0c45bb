using System;
using System.Buffers.Binary;
using System.Globalization;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;

namespace ListMmf.Tool.Files;

/// <summary>
/// A struct file's items as text, through its description: one field per column for the row commands, or the whole
/// item as <c>name=value</c> pairs for <c>info</c> and <c>verify</c>; the item's bytes in hex where the description
/// records no fields (a file written under NativeAOT without the struct's fields kept).
/// </summary>
internal sealed class StructColumnView : ColumnView
{
    private readonly StructFile _file;
    private readonly ListMmfField? _field;
    private readonly bool _ownsFile;

    /// <summary>A view of <paramref name="field"/>, or of whole items when null; disposes the file if it owns it.</summary>
    public StructColumnView(StructFile file, ListMmfField? field, bool ownsFile)
        : base(field?.Name ?? System.IO.Path.GetFileName(file.Path), DataType.AnyStruct)
    {
        _file = file;
        _field = field;
        _ownsFile = ownsFile;
    }

    public override long Count => _file.Count;

    public override string Format(long index)
    {
        byte[] item = new byte[_file.Description.ItemSize];
        _file.Read(index, item);
        return (_field, _file.Description.Fields.Count) switch
        {
            ({ } field, _) => FormatField(item.AsSpan(field.Offset, field.Size), field.Type),
            (null, 0) => Convert.ToHexString(item),
            _ => string.Join(
                " ", _file.Description.Fields.Select(each => $"{each.Name}={FormatField(item.AsSpan(each.Offset, each.Size), each.Type)}")),
        };
    }

    public override bool TryWriteUtf8(long index, Span<byte> destination, out int written)
    {
        string text = Format(index);
        return Encoding.UTF8.TryGetBytes(text, destination, out written);
    }

    public override DateTime TimeAt(long index) => throw new InvalidOperationException($"{Name} holds no times.");

    public override ulong Hash() => _file.Hash(null);

    public override void Verify(IProgress<double>? progress) => _file.Hash(progress);

    public override void Dispose()
    {
        if (_ownsFile)
        {
            _file.Dispose();
        }
    }

    /// <summary>A field's bytes as text, by the type its description names; bytes of any other type in hex.</summary>
    private static string FormatField(ReadOnlySpan<byte> bytes, string type)
    {
        CultureInfo invariant = CultureInfo.InvariantCulture;
        return type switch
        {
            "SByte" => ((sbyte)bytes[0]).ToString(invariant),
            "Byte" => bytes[0].ToString(invariant),
            "Int16" => BinaryPrimitives.ReadInt16LittleEndian(bytes).ToString(invariant),
            "UInt16" => BinaryPrimitives.ReadUInt16LittleEndian(bytes).ToString(invariant),
            "Int32" => BinaryPrimitives.ReadInt32LittleEndian(bytes).ToString(invariant),
            "UInt32" => BinaryPrimitives.ReadUInt32LittleEndian(bytes).ToString(invariant),
            "Int64" or "IntPtr" => BinaryPrimitives.ReadInt64LittleEndian(bytes).ToString(invariant),
            "UInt64" or "UIntPtr" => BinaryPrimitives.ReadUInt64LittleEndian(bytes).ToString(invariant),
            "Int128" => BinaryPrimitives.ReadInt128LittleEndian(bytes).ToString(invariant),
            "UInt128" => BinaryPrimitives.ReadUInt128LittleEndian(bytes).ToString(invariant),
            "Half" => BinaryPrimitives.ReadHalfLittleEndian(bytes).ToString(invariant),
            "Single" => BinaryPrimitives.ReadSingleLittleEndian(bytes).ToString(invariant),
            "Double" => BinaryPrimitives.ReadDoubleLittleEndian(bytes).ToString(invariant),
            "Boolean" => bytes[0] != 0 ? "true" : "false",
            "Char" => ((char)BinaryPrimitives.ReadUInt16LittleEndian(bytes)).ToString(),
            "Decimal" => MemoryMarshal.Read<decimal>(bytes).ToString(invariant),
            "DateTime" => Times.Format(MemoryMarshal.Read<DateTime>(bytes), ticks: true),
            "DateTimeOffset" => MemoryMarshal.Read<DateTimeOffset>(bytes).ToString("O", invariant),
            "TimeSpan" => new TimeSpan(BinaryPrimitives.ReadInt64LittleEndian(bytes)).ToString("c", invariant),
            "Guid" => new Guid(bytes).ToString(),
            _ => "0x" + Convert.ToHexString(bytes),
        };
    }
}
