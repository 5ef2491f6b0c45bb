using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace ListMmf;

/// <summary>
/// The fields of an unmanaged type as the runtime lays them out, found by experiment rather than computed: the
/// runtime may reorder fields (a struct holding a <see cref="DateTime"/> is laid out automatically), and
/// <c>Marshal.OffsetOf</c> gives the marshalled layout, which differs for <see cref="bool"/> and <see cref="char"/>.
/// </summary>
internal static class ItemLayout
{
    /// <summary>Values the description names rather than looks inside.</summary>
    private static readonly Dictionary<Type, string> Values = new[]
    {
        typeof(sbyte), typeof(byte), typeof(short), typeof(ushort), typeof(int), typeof(uint), typeof(long), typeof(ulong),
        typeof(float), typeof(double), typeof(bool), typeof(char), typeof(decimal), typeof(Half), typeof(Int128),
        typeof(UInt128), typeof(nint), typeof(nuint), typeof(DateTime), typeof(DateTimeOffset), typeof(TimeSpan), typeof(Guid),
    }.ToDictionary(type => type, type => type.Name);

    /// <summary>
    /// The fields of <typeparamref name="T"/>, in the order of their offsets; none when reflection cannot see the
    /// fields of T or of a struct inside it.
    /// </summary>
    /// <remarks>
    /// Under NativeAOT a struct's fields are visible to reflection only where the application keeps them (see the
    /// guide's NativeAOT section); otherwise its files record and check the item size alone. Recording a layout
    /// that is only partly seen would make every other process refuse the file.
    /// </remarks>
    public static unsafe ListMmfField[] Of<T>()
        where T : unmanaged
    {
        var fields = new List<ListMmfField>();
        return Describe(typeof(T), sizeof(T), "", 0, fields) ? fields.OrderBy(field => field.Offset).ToArray() : [];
    }

    // The trimmer keeps an unmanaged type's fields in the JIT; NativeAOT drops their metadata unless the application
    // keeps it, which Describe detects as a struct without fields.
    [UnconditionalSuppressMessage("Trimming", "IL2067", Justification = "An unmanaged type's instance fields are its layout.")]
    [UnconditionalSuppressMessage("Trimming", "IL2070", Justification = "An unmanaged type's instance fields are its layout.")]
    [UnconditionalSuppressMessage("Trimming", "IL2072", Justification = "An unmanaged type's instance fields are its layout.")]
    [UnconditionalSuppressMessage("Trimming", "IL2075", Justification = "An unmanaged type's instance fields are its layout.")]
    private static bool Describe(Type type, int size, string name, int offset, List<ListMmfField> fields)
    {
        string named = name.Length == 0 ? "value" : name;
        if (type.IsEnum)
        {
            type = Enum.GetUnderlyingType(type);
        }

        if (Values.TryGetValue(type, out string? value))
        {
            fields.Add(new ListMmfField(named, offset, size, value));
            return true;
        }

        FieldInfo[] members = type.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);
        if (members.Length == 0)
        {
            return false;
        }

        object item = RuntimeHelpers.GetUninitializedObject(type);
        foreach (FieldInfo member in members)
        {
            (int at, int length) = Locate(item, size, member);
            string inner = name.Length == 0 ? FieldName(member) : $"{name}.{FieldName(member)}";
            if (member.GetCustomAttribute<FixedBufferAttribute>() is { } buffer)
            {
                fields.Add(new ListMmfField(inner, offset + at, length, $"{ElementName(buffer.ElementType)}[{buffer.Length}]"));
            }
            else if (member.FieldType.GetCustomAttribute<InlineArrayAttribute>() is { } array)
            {
                Type element = member.FieldType.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic)[0].FieldType;
                fields.Add(new ListMmfField(inner, offset + at, length, $"{ElementName(element)}[{array.Length}]"));
            }
            else if (!Describe(member.FieldType, length, inner, offset + at, fields))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Where <paramref name="member"/> lies in an item of <paramref name="size"/> bytes: with every byte of the item
    /// set, the bytes that storing the member's zero value clears.
    /// </summary>
    [UnconditionalSuppressMessage("Trimming", "IL2072", Justification = "A field's zero value needs no constructor.")]
    private static (int Offset, int Length) Locate(object item, int size, FieldInfo member)
    {
        Span<byte> bytes = RawBytes(item, size);
        bytes.Fill(0xFF);
        member.SetValue(item, RuntimeHelpers.GetUninitializedObject(member.FieldType));
        int first = bytes.IndexOf((byte)0);
        int last = bytes.LastIndexOf((byte)0);
        return (first, last - first + 1);
    }

    /// <summary>The value inside a boxed struct: its bytes start where a class's first field would.</summary>
    private static Span<byte> RawBytes(object boxed, int size) =>
        System.Runtime.InteropServices.MemoryMarshal.CreateSpan(ref Unsafe.As<RawData>(boxed).Data, size);

    private static string ElementName(Type element) =>
        Values.TryGetValue(element.IsEnum ? Enum.GetUnderlyingType(element) : element, out string? name) ? name : "Bytes";

    /// <summary>An auto-property's field is named after the property.</summary>
    private static string FieldName(FieldInfo member) =>
        member.Name.StartsWith('<') && member.Name.IndexOf('>') is > 1 and int end ? member.Name[1..end] : member.Name;

    private sealed class RawData
    {
        public byte Data;
    }
}
