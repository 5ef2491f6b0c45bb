using System;
using System.IO;
using System.Linq;

namespace ListMmf.Storage;

/// <summary>
/// The rule for names the library turns into files or folders (a table's columns, a catalog's kinds and
/// instruments): a plain name on every system the library runs on, so that a folder written on one opens on another.
/// </summary>
internal static class PortableFileName
{
    /// <summary>The longest name: well inside every file system's limit of 255.</summary>
    public const int MaxLength = 200;

    private static readonly char[] ForbiddenCharacters =
        ['/', '\\', ':', '*', '?', '"', '<', '>', '|', Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar];

    /// <summary>
    /// What makes <paramref name="value"/> no portable name ("is empty", "holds a character ..."), to follow the
    /// name in a message; null for a good name: no separators, no characters Windows forbids, not "." or "..", not
    /// ending in a space or a dot, no device name Windows reserves, at most <see cref="MaxLength"/> characters.
    /// </summary>
    public static string? ProblemWith(string value) =>
        value.Length == 0 ? "is empty"
        : value.Length > MaxLength ? $"is longer than {MaxLength} characters"
        : value is "." or ".." ? "is not a file name"
        : value.IndexOfAny(ForbiddenCharacters) >= 0 || value.Any(char.IsControl) ? "holds a character that " +
            "cannot be in a file name (/ \\ : * ? \" < > | or a control character)"
        : value[^1] is ' ' or '.' ? "ends with a space or a dot, which Windows drops from file names"
        : IsDeviceName(value) ? "is a device Windows reserves (CON, PRN, AUX, NUL, COM1-9, LPT1-9, with any extension)"
        : null;

    /// <summary>Whether Windows takes <paramref name="value"/> for a device whatever follows its first dot.</summary>
    private static bool IsDeviceName(string value)
    {
        string stem = value.Split('.')[0].TrimEnd(' ');
        return stem.ToUpperInvariant() is "CON" or "PRN" or "AUX" or "NUL"
            || (stem.Length == 4 && stem[3] is >= '1' and <= '9'
                && (stem.StartsWith("COM", StringComparison.OrdinalIgnoreCase) || stem.StartsWith("LPT", StringComparison.OrdinalIgnoreCase)));
    }
}
