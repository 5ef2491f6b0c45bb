using System;
using System.IO;

namespace ListMmf.Tests;

/// <summary>A directory of its own for one test, removed afterwards.</summary>
public sealed class TempDirectory : IDisposable
{
    public TempDirectory()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "listmmf-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    /// <summary>The full path of <paramref name="name"/> in the directory; a "/" in it becomes the system's separator, as in the paths the library reports.</summary>
    public string File(string name) => System.IO.Path.GetFullPath(System.IO.Path.Combine(Path, name));

    public void Dispose() => Directory.Delete(Path, recursive: true);
}
