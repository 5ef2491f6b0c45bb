using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;

namespace ListMmf.Tests.Platform;

/// <summary>The files this process maps now (<c>/proc/self/maps</c>), for tests of what a close leaves mapped.</summary>
[SupportedOSPlatform("linux")]
internal static class MappedFiles
{
    /// <summary>The files in <paramref name="folder"/>'s subfolders (a catalog's partitions, not its own files) mapped now.</summary>
    public static List<string> InSubfoldersOf(string folder) =>
        File.ReadLines("/proc/self/maps").Select(line => line.IndexOf(folder, StringComparison.Ordinal) is var at and >= 0 ? line[at..] : null)
            .OfType<string>().Where(path => Path.GetDirectoryName(path) != folder).Distinct().ToList();
}
