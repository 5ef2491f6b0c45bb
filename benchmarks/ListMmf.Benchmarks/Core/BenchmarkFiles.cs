using System;
using System.IO;

namespace ListMmf.Benchmarks.Core;

/// <summary>Where benchmarks put their scratch files: LISTMMF_BENCH_DIR, or a folder under the system temp directory.</summary>
internal static class BenchmarkFiles
{
    public static string Directory
    {
        get
        {
            string directory = Environment.GetEnvironmentVariable("LISTMMF_BENCH_DIR")
                ?? Path.Combine(Path.GetTempPath(), "listmmf-benchmarks");
            System.IO.Directory.CreateDirectory(directory);
            return directory;
        }
    }

    /// <summary>A fresh path for one benchmark's file; any file of that name is removed first.</summary>
    public static string Fresh(string name)
    {
        string path = Path.Combine(Directory, $"{name}-{Environment.ProcessId}.bin");
        File.Delete(path);
        return path;
    }

    /// <summary>Removes a file the benchmarks wrote, and the writer-lock sidecar its writer left beside it.</summary>
    public static void Delete(string path)
    {
        File.Delete(path);
        File.Delete(Storage.WriterLock.PathFor(path));
    }
}
