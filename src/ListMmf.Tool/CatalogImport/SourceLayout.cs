using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;

namespace ListMmf.Tool.CatalogImport;

/// <summary>
/// Where a folder of per-period files keeps each file's instrument and kind: Hive's layout
/// (<c>[KIND/]symbol=SYMBOL/.../FILE</c>, as <c>catalog export</c>, DuckDB and Polars write it), or a pattern of
/// the path under the folder with <c>{symbol}</c>, <c>{kind}</c> and <c>*</c> (any text within one folder or file
/// name), such as <c>{symbol}/*.csv.gz</c> or <c>{kind}/{symbol}_*.parquet</c>.
/// </summary>
internal sealed class SourceLayout
{
    /// <summary>What <c>--layout hive</c> matches: folders of <c>key=value</c> around one <c>symbol=</c>, a kind's folder above them.</summary>
    private const string HivePattern = @"^(?:(?<kind>[^/=]+)/)?(?:[^/]+=[^/]*/)*symbol=(?<symbol>[^/]+)/(?:[^/]+=[^/]*/)*[^/]+$";

    private readonly Regex _path;

    private SourceLayout(string text, Regex path)
    {
        Text = text;
        _path = path;
    }

    /// <summary>The layout as given.</summary>
    public string Text { get; }

    /// <summary>The layout <paramref name="text"/> names: <c>hive</c>, or a pattern holding <c>{symbol}</c>.</summary>
    /// <exception cref="UsageException">A pattern without <c>{symbol}</c>, or with another placeholder.</exception>
    public static SourceLayout Parse(string text)
    {
        if (text == "hive")
        {
            return new SourceLayout(text, new Regex(HivePattern, RegexOptions.CultureInvariant));
        }

        var regex = new StringBuilder("^");
        var named = new HashSet<string>(StringComparer.Ordinal);
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] == '*')
            {
                regex.Append("[^/]*");
            }
            else if (text[i] == '{')
            {
                int end = text.IndexOf('}', i);
                string name = end < 0 ? "" : text[(i + 1)..end];
                if (name is not ("symbol" or "kind") || !named.Add(name))
                {
                    throw new UsageException($"--layout '{text}': a pattern holds {{symbol}} once, {{kind}} at most once, and '*'; " +
                        $"'{(end < 0 ? text[i..] : text[i..(end + 1)])}' is none of them.");
                }

                regex.Append("(?<").Append(name).Append(">[^/]+?)");
                i = end;
            }
            else
            {
                regex.Append(Regex.Escape(text[i].ToString()));
            }
        }

        return named.Contains("symbol")
            ? new SourceLayout(text, new Regex(regex.Append('$').ToString(), RegexOptions.CultureInvariant))
            : throw new UsageException($"--layout '{text}': a pattern must hold {{symbol}}, where each file's instrument is named.");
    }

    /// <summary>
    /// Every CSV (plain or gzip) and Parquet file under <paramref name="folder"/> and its subfolders, each with its
    /// instrument and kind, in the order of their paths (numbers compared as numbers, so data_2 before data_10).
    /// Names starting with '_' or '.' (a writer's markers and checksums) are passed over; any other file the layout
    /// does not place, or not CSV or Parquet, is refused by name: an import that skipped it would leave its rows out
    /// without a word.
    /// </summary>
    /// <param name="folder">The folder.</param>
    /// <param name="kinds">The kind of a file whose path names none: the one kind given or the catalog has; null when there is none such.</param>
    /// <param name="staging">Where the files are read.</param>
    /// <exception cref="DataException">The folder does not exist, holds no file, or holds one the layout does not place.</exception>
    public IReadOnlyList<TableFile> Find(string folder, string? kinds, ImportStaging staging)
    {
        if (!Directory.Exists(folder))
        {
            throw new DataException($"'{folder}' is not a folder.");
        }

        var files = new List<(string Relative, TableFile File)>();
        foreach (string path in Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories))
        {
            string relative = Path.GetRelativePath(folder, path).Replace('\\', '/');
            if (relative.Split('/').Any(part => part.StartsWith('_') || part.StartsWith('.')))
            {
                continue;
            }

            Match match = _path.Match(relative);
            if (!match.Success)
            {
                throw new DataException($"'{path}' is not where the layout '{Text}' places a file of an instrument; move it out of the folder.");
            }

            bool parquet = relative.EndsWith(".parquet", StringComparison.OrdinalIgnoreCase);
            bool csv = relative.EndsWith(".csv", StringComparison.OrdinalIgnoreCase)
                || relative.EndsWith(".csv.gz", StringComparison.OrdinalIgnoreCase);
            if (!parquet && !csv)
            {
                throw new DataException($"'{path}' is neither Parquet (.parquet) nor CSV (.csv, .csv.gz); move it out of the folder.");
            }

            string kind = match.Groups["kind"] is { Success: true } named ? named.Value
                : kinds ?? throw new DataException($"'{path}': its path names no kind, and the catalog has several or none: name " +
                    "the kind with --kind, or keep each kind's files in a folder of its name.");
            files.Add((relative, new TableFile(path, kind, Uri.UnescapeDataString(match.Groups["symbol"].Value), parquet, staging)));
        }

        return files.Count > 0
            ? files.OrderBy(file => file.Relative, NaturalOrder.Instance).Select(file => file.File).ToArray()
            : throw new DataException($"'{folder}' holds no CSV or Parquet file.");
    }

    /// <summary>Paths compared character by character, and runs of digits by their number.</summary>
    private sealed class NaturalOrder : IComparer<string>
    {
        public static NaturalOrder Instance { get; } = new();

        public int Compare(string? x, string? y)
        {
            ReadOnlySpan<char> a = x, b = y;
            while (!a.IsEmpty && !b.IsEmpty)
            {
                if (char.IsAsciiDigit(a[0]) && char.IsAsciiDigit(b[0]))
                {
                    ReadOnlySpan<char> left = Digits(ref a).TrimStart('0'), right = Digits(ref b).TrimStart('0');
                    int order = left.Length != right.Length ? left.Length.CompareTo(right.Length) : left.SequenceCompareTo(right);
                    if (order != 0)
                    {
                        return order;
                    }

                    continue;
                }

                if (a[0] != b[0])
                {
                    return a[0].CompareTo(b[0]);
                }

                a = a[1..];
                b = b[1..];
            }

            return a.Length != b.Length ? a.Length.CompareTo(b.Length) : string.CompareOrdinal(x, y);
        }

        private static ReadOnlySpan<char> Digits(ref ReadOnlySpan<char> text)
        {
            int end = text.IndexOfAnyExceptInRange('0', '9');
            ReadOnlySpan<char> digits = end < 0 ? text : text[..end];
            text = text[digits.Length..];
            return digits;
        }
    }
}
