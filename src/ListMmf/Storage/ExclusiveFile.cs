using System;
using System.IO;

namespace ListMmf.Storage;

/// <summary>
/// The one way the library, its tool and its exporters create a file: exclusively (O_CREAT | O_EXCL on Unix,
/// CREATE_NEW on Windows). A name someone else planted in a shared folder, a symbolic link above all, is then never
/// followed, truncated or written through: POSIX fails O_EXCL on a symbolic link whatever it points at, and the
/// create fails instead of writing another user's file.
/// </summary>
/// <remarks>
/// The exclusion is the create's alone: the file is opened sharing reads, writes and deletes. On Unix .NET turns
/// <see cref="FileShare.None"/> into flock(LOCK_EX), and a new file stays open across the rename that publishes it
/// (<see cref="DurableFile.Publish"/>), so that lock would refuse a reader that opens the file just after it
/// appears ("being used by another process"), as the live-reader stress test found.
/// </remarks>
internal static class ExclusiveFile
{
    /// <summary>How often a name removed as a leftover is found taken again before the create gives up.</summary>
    private const int Attempts = 16;

    /// <summary>Creates <paramref name="path"/>, which must not exist under any kind of name.</summary>
    /// <param name="path">The file to create.</param>
    /// <param name="access">The access the stream has.</param>
    /// <param name="bufferSize">The stream's buffer; 0 for none.</param>
    /// <param name="unixMode">The mode before the umask (Unix only); null for rw-rw-rw-.</param>
    /// <exception cref="IOException">Something is at the name already, or the file could not be created.</exception>
    public static FileStream CreateNew(string path, FileAccess access = FileAccess.ReadWrite, int bufferSize = 0, UnixFileMode? unixMode = null)
    {
        var options = new FileStreamOptions
        {
            Mode = FileMode.CreateNew,
            Access = access,
            Share = FileShare.ReadWrite | FileShare.Delete,
            BufferSize = bufferSize,
        };
        if (unixMode is { } mode && !OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = mode;
        }

        return new FileStream(path, options);
    }

    /// <summary>
    /// Creates the fixed name <paramref name="path"/> after removing what a killed writer left there; the caller
    /// holds the lock that guards the name. A removal takes the name away, never what a link there names.
    /// </summary>
    /// <exception cref="IOException">The name was taken again each time it was freed, or the file could not be created.</exception>
    public static FileStream CreateReplacingLeftover(string path, FileAccess access = FileAccess.ReadWrite)
    {
        for (int attempt = 1; ; attempt++)
        {
            DurableFile.TryDelete(path);
            try
            {
                return CreateNew(path, access);
            }
            catch (IOException exception) when (attempt < Attempts && StoragePlatform.Current.MeansNameTaken(exception))
            {
                // Another process put something at the name between the removal and the create: never write through it.
            }
        }
    }

    /// <summary>
    /// Creates a temporary file beside <paramref name="target"/> under a name of its own, for a write that is renamed
    /// over the target when whole (an export): no other process knows the name, so nothing can be planted there.
    /// </summary>
    /// <exception cref="IOException">The file could not be created.</exception>
    public static FileStream CreateTemporaryFor(string target, int bufferSize, out string temporary)
    {
        temporary = $"{target}.{Guid.NewGuid():N}{DurableFile.TemporaryExtension}";
        return CreateNew(temporary, FileAccess.Write, bufferSize);
    }
}
