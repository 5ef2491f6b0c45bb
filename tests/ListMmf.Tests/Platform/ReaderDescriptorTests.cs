using System;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// A reader's descriptor behaves as one .NET opened for it: on Linux the reader keeps the descriptor its link-proof
/// open probed with, rather than opening the file again through <c>/proc/self/fd</c>.
/// </summary>
public sealed class ReaderDescriptorTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void AnExclusiveOpenByAnotherProgramIsRefusedWhileAReaderHasTheFile()
    {
        string path = Written("shared.bin");
        using var reader = new ListMmf<long>(path, FileAccess.Read);

        Assert.Throws<IOException>(() => new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None).Dispose());
    }

    [Fact]
    public void AnExclusiveOpenSucceedsOnceTheReaderIsClosed()
    {
        string path = Written("released.bin");
        new ListMmf<long>(path, FileAccess.Read).Dispose();

        using var exclusive = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
        Assert.Equal(path, exclusive.Name);
    }

    [LinuxFact]
    public void AReaderGivesItsLockBackAtItsCloseThoughACopyOfItsDescriptorLivesOn()
    {
        string path = Written("copied.bin");
        int copy;
        using (var reader = new ListMmf<long>(path, FileAccess.Read))
        {
            // A child started by vfork holds such a copy until its exec.
            copy = Duplicate(int.Parse(ReaderDescriptors(path).Single().Name, System.Globalization.CultureInfo.InvariantCulture));
            Assert.True(copy >= 0);
        }

        try
        {
            using var exclusive = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
            Assert.Equal(path, exclusive.Name);
        }
        finally
        {
            Assert.Equal(0, Close(copy));
        }
    }

    [LinuxFact]
    public void AReadersDescriptorBlocksAsAnOrdinaryOneDoes()
    {
        string path = Written("blocking.bin");
        using var reader = new ListMmf<long>(path, FileAccess.Read);

        string[] flags = ReaderDescriptors(path)
            .Select(descriptor => File.ReadLines($"/proc/self/fdinfo/{descriptor.Name}")
                .Single(line => line.StartsWith("flags:", StringComparison.Ordinal)))
            .ToArray();

        string only = Assert.Single(flags);
        const int nonBlocking = 0x800;
        Assert.Equal(0, Convert.ToInt32(only["flags:".Length..].Trim(), 8) & nonBlocking);
    }

    /// <summary>This process's descriptors of the file at <paramref name="path"/>.</summary>
    private static FileSystemInfo[] ReaderDescriptors(string path) =>
        new DirectoryInfo("/proc/self/fd").EnumerateFileSystemInfos().Where(descriptor => descriptor.LinkTarget == path).ToArray();

    [DllImport("libc", EntryPoint = "dup", SetLastError = true)]
    private static extern int Duplicate(int fd);

    [DllImport("libc", EntryPoint = "close", SetLastError = true)]
    private static extern int Close(int fd);

    private string Written(string name)
    {
        string path = _directory.File(name);
        using var writer = new ListMmf<long>(path, FileAccess.ReadWrite);
        writer.Add(42);
        return path;
    }
}
