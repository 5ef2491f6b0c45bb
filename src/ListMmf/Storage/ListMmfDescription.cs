using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.Json;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// What a file records about its items beyond its header's data-type code: the item size and, for struct items,
/// the field layout; for a sorted list or time series, its order and whether its times are UTC. A version 2 file
/// holds it in its header; a version 1 file in a small JSON file beside it (<c>&lt;file&gt;.listmmf.json</c>). A
/// reader uses it to refuse a wrong open (a struct of another size or layout, a stricter order) and to show the data
/// field by field.
/// </summary>
/// <remarks>
/// The writer that creates a struct file, a sorted list or a time series records the description, before any item.
/// A file without one (every file of ListMmf 1.x, a list of a primitive type, a table's columns, whose table
/// manifest describes them) opens as before, unchecked.
/// </remarks>
public sealed class ListMmfDescription
{
    /// <summary>What the description's file name adds to its list file's name.</summary>
    public const string FileSuffix = ".listmmf.json";

    private const string Format = "listmmf-description";
    private const int Version = 1;

    /// <summary>The size of an item in bytes.</summary>
    public required int ItemSize { get; init; }

    /// <summary>The name of the .NET type the file was created with, for messages and tools; not checked.</summary>
    public required string ItemType { get; init; }

    /// <summary>The fields of a struct item, in the order of their offsets; empty for a primitive item type.</summary>
    public IReadOnlyList<ListMmfField> Fields { get; init; } = [];

    /// <summary>The order a sorted list or time series keeps, or null for a plain list.</summary>
    public TimeSeriesOrder? Order { get; init; }

    /// <summary>Whether a time series' times are UTC; false where they are clock times of no recorded zone.</summary>
    public bool TimesAreUtc { get; init; }

    /// <summary>The description file of a version 1 list file at <paramref name="path"/>.</summary>
    public static string PathFor(string path) => path + FileSuffix;

    /// <summary>
    /// Reads the description of the list file at <paramref name="path"/>: from its header for a version 2 file, from
    /// the file beside it for a version 1 file; null when it has none.
    /// </summary>
    /// <exception cref="ListMmfFormatException">The description is not a valid description, or the file's header is
    /// damaged; the message says what is wrong.</exception>
    public static ListMmfDescription? Read(string path)
    {
        switch (ReadHeader(path))
        {
            case ({ IsSealed: true }, { } sealedJson):
                return sealedJson.Length == 0 ? null : FromJson(sealedJson, path, "the description in its sealed header");
            case ({ Format.DescribesItems: true } header, _):
                return FromJson(header.Description, path, "the description in its header");
        }

        string file = PathFor(path);
        return SideFile.ReadAll(file, $"the description of '{path}'") is { } bytes
            ? FromJson(bytes, file, $"the description of '{path}'")
            : null;
    }

