using System;
using System.IO;

namespace ListMmf.Tests.Platform;

/// <summary>A small tmpfs mounted for one test (Linux, root): a disk that fills, runs out of inodes, or is read-only.</summary>
public sealed class TmpfsMount : IDisposable
{
    public TmpfsMount(string options)
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "listmmf-tests", "tmpfs-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
        (int exit, string error) = Tools.Run("mount", "-t", "tmpfs", "-o", options, "tmpfs", Path);
        if (exit != 0)
        {
            Directory.Delete(Path);
            throw new InvalidOperationException($"mount -o {options} failed: {error}");
        }
    }

    public string Path { get; }

    public string File(string name) => System.IO.Path.Combine(Path, name);

    /// <summary>Makes the mount read-only from now on.</summary>
    public void RemountReadOnly()
    {
        (int exit, string error) = Tools.Run("mount", "-o", "remount,ro", Path);
        if (exit != 0)
        {
            throw new InvalidOperationException($"remount read-only failed: {error}");
        }
    }

    public void Dispose()
    {
        Tools.Run("umount", "-l", Path);
        Directory.Delete(Path);
    }
}
