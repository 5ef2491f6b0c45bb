using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading;

namespace ListMmf.Tests.Platform;

/// <summary>One mapping of a file in this process, as <c>/proc/self/smaps</c> describes it.</summary>
/// <param name="Start">The mapping's first address.</param>
/// <param name="End">The address past its last byte.</param>
/// <param name="Permissions">As /proc/self/maps writes them: <c>r--s</c>, <c>rw-s</c>.</param>
/// <param name="Lines">Its header line and the lines after it, up to the next mapping's header.</param>
public sealed record FileMappingState(ulong Start, ulong End, string Permissions, IReadOnlyList<string> Lines)
{
    /// <summary>A size field (<c>Rss</c>, <c>Private_Dirty</c>, <c>FilePmdMapped</c>) in bytes; 0 where the kernel writes none.</summary>
    public long Bytes(string field) =>
        Field(field) is string value ? long.Parse(value.Split(' ')[0], CultureInfo.InvariantCulture) * 1024 : 0;

    /// <summary>The words of the mapping's <c>VmFlags</c> line (<c>hg</c> for large pages advised).</summary>
    public string[] Flags => Field("VmFlags")?.Split(' ', StringSplitOptions.RemoveEmptyEntries) ?? [];

    private string? Field(string field) => Lines
        .Skip(1)
        .Where(line => line.StartsWith(field + ":", StringComparison.Ordinal))
        .Select(line => line[(field.Length + 1)..].Trim())
        .FirstOrDefault();
}

/// <summary>
/// This process's mappings of a file, read from <c>/proc/self/smaps</c> as one consistent picture. The kernel writes
/// that file a piece per read and lets the mappings change between pieces: a mapping that madvise splits or merges
/// meanwhile (a writer's background prefault does, on its own thread) can be written twice, once whole and once in
/// part, and counted twice by a reader summing its lines. A read in which two mappings overlap is such a read, and
/// is read again.
/// </summary>
public static class ProcessMappings
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(30);

    /// <summary>The mappings of <paramref name="path"/>, in address order.</summary>
    public static IReadOnlyList<FileMappingState> Of(string path)
    {
        DateTime giveUp = DateTime.UtcNow + Deadline;
        while (true)
        {
            List<(FileMappingState Mapping, string Header)> all = Read();
            if (!Overlaps(all))
            {
                return all.Where(entry => NamesFile(entry.Header, path)).Select(entry => entry.Mapping).ToList();
            }

            if (DateTime.UtcNow > giveUp)
            {
                throw new InvalidOperationException($"/proc/self/smaps kept changing while it was read, for {Deadline}");
            }

            Thread.Yield();
        }
    }

    /// <summary>The sum of a size field over the mappings of <paramref name="path"/>, in bytes.</summary>
    public static long Bytes(string path, string field) => Of(path).Sum(mapping => mapping.Bytes(field));

    /// <summary>A mapping's header ends with the path, which may hold spaces, after the inode and some padding.</summary>
    private static bool NamesFile(string header, string path) => header.EndsWith(" " + path, StringComparison.Ordinal);

    private static List<(FileMappingState, string)> Read()
    {
        var mappings = new List<(FileMappingState, string)>();
        List<string>? lines = null;
        string[]? header = null;
        foreach (string line in File.ReadAllLines("/proc/self/smaps"))
        {
            string[] fields = line.Split(' ', 3, StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length > 1 && fields[0].Contains('-', StringComparison.Ordinal) && !fields[0].EndsWith(':'))
            {
                Add();
                header = fields;
                lines = [line];
            }
            else
            {
                lines?.Add(line);
            }
        }

        Add();
        return mappings;

        void Add()
        {
            if (header is not null && lines is not null)
            {
                string[] range = header[0].Split('-');
                ulong start = ulong.Parse(range[0], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                ulong end = ulong.Parse(range[1], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                mappings.Add((new FileMappingState(start, end, header[1], lines), lines[0]));
            }
        }
    }

    private static bool Overlaps(List<(FileMappingState Mapping, string Header)> all)
    {
        var byStart = all.Select(entry => entry.Mapping).OrderBy(mapping => mapping.Start).ToList();
        for (int i = 1; i < byStart.Count; i++)
        {
            if (byStart[i].Start < byStart[i - 1].End)
            {
                return true;
            }
        }

        return false;
    }
}
