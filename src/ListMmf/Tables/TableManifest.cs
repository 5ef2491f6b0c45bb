using System;
using System.IO;
using System.Linq;
using System.Text.Json;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// The table's <c>table.json</c>: a small, human-readable file naming the columns, their types and files, and the
/// time column. The data stay in the column files, in the ListMmf format; the manifest is written once, when the
/// table is created, and published whole by a rename.
/// </summary>
/// <example>
/// <code>
/// {
///   "format": "ListMmf.TimeSeriesTable",
///   "version": 1,
///   "order": "AscendingOrEqual",
///   "time": { "name": "time", "type": "UnixSeconds", "file": "time.mmf" },
///   "columns": [
///     { "name": "price", "type": "Double", "file": "price.mmf" },
///     { "name": "exchange", "type": "Text", "codes": "Byte", "file": "exchange.mmf", "entries": "exchange.text.mmf" }
///   ]
/// }
/// </code>
/// </example>
internal static class TableManifest
{
    private const string Format = "ListMmf.TimeSeriesTable";

    /// <summary>The version of a manifest of numbers only, which every reader of tables reads.</summary>
    private const int Version = 1;

    /// <summary>
    /// The version of a manifest with a text column: a reader that knows no text columns refuses it by its version,
    /// saying it is too new, rather than calling the column's type damage.
    /// </summary>
    private const int TextVersion = 2;

    /// <summary>The type of a text column, whose codes' type is its "codes" and its distinct values' file its "entries".</summary>
    private const string TextType = "Text";

    public static byte[] Write(TimeSeriesTableSchema schema)
    {
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            WriteTo(json, schema);
        }

        stream.WriteByte((byte)'\n');
        return stream.ToArray();
    }

    /// <summary>Writes the manifest of <paramref name="schema"/> as one JSON object, as a catalog holds its kinds' schemas.</summary>
    public static void WriteTo(Utf8JsonWriter json, TimeSeriesTableSchema schema)
    {
        json.WriteStartObject();
        json.WriteString("format", Format);
        json.WriteNumber("version", schema.Columns.Any(column => column.IsText) ? TextVersion : Version);
        json.WriteString("order", schema.Order.ToString());
        json.WriteBoolean("timesAreUtc", schema.TimesAreUtc);
        json.WritePropertyName("time");
        WriteColumn(json, schema.Time);
        json.WriteStartArray("columns");
        foreach (TableColumnInfo column in schema.Columns)
        {
            WriteColumn(json, column);
        }

        json.WriteEndArray();
        json.WriteEndObject();
    }

    /// <summary>Reads and validates the manifest at <paramref name="path"/>.</summary>
    /// <exception cref="FileNotFoundException">There is no manifest.</exception>
    /// <exception cref="ListMmfFormatException">The manifest is not a valid table manifest; the message says what is wrong.</exception>
    public static TimeSeriesTableSchema Read(string path)
    {
        byte[] bytes = SideFile.ReadAll(path, "the table manifest") ?? throw new FileNotFoundException(
            $"'{Path.GetDirectoryName(path)}' is not a table: it has no {TimeSeriesTable.ManifestFileName}. " +
                $"Create a table with TimeSeriesTable.Create; a table being created has no manifest until all its columns exist.",
            path);

        try
        {
            using JsonDocument document = JsonDocument.Parse(bytes);
            return FromJson(document.RootElement);
        }
        catch (Exception exception) when (exception is JsonException or ArgumentException or FormatException or InvalidOperationException)
        {
            throw new ListMmfFormatException(path, $"the table manifest is not valid: {exception.Message}");
        }
    }

    /// <summary>The schema a manifest's JSON object describes.</summary>
    /// <exception cref="FormatException">The object is no valid manifest (so are the other exceptions
    /// <see cref="Read"/> turns into a refusal).</exception>
    public static TimeSeriesTableSchema FromJson(JsonElement root)
    {
        if (String(root, "format") != Format)
        {
            throw Invalid($"\"format\" is not \"{Format}\"");
        }

        int version = Property(root, "version", JsonValueKind.Number).GetInt32();
        if (version is not (Version or TextVersion))
        {
            throw Invalid($"\"version\" {Property(root, "version", JsonValueKind.Number)} is not one this library reads " +
                $"({Version}, or {TextVersion} with text columns)");
        }

        TimeSeriesOrder order = Enum.TryParse(String(root, "order"), ignoreCase: false, out TimeSeriesOrder parsed) && Enum.IsDefined(parsed)
            ? parsed
            : throw Invalid("\"order\" is not \"None\", \"Ascending\" or \"AscendingOrEqual\"");
        JsonElement time = Property(root, "time", JsonValueKind.Object);
        var schema = new TimeSeriesTableSchema(String(time, "name"), Type(time), order, String(time, "file"))
        {
            TimesAreUtc = root.TryGetProperty("timesAreUtc", out JsonElement utc) && utc.ValueKind == JsonValueKind.True,
        };
        foreach (JsonElement column in Property(root, "columns", JsonValueKind.Array).EnumerateArray())
        {
            if (column.ValueKind != JsonValueKind.Object)
            {
                throw Invalid("an entry of \"columns\" is not an object");
            }

            if (column.TryGetProperty("type", out JsonElement type) && type.ValueKind == JsonValueKind.String
                && type.ValueEquals(TextType))
            {
                if (version != TextVersion)
                {
                    throw Invalid($"column \"{String(column, "name")}\" is text, which a version {Version} manifest does not hold");
                }

                schema.AddText(String(column, "name"), Type(column, "codes"), String(column, "file"), String(column, "entries"));
            }
            else
            {
                schema.Add(String(column, "name"), Type(column), String(column, "file"));
            }
        }

        return schema;
    }

    private static void WriteColumn(Utf8JsonWriter json, TableColumnInfo column)
    {
        json.WriteStartObject();
        json.WriteString("name", column.Name);
        if (column.EntriesFileName is { } entries)
        {
            json.WriteString("type", TextType);
            json.WriteString("codes", column.DataType.ToString());
            json.WriteString("file", column.FileName);
            json.WriteString("entries", entries);
        }
        else
        {
            json.WriteString("type", column.DataType.ToString());
            json.WriteString("file", column.FileName);
        }

        json.WriteEndObject();
    }

    private static DataType Type(JsonElement column, string property = "type")
    {
        string name = String(column, property);
        return DataTypeInfo.All.FirstOrDefault(type => type.Name == name)?.DataType
            ?? throw Invalid($"column {property} \"{name}\" is not a data type");
    }

    private static string String(JsonElement element, string name) => Property(element, name, JsonValueKind.String).GetString()!;

    private static JsonElement Property(JsonElement element, string name, JsonValueKind kind) =>
        element.TryGetProperty(name, out JsonElement value) && value.ValueKind == kind
            ? value
            : throw Invalid($"\"{name}\" is missing or not a{(kind == JsonValueKind.Array ? "n" : "")} {kind.ToString().ToLowerInvariant()}");

    private static FormatException Invalid(string problem) => new(problem + ".");
}