    /// <summary>
    /// The header of the file at <paramref name="path"/> (and a sealed file's description), or null where there is none. A file marked replaced holds
    /// the same description as the file replacing it, which keeps its format and description.
    /// </summary>
    private static (ListMmfHeader Header, byte[]? SealedDescription)? ReadHeader(string path)
    {
        try
        {
            string full = Path.GetFullPath(path);
            Microsoft.Win32.SafeHandles.SafeFileHandle file = ListMmfStorage.OpenExisting(full, FileAccess.Read, FileOptions.None);
            try
            {
                ListMmfHeader header = ListMmfHeader.ReadConsistent(file, full, out long length);
                return (header, header.IsSealed ? SealedHeader.Read(file, full, length).Description : null);
            }
            finally
            {
                StoragePlatform.Current.Close(file);
            }
        }
        catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// The description in <paramref name="json"/>; null where it is empty (a version 2 file that records none).
    /// <paramref name="file"/> and <paramref name="what"/> name it in the exception.
    /// </summary>
    /// <exception cref="ListMmfFormatException">The JSON is not a valid description.</exception>
    internal static ListMmfDescription? FromJson(ReadOnlySpan<byte> json, string file, string what)
    {
        if (json.IsEmpty)
        {
            return null;
        }

        try
        {
            var reader = new Utf8JsonReader(json);
            using JsonDocument document = JsonDocument.ParseValue(ref reader);
            return Parse(document.RootElement);
        }
        catch (Exception exception) when (exception is JsonException or FormatException or InvalidOperationException)
        {
            throw new ListMmfFormatException(file, $"{what} is not valid: {exception.Message}");
        }
    }

    /// <summary>
    /// The description a plain list of <typeparamref name="T"/> items keeps: their size and fields for a struct; none
    /// for a primitive type, which the header's data-type code describes.
    /// </summary>
    internal static ListMmfDescription? ForList<T>()
        where T : unmanaged => DataTypeInfo.Of<T>().Kind == DataTypeKind.Struct ? Layout<T>.Description : null;

    /// <summary>The description of a sorted list or time series of <typeparamref name="T"/> keys.</summary>
    internal static unsafe ListMmfDescription ForSorted<T>(TimeSeriesOrder order, bool timesAreUtc)
        where T : unmanaged => new()
        {
            ItemSize = sizeof(T),
            ItemType = typeof(T).Name,
            Fields = DataTypeInfo.Of<T>().Kind == DataTypeKind.Struct ? Layout<T>.Description.Fields : [],
            Order = order,
            TimesAreUtc = timesAreUtc,
        };

    /// <summary>
    /// Checks that items of <typeparamref name="T"/> (described as <paramref name="expected"/>) are the items this
    /// description records for the file at <paramref name="path"/> (<paramref name="where"/>: "its header records"):
    /// their size, and their layout where both sides have one (a process under NativeAOT may not see a struct's
    /// fields, and then the size is all there is to check). Appendable and sealed lists open a file through it alike.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file records items of another size or layout.</exception>
    internal unsafe void CheckHolds<T>(ListMmfDescription expected, string path, string where)
        where T : unmanaged
    {
        string described = $"'{path}' holds {ItemType} items of {ItemSize} bytes, as {where}";
        if (ItemSize != sizeof(T))
        {
            throw new ListMmfDataTypeException(
                path, $"{described}; {typeof(T).Name} is {sizeof(T)} bytes. Open it with the type it was written with.");
        }

        if (Fields.Count > 0 && expected.Fields.Count > 0 && LayoutDifference(expected.Fields) is { } difference)
        {
            throw new ListMmfDataTypeException(path, $"{described}, with another layout than {typeof(T).Name}'s: {difference}. " +
                "Open it with the type it was written with.");
        }
    }

    /// <summary>The first difference between the layout recorded here and <paramref name="fields"/>, or null.</summary>
    internal string? LayoutDifference(IReadOnlyList<ListMmfField> fields)
    {
        for (int i = 0; i < Math.Max(Fields.Count, fields.Count); i++)
        {
            ListMmfField? recorded = i < Fields.Count ? Fields[i] : null;
            ListMmfField? given = i < fields.Count ? fields[i] : null;
            if (recorded is null || given is null
                || (recorded.Offset, recorded.Size, recorded.Type) != (given.Offset, given.Size, given.Type))
            {
                return $"{Show(recorded, "has no field")} in the file, {Show(given, "no field")} in the type";
            }
        }

        return null;

        static string Show(ListMmfField? field, string none) =>
            field is null ? none : $"'{field.Name}' ({field.Type}, {field.Size} bytes at offset {field.Offset})";
    }

    /// <summary>The description as its file holds it: indented UTF-8 JSON.</summary>
    internal byte[] ToJson()
    {
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            json.WriteStartObject();
            json.WriteString("format", Format);
            json.WriteNumber("version", Version);
            json.WriteString("itemType", ItemType);
            json.WriteNumber("itemSize", ItemSize);
            if (Fields.Count > 0)
            {
                json.WriteStartArray("fields");
                foreach (ListMmfField field in Fields)
                {
                    json.WriteStartObject();
                    json.WriteString("name", field.Name);
                    json.WriteNumber("offset", field.Offset);
                    json.WriteNumber("size", field.Size);
                    json.WriteString("type", field.Type);
                    json.WriteEndObject();
                }

                json.WriteEndArray();
            }

            if (Order is { } order)
            {
                json.WriteString("order", order.ToString());
                json.WriteBoolean("timesAreUtc", TimesAreUtc);
            }

            json.WriteEndObject();
        }

        stream.WriteByte((byte)'\n');
        return stream.ToArray();
    }

    /// <summary>The layout of <typeparamref name="T"/>, found once per type.</summary>
    private static class Layout<T>
        where T : unmanaged
    {
        public static readonly unsafe ListMmfDescription Description = new()
        {
            ItemSize = sizeof(T),
            ItemType = typeof(T).Name,
            Fields = ItemLayout.Of<T>(),
        };
    }

    private static ListMmfDescription Parse(JsonElement root)
    {
        if (root.ValueKind != JsonValueKind.Object || String(root, "format") != Format)
        {
            throw Invalid($"\"format\" is not \"{Format}\"");
        }

        if (Number(root, "version") != Version)
        {
            throw Invalid($"\"version\" {Number(root, "version")} is not one this library reads ({Version})");
        }

        int size = Number(root, "itemSize");
        ListMmfField[] fields = root.TryGetProperty("fields", out JsonElement array)
            ? array.EnumerateArray().Select(Field).ToArray()
            : [];
        if (size <= 0 || fields.Any(field => field.Offset < 0 || field.Size <= 0 || field.Offset + field.Size > size))
        {
            throw Invalid($"an item of {size} bytes cannot hold the fields it lists");
        }

        TimeSeriesOrder? order = null;
        if (root.TryGetProperty("order", out JsonElement recorded))
        {
            order = Enum.TryParse(recorded.GetString(), ignoreCase: false, out TimeSeriesOrder parsed) && Enum.IsDefined(parsed)
                ? parsed
                : throw Invalid("\"order\" is not \"None\", \"Ascending\" or \"AscendingOrEqual\"");
        }

        return new ListMmfDescription
        {
            ItemSize = size,
            ItemType = String(root, "itemType"),
            Fields = fields,
            Order = order,
            TimesAreUtc = root.TryGetProperty("timesAreUtc", out JsonElement utc) && utc.GetBoolean(),
        };
    }

    private static ListMmfField Field(JsonElement field) =>
        new(String(field, "name"), Number(field, "offset"), Number(field, "size"), String(field, "type"));

    private static string String(JsonElement element, string name) =>
        element.TryGetProperty(name, out JsonElement value) && value.ValueKind == JsonValueKind.String
            ? value.GetString()!
            : throw Invalid($"\"{name}\" is missing or not a string");

    private static int Number(JsonElement element, string name) =>
        element.TryGetProperty(name, out JsonElement value) && value.ValueKind == JsonValueKind.Number && value.TryGetInt32(out int number)
            ? number
            : throw Invalid($"\"{name}\" is missing or not a whole number");

    private static FormatException Invalid(string problem) => new(problem + ".");
}
