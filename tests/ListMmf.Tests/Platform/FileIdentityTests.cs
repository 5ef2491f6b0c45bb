using System;
using System.IO;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// How the library tells whether two paths name one file: by what the file system says, and on Unix never by opening
/// the file, whose close would drop this process's record locks on it (the writer lock among them).
/// </summary>
public sealed class FileIdentityTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [UnixFact]
    public void NoUnixPlatformOpensAFileToLearnItsIdentity()
    {
        string path = _directory.File("data.bin");
        File.WriteAllBytes(path, [1]);

        Assert.Null(StoragePlatform.Current.IdentityByOpening(path));
    }

    [FileIdentityFact]
    public void TwoSpellingsOfOnePathAreOneFileAndAnotherFileIsNot()
    {
        string path = _directory.File("data.bin");
        string other = _directory.File("other.bin");
        File.WriteAllBytes(path, [1]);
        File.WriteAllBytes(other, [1]);
        string roundabout = Path.Combine(Path.GetDirectoryName(path)!, "..", Path.GetFileName(Path.GetDirectoryName(path)!), "data.bin");

        Assert.True(FileIdentity.Same(path, roundabout));
        Assert.False(FileIdentity.Same(path, other));
    }
}
