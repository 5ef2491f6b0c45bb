using System;
using System.IO;
using System.Linq;
using System.Runtime.CompilerServices;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>A list that is never disposed gives back its mapping, its descriptor and its writer lock when collected.</summary>
public sealed class ResourceReleaseTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void UndisposedWriterReleasesItsLockWhenCollected(MappingBackend backend)
    {
        string path = _directory.File($"undisposed-{backend}.bin");
        OpenAndForget(path, backend);
        Collect();

        using var second = new ListMmf<long>(path, FileAccess.ReadWrite, Backends.Options(backend));
        Assert.Equal(3, second.Count);
    }

    [LinuxFact]
    public void UndisposedListReleasesItsMappingsAndDescriptorsWhenCollected()
    {
        foreach (MappingBackend backend in new[] { MappingBackend.Posix, MappingBackend.MemoryMappedFile })
        {
            string path = _directory.File($"undisposed-{backend}.bin");
            OpenAndForget(path, backend);
            OpenAndForget(path, backend, FileAccess.Read);
            Collect();

            Assert.DoesNotContain(File.ReadLines("/proc/self/maps"), line => line.EndsWith(path, StringComparison.Ordinal));
            Assert.DoesNotContain(
                new DirectoryInfo("/proc/self/fd").EnumerateFileSystemInfos().Select(Target),
                target => target is not null && target.StartsWith(path, StringComparison.Ordinal));
        }
    }

    private static string? Target(FileSystemInfo link)
    {
        try
        {
            return link.LinkTarget;
        }
        catch (IOException)
        {
            return null;
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void OpenAndForget(string path, MappingBackend backend, FileAccess access = FileAccess.ReadWrite)
    {
        var list = new ListMmf<long>(path, access, Backends.Options(backend));
        if (list.IsWritable)
        {
            list.AddRange([1, 2, 3]);
        }

        Assert.True(list.Count > 0);
    }

    private static void Collect()
    {
        for (int i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
    }
}
