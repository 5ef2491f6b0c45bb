using System;
using System.Text.Json;

namespace ListMmf;

/// <summary>The first two fields of a catalog's JSON files (its manifest, its snapshots): which file it is, and which version.</summary>
internal static class CatalogJsonFormat
{
    /// <summary>
    /// Refuses <paramref name="root"/> unless its "format" is <paramref name="format"/> and its "version"
    /// <paramref name="version"/>.
    /// </summary>
    /// <exception cref="FormatException">Either is missing or another; the message says which.</exception>
    public static void ThrowIfNot(JsonElement root, string format, int version)
    {
        if (!root.TryGetProperty("format", out JsonElement named) || !named.ValueEquals(format))
        {
            throw new FormatException($"\"format\" is not \"{format}\".");
        }

        if (!root.TryGetProperty("version", out JsonElement number) || number.ValueKind != JsonValueKind.Number
            || !number.TryGetInt32(out int read) || read != version)
        {
            throw new FormatException($"\"version\" is not {version}, the one this library reads.");
        }
    }
}
