using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;

namespace ListMmf.Benchmarks.Peers;

/// <summary>What files take on disk: allocated blocks, as <c>du</c> counts them (a preallocated or sparse file counts what it holds), or, where there is no du, their lengths.</summary>
internal static class Disk
{
    public static long AllocatedBytes(string path)
    {
        try
        {
            var start = new ProcessStartInfo("du", ["-s", "-B1", path]) { RedirectStandardOutput = true, RedirectStandardError = true };
            using Process du = Process.Start(start)!;
            string output = du.StandardOutput.ReadToEnd();
            du.WaitForExit();
            if (du.ExitCode == 0 && long.TryParse(output.Split('\t')[0], NumberStyles.Integer, CultureInfo.InvariantCulture, out long bytes))
            {
                return bytes;
            }
        }
        catch (System.ComponentModel.Win32Exception)
        {
            // No du: fall back to the files' lengths.
        }

        return File.Exists(path) ? new FileInfo(path).Length : LengthBytes(path);
    }

    /// <summary>The sum of the lengths of the files under <paramref name="folder"/>: what they hold, counting a preallocated file's unused tail.</summary>
    public static long LengthBytes(string folder) =>
        new DirectoryInfo(folder).EnumerateFiles("*", SearchOption.AllDirectories).Sum(file => file.Length);
}
