using System;
using System.IO;
using System.Text.Json;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A named snapshot of a catalog (<see cref="TimeSeriesCatalog.CreateSnapshot"/>): every series' recorded length when
/// it was taken, which <see cref="TimeSeriesCatalog.OpenSnapshot"/> replays exactly while the writer appends, rolls and
/// seals partitions. Its file, <c>snapshots/NAME.json</c> in the catalog's folder, holds how many of the index's lines
/// it takes: since a catalog's partitions and index only grow, that is all a snapshot needs.
/// </summary>
public sealed class CatalogSnapshot
{
    /// <summary>The folder of a catalog's snapshots, in the catalog's folder.</summary>
    internal const string FolderName = "snapshots";

    private const string Format = "ListMmf.CatalogSnapshot";

    private const int Version = 1;

    internal CatalogSnapshot(string name, DateTime taken, long indexLines, int instruments)
    {
        Name = name;
        Taken = taken;
        IndexLines = indexLines;
        Instruments = instruments;
    }

    /// <summary>The snapshot's name.</summary>
    public string Name { get; }

    /// <summary>When the snapshot was taken, in UTC.</summary>
    public DateTime Taken { get; }

    /// <summary>How many of the index's lines the snapshot takes.</summary>
    internal long IndexLines { get; }

    /// <summary>How many of the catalog's instruments (the first, by ordinal) the snapshot holds rows of.</summary>
    internal int Instruments { get; }

    /// <inheritdoc/>
    public override string ToString() => $"CatalogSnapshot('{Name}', taken {Taken:O})";

    /// <summary>The path of the snapshot <paramref name="name"/> of the catalog in <paramref name="catalog"/>.</summary>
    internal static string PathOf(string catalog, string name) => Path.Combine(catalog, FolderName, name + ".json");

    internal byte[] ToJson()
    {
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            json.WriteStartObject();
            json.WriteString("format", Format);
            json.WriteNumber("version", Version);
            json.WriteString("name", Name);
            json.WriteString("taken", Taken);
            json.WriteNumber("indexLines", IndexLines);
            json.WriteNumber("instruments", Instruments);
            json.WriteEndObject();
        }

        stream.WriteByte((byte)'\n');
        return stream.ToArray();
    }

    /// <summary>Reads and checks the snapshot file at <paramref name="path"/>.</summary>
    /// <exception cref="FileNotFoundException">There is no such snapshot.</exception>
    /// <exception cref="ListMmfFormatException">The file is no valid snapshot of that name.</exception>
    internal static CatalogSnapshot Read(string path, string name)
    {
        byte[] bytes = SideFile.ReadAll(path, "the catalog snapshot") ?? throw new FileNotFoundException(
            $"The catalog has no snapshot '{name}' ({path}); take one with TimeSeriesCatalog.CreateSnapshot.", path);
        try
        {
            using JsonDocument document = JsonDocument.Parse(bytes);
            JsonElement root = document.RootElement;
            CatalogJsonFormat.ThrowIfNot(root, Format, Version);

            if (!root.TryGetProperty("name", out JsonElement named) || !named.ValueEquals(name))
            {
                throw new FormatException($"\"name\" is not \"{name}\", the file's name.");
            }

            DateTime taken = root.TryGetProperty("taken", out JsonElement when) && when.ValueKind == JsonValueKind.String
                && when.TryGetDateTime(out DateTime parsed)
                    ? parsed.ToUniversalTime()
                    : throw new FormatException("\"taken\" is not a time.");
            long lines = root.TryGetProperty("indexLines", out JsonElement count) && count.ValueKind == JsonValueKind.Number
                && count.TryGetInt64(out long read) && read >= 0
                    ? read
                    : throw new FormatException("\"indexLines\" is not a count.");
            int instruments = root.TryGetProperty("instruments", out JsonElement held) && held.ValueKind == JsonValueKind.Number
                && held.TryGetInt32(out int known) && known >= 0
                    ? known
                    : throw new FormatException("\"instruments\" is not a count.");
            return new CatalogSnapshot(name, taken, lines, instruments);
        }
        catch (Exception exception) when (exception is JsonException or FormatException or InvalidOperationException)
        {
            throw new ListMmfFormatException(path, $"the catalog snapshot is not valid: {exception.Message}");
        }
    }
}
