using System.IO;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// A file the library creates is exclusive by its create only: while its creator still holds it (a new file stays
/// open across the rename that publishes it), a reader that opens it as the library's readers do is not refused.
/// </summary>
public sealed class ExclusiveCreateTests : System.IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void AFileStillHeldByItsExclusiveCreateCanBeOpenedByAReader()
    {
        string path = _directory.File("new.bin");
        using FileStream created = ExclusiveFile.CreateNew(path);
        created.Write([1, 2, 3]);

        using var reader = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);

        Assert.Equal(3, RandomAccess.GetLength(reader));
    }

    [Fact]
    public void AListFileCanBeOpenedByAReaderWhileItsExclusiveCreateIsStillHeld()
    {
        string written = _directory.File("written.bin");
        using (new ListMmf<long>(written))
        {
        }

        string held = _directory.File("held.bin");
        using FileStream creator = ExclusiveFile.CreateNew(held);
        creator.Write(File.ReadAllBytes(written));
        creator.Flush();

        using var reader = new ListMmf<long>(held, FileAccess.Read);

        Assert.Equal(0, reader.Count);
    }
}
