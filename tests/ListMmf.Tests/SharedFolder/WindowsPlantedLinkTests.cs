using System;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using ListMmf.Storage;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests.SharedFolder;

/// <summary>
/// The Windows counterparts of <see cref="PlantedLinkTests"/> (the Wine stage runs them): the writer lock's sidecar
/// is opened without following a reparse point, so a name planted there is opened as itself and taken away by the
/// delete-on-close, and nothing it names is locked or deleted (before, the open followed a symbolic link and its
/// close deleted the file the link named); and the intent file of a replacement by two renames is created
/// exclusively, never written through a link.
/// </summary>
public sealed partial class WindowsPlantedLinkTests : IDisposable
{
    private static readonly byte[] s_victimBytes = "the victim's own bytes"u8.ToArray();
    private readonly TempDirectory _folder = new();
    private readonly TempDirectory _home = new();

    public WindowsPlantedLinkTests()
    {
        VictimPath = _home.File("victim.txt");
        File.WriteAllBytes(VictimPath, s_victimBytes);
    }

    private string VictimPath { get; }

    public void Dispose()
    {
        _folder.Dispose();
        _home.Dispose();
    }

    [WindowsSymbolicLinkFact]
    public void ALinkAtTheWriterLockIsTakenAwayAndTheFileItNamesIsNeitherLockedNorDeleted()
    {
        string path = _folder.File("ticks.bin");
        File.CreateSymbolicLink(WriterLock.PathFor(path), VictimPath);

        using (var list = new ListMmf<long>(path))
        {
            list.Add(1);
        }

        Assert.Equal(s_victimBytes, File.ReadAllBytes(VictimPath));
        Assert.False(File.Exists(WriterLock.PathFor(path)));
    }

    /// <summary>
    /// Wine makes hard links (not symbolic ones): a sidecar that is a second name of the data file loses that name,
    /// and the data file keeps its items. Before, the data file itself was opened as the lock, without sharing, and
    /// the writer's own open of it then failed.
    /// </summary>
    [WindowsFact]
    public void AWriterLockThatIsASecondNameOfTheDataFileLosesThatNameAndTheFileIsWritten()
    {
        string path = _folder.File("ticks.bin");
        using (var list = new ListMmf<long>(path))
        {
            list.Add(1);
        }

        Assert.True(CreateHardLink(WriterLock.PathFor(path), path, 0), $"CreateHardLink failed: error {Marshal.GetLastPInvokeError()}");

        using (var writer = new ListMmf<long>(path))
        {
            writer.Add(2);
        }

        Assert.False(File.Exists(WriterLock.PathFor(path)));
        using var reader = new ListMmf<long>(path, FileAccess.Read);
        Assert.Equal([1L, 2L], reader.ToArray());
    }

    [LibraryImport("kernel32.dll", EntryPoint = "CreateHardLinkW", SetLastError = true, StringMarshalling = StringMarshalling.Utf16)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool CreateHardLink(string link, string existing, nint security);

    [WindowsSymbolicLinkFact]
    public void ALinkAtAReplacementsIntentFileIsNotWrittenThrough()
    {
        string path = _folder.File("ticks.bin");
        using var writer = new ListMmf<long>(path);
        writer.AddRange(Enumerable.Range(0, 100).Select(i => (long)i).ToArray());
        using var reader = new ListMmf<long>(path, FileAccess.Read);
        File.CreateSymbolicLink(path + ".listmmf.replacing", VictimPath);

        writer.TruncateBeginning(10);

        Assert.Equal(s_victimBytes, File.ReadAllBytes(VictimPath));
        Assert.Equal(Enumerable.Range(10, 90).Select(i => (long)i), writer.ToArray());
    }
}
