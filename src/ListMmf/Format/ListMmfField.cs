namespace ListMmf;

/// <summary>
/// One field of a struct item as its file's description records it: where it is in the item and what it holds.
/// </summary>
/// <param name="Name">The field's name; a nested struct's fields are named <c>Outer.Inner</c>, and an item that is a
/// single value (a <see cref="bool"/>, a <see cref="decimal"/>) has one field named <c>value</c>.</param>
/// <param name="Offset">The field's first byte within the item.</param>
/// <param name="Size">The field's size in bytes.</param>
/// <param name="Type">The .NET name of the value type it holds (<c>Int32</c>, <c>Double</c>, <c>Boolean</c>,
/// <c>Decimal</c>, <c>DateTime</c>, ...), an enum as its underlying type, <c>Byte[8]</c> for a fixed buffer of 8
/// bytes, or <c>Bytes</c> for a value the description does not look inside.</param>
public sealed record ListMmfField(string Name, int Offset, int Size, string Type);
