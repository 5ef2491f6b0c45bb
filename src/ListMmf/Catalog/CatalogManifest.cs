using System;
using System.IO;
using System.Text.Json;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A catalog's manifest (<c>catalog.json</c>): its period and its kinds, each with the manifest its partitions'
/// tables are created with, in the kinds' order.
/// </summary>
internal static class CatalogManifest
{
    private const string Format = "ListMmf.TimeSeriesCatalog";

    private const int Version = 1;

    public static byte[] Write(TimeSeriesCatalogSchema schema)
    {
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            json.WriteStartObject();
            json.WriteString("format", Format);
            json.WriteNumber("version", Version);
            json.WriteString("period", schema.Period.ToString());
            json.WriteStartArray("kinds");
            foreach (string kind in schema.Kinds)
            {
                json.WriteStartObject();
                json.WriteString("name", kind);
                json.WritePropertyName("table");
                TableManifest.WriteTo(json, schema.SchemaOf(kind));
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        stream.WriteByte((byte)'\n');
        return stream.ToArray();
    }

    /// <summary>Reads and validates the manifest at <paramref name="path"/>.</summary>
    /// <exception cref="FileNotFoundException">There is no manifest.</exception>
    /// <exception cref="ListMmfFormatException">The manifest is not a valid catalog manifest; the message says what is wrong.</exception>
    public static TimeSeriesCatalogSchema Read(string path)
    {
        byte[] bytes = SideFile.ReadAll(path, "the catalog manifest") ?? throw new FileNotFoundException(
            $"'{Path.GetDirectoryName(path)}' is not a catalog: it has no {TimeSeriesCatalog.ManifestFileName}. " +
                "Create one with TimeSeriesCatalog.Create; a catalog being created has no manifest until its index exists.",
            path);
        try
        {
            using JsonDocument document = JsonDocument.Parse(bytes);
            JsonElement root = document.RootElement;
            CatalogJsonFormat.ThrowIfNot(root, Format, Version);

            CatalogPeriod period = root.TryGetProperty("period", out JsonElement named) && named.ValueKind == JsonValueKind.String
                && Enum.TryParse(named.GetString(), ignoreCase: false, out CatalogPeriod parsed) && Enum.IsDefined(parsed)
                    ? parsed
                    : throw new FormatException("\"period\" is not \"Day\", \"Month\" or \"Year\".");
            var schema = new TimeSeriesCatalogSchema(period);
            if (!root.TryGetProperty("kinds", out JsonElement kinds) || kinds.ValueKind != JsonValueKind.Array)
            {
                throw new FormatException("\"kinds\" is missing or not an array.");
            }

            foreach (JsonElement kind in kinds.EnumerateArray())
            {
                if (kind.ValueKind != JsonValueKind.Object || !kind.TryGetProperty("name", out JsonElement name)
                    || name.ValueKind != JsonValueKind.String || !kind.TryGetProperty("table", out JsonElement table)
                    || table.ValueKind != JsonValueKind.Object)
                {
                    throw new FormatException("an entry of \"kinds\" is not an object with a \"name\" and a \"table\".");
                }

                schema.Add(name.GetString()!, TableManifest.FromJson(table));
            }

            return schema;
        }
        catch (Exception exception) when (exception is JsonException or ArgumentException or FormatException or InvalidOperationException)
        {
            throw new ListMmfFormatException(path, $"the catalog manifest is not valid: {exception.Message}");
        }
    }
}
