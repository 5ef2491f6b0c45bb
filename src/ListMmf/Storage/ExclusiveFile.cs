using System;
using System.Collections.Generic;
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
    /// <exception cref="IOException">Something is at the name already, or the file could not be created.</exception>
    public static FileStream CreateNew(string path, FileAccess access = FileAccess.ReadWrite, int bufferSize = 0)
    {
        var options = new FileStreamOptions
        {
            Mode = FileMode.CreateNew,
            Access = access,
            Share = FileShare.ReadWrite | FileShare.Delete,
            BufferSize = bufferSize,
        };

        LinkRule.ThrowIfForeign(Path.GetDirectoryName(Path.GetFullPath(path)) ?? path);
        var stream = new FileStream(path, options);
        if (t_recording is { } recording)
        {
            recording[Path.GetFullPath(path)] = StoragePlatform.Current.IdentityOf(stream.SafeFileHandle);
        }

        return stream;
    }

    /// <summary>The files this thread created while <see cref="Record"/> ran, by full path, with their identities.</summary>
    [ThreadStatic]
    private static Dictionary<string, (ulong, ulong)?>? t_recording;

    /// <summary>
    /// Runs <paramref name="create"/> and returns the identity of the file it created at <paramref name="path"/>, taken
    /// from the descriptor that created it: what a name says later may be a file another user renamed there. Null where
    /// the system does not say, or nothing was created at that name.
    /// </summary>
    public static (ulong Device, ulong File)? Record(string path, Action<string> create)
    {
        Dictionary<string, (ulong, ulong)?>? outer = t_recording;
        var recording = new Dictionary<string, (ulong, ulong)?>(StringComparer.Ordinal);
        t_recording = recording;
        try
        {
            create(path);
        }
        finally
        {
            t_recording = outer;
        }

        return recording.TryGetValue(Path.GetFullPath(path), out (ulong, ulong)? identity) ? identity : null;
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
