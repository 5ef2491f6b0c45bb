using System;
using System.IO;

namespace ListMmf.Storage;

/// <summary>
/// Publishes a new file whole or not at all: written under a temporary name, made durable, renamed into place
/// (never over an existing file), then the directory made durable, so that a crash never leaves a partial file
/// under the final name and a new file does not vanish after a power loss.
/// </summary>
internal static class DurableFile
{
    /// <summary>The ending of a file being written before it is renamed into place.</summary>
    public const string TemporaryExtension = ".tmp";

    /// <summary>What follows the name of the file a temporary file becomes: one name per file, never nested.</summary>
    private const string TemporarySuffix = ".listmmf" + TemporaryExtension;

    /// <summary>
    /// Creates <paramref name="path"/> with the contents <paramref name="write"/> puts in the temporary file; the
    /// caller holds the lock that guards <paramref name="path"/>, unless <paramref name="unlocked"/>: then the
    /// temporary file has a name of its own, so that processes creating the same file at once never write or rename
    /// each other's, and the first rename wins (the others find the file there and fail, their own removed).
    /// </summary>
    /// <exception cref="ListMmfException">The file could not be written, made durable or renamed into place (nothing
    /// of this call was left at <paramref name="path"/>), or, once it was in place, the directory could not be made
    /// durable (the message says so).</exception>
    public static void Create<TState>(string path, TState state, Action<FileStream, TState> write, bool unlocked = false)
    {
        StoragePlatform platform = StoragePlatform.Current;
        string temporary = TemporaryFor(path);
        try
        {
            // Under the file's lock a file under the shared name is a killed create's leftover, and anything else there
            // (a link another user planted) is removed as a name, never written through.
            using (FileStream file = unlocked
                ? ExclusiveFile.CreateTemporaryFor(path, bufferSize: 0, out temporary)
                : ExclusiveFile.CreateReplacingLeftover(temporary))
            {
                write(file, state);
                platform.FlushFile(file.SafeFileHandle, path);
                Publish(file, temporary, path, overwrite: false, asNew: unlocked);
            }

            FlushDirectoryOf(path, path);
        }
        catch (Exception exception) when (exception is (IOException and not ListMmfException) or UnauthorizedAccessException)
        {
            throw new ListMmfException(path, $"could not create the file: {exception.Message}", exception);
        }
        finally
        {
            TryDelete(temporary);
        }
    }

    /// <summary>
    /// Renames <paramref name="written"/>, whole and made durable under the name <paramref name="temporary"/>, to
    /// <paramref name="path"/> (over a file there only when <paramref name="overwrite"/>), then checks that the name
    /// holds it: in a folder other users can write, another name (a link to another user's file) can be renamed over
    /// the temporary one between its create and its rename, and would then be published as the file. What the rename
    /// put there is then taken away again, as a name. The file stays open across the rename wherever the system
    /// renames open files, so that its identity cannot be freed and given to another file before the check (ext4
    /// reuses a freed inode's number at once). Where the system finds no identity by name (macOS, Windows), nothing
    /// can be checked. <paramref name="written"/> is closed on return. Where <paramref name="asNew"/>, the rename is
    /// refused atomically where a file is at <paramref name="path"/> (<see cref="StoragePlatform.RenameAsNew"/>): for
    /// creates no lock guards.
    /// </summary>
    /// <exception cref="ListMmfException">Another file was published; it is removed.</exception>
    /// <exception cref="IOException">The rename failed (for example, a file is at <paramref name="path"/>).</exception>
    public static void Publish(FileStream written, string temporary, string path, bool overwrite, bool asNew = false)
    {
        StoragePlatform platform = StoragePlatform.Current;
        using (written)
        {
            (ulong, ulong)? identity = platform.IdentityOf(written.SafeFileHandle);
            if (!platform.RenamesOpenFiles)
            {
                // The file keeps its identity meanwhile, since a name (the temporary one, or the path once renamed) holds it.
                written.Dispose();
            }

            if (asNew)
            {
                platform.RenameAsNew(temporary, path);
            }
            else
            {
                File.Move(temporary, path, overwrite);
            }

            if (identity is null || platform.IdentityOfName(path) is not { } published || published == identity)
            {
                return;
            }
        }

        TryDelete(path);
        throw new ListMmfException(path, $"could not create the file: another process put a file or link of its own at " +
            $"the temporary name '{temporary}' before it was renamed into place; what was renamed was removed again. " +
                $"A shared folder should have the sticky bit (chmod +t).");
    }

    /// <summary>
    /// Creates the folder <paramref name="path"/> and any missing folders above it, each made durable in its parent,
    /// so that a new folder, and the files then made durable in it, do not vanish after a power loss: POSIX keeps a
    /// new directory's entry only once its parent is synchronized.
    /// </summary>
    /// <exception cref="ListMmfException">A folder could not be created, or its parent made durable.</exception>
    public static void CreateDirectory(string path)
    {
        string full = Path.GetFullPath(path);
        if (Directory.Exists(full))
        {
            return;
        }

        string? parent = Path.GetDirectoryName(full);
        if (parent is not null)
        {
            CreateDirectory(parent);
        }

        try
        {
            Directory.CreateDirectory(full);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new ListMmfException(full, $"could not create the folder: {exception.Message}", exception);
        }

        if (parent is not null)
        {
            StoragePlatform.Current.FlushDirectory(parent, full);
        }
    }

    /// <summary>Makes the directory of <paramref name="target"/> durable, after a file was renamed into it.</summary>
    public static void FlushDirectoryOf(string target, string path) =>
        StoragePlatform.Current.FlushDirectory(Path.GetDirectoryName(target)!, path);

    /// <summary>Deletes <paramref name="path"/> if it can; a leftover temporary file is harmless.</summary>
    public static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            // A temporary file that cannot be removed is harmless; the next writer tries again.
        }
    }

    /// <summary>
    /// The temporary name beside <paramref name="path"/>. One fixed name per file is enough, because only the
    /// holder of the file's writer lock writes it, and it lets a writer's open remove a leftover with one call
    /// instead of listing the directory.
    /// </summary>
    public static string TemporaryFor(string path) => path + TemporarySuffix;

    /// <summary>
    /// Removes what a create or a replacement of <paramref name="path"/> that was killed left behind; the caller
    /// holds the file's lock.
    /// </summary>
    public static void RemoveLeftover(string path) => TryDelete(TemporaryFor(path));
}
