using System;
using System.IO;

namespace ListMmf.Tests;

/// <summary>Finds files of the repository (README, data-samples) from the test's output directory.</summary>
public static class RepositoryFiles
{
    public static string Root { get; } = FindRoot();

    public static string Path(params string[] parts) => System.IO.Path.Combine([Root, .. parts]);

    private static string FindRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(System.IO.Path.Combine(directory.FullName, "ListMmf.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No ListMmf.sln above {AppContext.BaseDirectory}.");
    }
}
