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

    /// <summary>A fresh, empty folder for one benchmark's table; any folder of that name is removed first.</summary>
    public static string FreshDirectory(string name)
    {
        string path = Path.Combine(Directory, $"{name}-{Environment.ProcessId}");
        DeleteDirectory(path);
        return path;
    }

    /// <summary>Removes a folder the benchmarks wrote, if it exists.</summary>
    public static void DeleteDirectory(string path)
    {
        if (System.IO.Directory.Exists(path))
        {
            System.IO.Directory.Delete(path, recursive: true);
        }
    }

    /// <summary>A fresh file named after <paramref name="name"/> holding <paramref name="items"/>; returns its path.</summary>
    public static string WithItems(string name, int[] items)
    {
        string path = Fresh(name);
        using var writer = new ListMmf<int>(path);
        writer.AddRange(items);
        return path;
    }

    /// <summary>Item i is 7 i: distinct, increasing, and not the index itself.</summary>
    public static int[] Int32Items(int count)
    {
        var items = new int[count];
        for (int i = 0; i < items.Length; i++)
        {
            items[i] = i * 7;
        }

        return items;
    }

    /// <summary>Removes a file the benchmarks wrote, and the writer-lock sidecar its writer left beside it.</summary>
    public static void Delete(string path)
    {
        File.Delete(path);
        File.Delete(Storage.WriterLock.PathFor(path));
    }
}
