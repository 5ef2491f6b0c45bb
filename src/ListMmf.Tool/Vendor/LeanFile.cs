using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.IO.Compression;
using System.Linq;

namespace ListMmf.Tool.Vendor;

/// <summary>
/// One of Lean's per-day files: a zip holding one CSV (as Lean ships them, in its tree
/// <c>equity/usa/tick/aig/20131007_trade.zip</c> or renamed), or that CSV itself, plain or gzip. What it holds is
/// read from the CSV's name, <c>yyyyMMdd_symbol_Trade_Tick.csv</c>, <c>..._Quote_Tick.csv</c> or
/// <c>..._minute_trade.csv</c>, which Lean gives the entry whatever the zip is called.
/// </summary>
/// <param name="Path">The file.</param>
/// <param name="Kind">What its rows are.</param>
/// <param name="Symbol">The instrument, as Lean writes it (lower case).</param>
/// <param name="Day">The exchange's date the rows' milliseconds count from.</param>
internal sealed record LeanFile(string Path, LeanKind Kind, string Symbol, DateTime Day)
{
    /// <summary>The most a day's CSV may hold: far above any symbol's day of quotes, below what one array can.</summary>
    private const long MaximumCsvBytes = 1L << 30;

    /// <summary>
    /// Every Lean file under <paramref name="folder"/> (and its subfolders): zips, CSVs and gzipped CSVs. A zip or
    /// CSV whose name is not Lean's, or a zip of another shape, is refused by name: an import that skipped it would
    /// leave its days out without a word.
    /// </summary>
    /// <exception cref="DataException">The folder does not exist, holds no Lean file, or holds a file this reader cannot take.</exception>
    public static IReadOnlyList<LeanFile> Find(string folder)
    {
        if (!Directory.Exists(folder))
        {
            throw new DataException($"'{folder}' is not a folder.");
        }

        var files = new List<LeanFile>();
        foreach (string path in Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            string name = System.IO.Path.GetFileName(path);
            string? csv = name.EndsWith(".zip", StringComparison.OrdinalIgnoreCase) ? EntryOf(path)
                : name.EndsWith(".csv", StringComparison.OrdinalIgnoreCase) ? name
                : name.EndsWith(".csv.gz", StringComparison.OrdinalIgnoreCase) ? name[..^3]
                : null;
            if (csv is not null)
            {
                files.Add(Parse(path, csv));
            }
        }

        return files.Count > 0
            ? files
            : throw new DataException($"'{folder}' holds no Lean file (a zip of yyyyMMdd_symbol_Trade_Tick.csv, Quote_Tick or " +
                "minute_trade, or such a CSV).");
    }

    /// <summary>The CSV's bytes, inflated from the zip or gzip.</summary>
    /// <exception cref="DataException">The file is damaged, or its CSV larger than a day's rows can be.</exception>
    public byte[] ReadCsv()
    {
        try
        {
            if (Path.EndsWith(".zip", StringComparison.OrdinalIgnoreCase))
            {
                using ZipArchive archive = ZipFile.OpenRead(Path);
                ZipArchiveEntry entry = archive.Entries.Single();
                using Stream stream = entry.Open();
                return ReadAll(stream, entry.Length);
            }

            using var file = new FileStream(Path, FileMode.Open, FileAccess.Read, FileShare.Read);
            if (Path.EndsWith(".gz", StringComparison.OrdinalIgnoreCase))
            {
                using var gzip = new GZipStream(file, CompressionMode.Decompress);
                return ReadAll(gzip, expected: -1);
            }

            return ReadAll(file, file.Length);
        }
        catch (Exception exception) when (exception is InvalidDataException or EndOfStreamException)
        {
            throw new DataException($"'{Path}' is damaged: {exception.Message}", exception);
        }
    }

    public override string ToString() => $"{Symbol} {Kind.Name} {Day:yyyy-MM-dd} ('{Path}')";

    private byte[] ReadAll(Stream stream, long expected)
    {
        if (expected > MaximumCsvBytes)
        {
            throw new DataException($"'{Path}' holds a CSV of {expected:N0} bytes, more than a day of one symbol's rows can be " +
                $"({MaximumCsvBytes >> 30} GiB).");
        }

        using var memory = expected >= 0 ? new MemoryStream((int)expected) : new MemoryStream();
        var buffer = new byte[1 << 16];
        int read;
        while ((read = stream.Read(buffer)) > 0)
        {
            if (memory.Length + read > MaximumCsvBytes)
            {
                throw new DataException($"'{Path}' inflates past {MaximumCsvBytes >> 30} GiB, more than a day of one symbol's rows can be.");
            }

            memory.Write(buffer, 0, read);
        }

        return memory.Length == memory.Capacity ? memory.GetBuffer() : memory.ToArray();
    }

    /// <summary>The name of the one CSV a Lean zip holds.</summary>
    private static string EntryOf(string zip)
    {
        try
        {
            using ZipArchive archive = ZipFile.OpenRead(zip);
            return archive.Entries.Count == 1
                ? archive.Entries[0].Name
                : throw new DataException($"'{zip}' holds {archive.Entries.Count} entries; a Lean zip holds one CSV.");
        }
        catch (InvalidDataException exception)
        {
            throw new DataException($"'{zip}' is not a zip: {exception.Message}", exception);
        }
    }

    private static LeanFile Parse(string path, string csv)
    {
        // yyyyMMdd_symbol_Trade_Tick.csv: the symbol is what lies between the date and the two-part tag.
        string[] parts = System.IO.Path.GetFileNameWithoutExtension(csv).Split('_');
        LeanKind? kind = parts.Length >= 4 ? LeanKind.OfTag($"{parts[^2]}_{parts[^1]}") : null;
        if (kind is null || !DateTime.TryParseExact(parts[0], "yyyyMMdd", CultureInfo.InvariantCulture, DateTimeStyles.None, out DateTime day))
        {
            throw new DataException($"'{path}': its CSV '{csv}' is not named as Lean names one (yyyyMMdd_symbol_Trade_Tick.csv, " +
                $"_Quote_Tick or _minute_trade), so what it holds is unknown; move it out of the folder.");
        }

        return new LeanFile(path, kind, string.Join('_', parts[1..^2]), day);
    }
}
