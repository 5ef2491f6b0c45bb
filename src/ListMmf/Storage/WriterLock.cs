using System;
using System.IO;

namespace ListMmf.Storage;

/// <summary>
/// The one-writer-per-file rule, held as a sidecar file opened with <see cref="FileShare.None"/> for the writer's
/// lifetime. Windows enforces the share mode itself; on Unix .NET takes <c>flock(LOCK_EX)</c>, which the kernel
/// releases when the process dies, so a crashed writer never leaves a stale lock. The sidecar is never deleted:
/// deleting it while another process opens it would let two writers hold two different files.
/// </summary>
internal sealed class WriterLock : IDisposable
{
    private readonly FileStream _lockFile;

    private WriterLock(FileStream lockFile) => _lockFile = lockFile;

    /// <summary>The sidecar that guards <paramref name="path"/>.</summary>
    public static string PathFor(string path) => path + ".writer-lock";

    /// <summary>Takes the lock at once or fails; it never waits.</summary>
    /// <exception cref="ListMmfLockedException">Another writer holds the file.</exception>
    public static WriterLock Acquire(string path)
    {
        try
        {
            return new WriterLock(new FileStream(PathFor(path), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, bufferSize: 0));
        }
        catch (IOException exception) when (exception is not FileNotFoundException and not DirectoryNotFoundException and not PathTooLongException)
        {
            throw new ListMmfLockedException(path, "another writer has the file open for writing; a file has one writer at a time.", exception);
        }
    }

    public void Dispose() => _lockFile.Dispose();
}
