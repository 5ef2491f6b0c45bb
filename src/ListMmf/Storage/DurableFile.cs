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

    /// <summary>Creates <paramref name="path"/> with the contents <paramref name="write"/> puts in the temporary file.</summary>
    /// <exception cref="ListMmfException">The file could not be written, made durable or renamed into place (nothing was left at <paramref name="path"/>), or, once it was in place, the directory could not be made durable (the message says so).</exception>
    public static void Create<TState>(string path, TState state, Action<FileStream, TState> write)
    {
        StoragePlatform platform = StoragePlatform.Current;
        string temporary = TemporaryFor(path);
        try
        {
            using (var file = new FileStream(temporary, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.None, bufferSize: 0))
            {
                write(file, state);
                platform.FlushFile(file.SafeFileHandle, path);
            }

            File.Move(temporary, path, overwrite: false);
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
    /// Replaces the file at <paramref name="target"/> (a real path, symbolic links resolved) by the one
    /// <paramref name="write"/> creates and makes durable under the temporary name it is given, renamed over it.
    /// The caller then moves to the new file and makes the directory durable (<see cref="FlushDirectoryOf"/>): once
    /// renamed, the new file is the list whatever fails next.
    /// </summary>
    /// <param name="target">The file to replace.</param>
    /// <param name="path">The list's path, for messages.</param>
    /// <param name="what">What the replacement does, for messages ("widen", "truncate the beginning of").</param>
    /// <param name="write">Creates the new file at the temporary path given, and makes it durable.</param>
    /// <exception cref="ListMmfException">The new file could not be written or renamed into place; the old file is unchanged and no temporary file is left.</exception>
    public static void Replace(string target, string path, string what, Action<string> write)
    {
        string temporary = TemporaryFor(target);
        try
        {
            write(temporary);
            File.Move(temporary, target, overwrite: true);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            TryDelete(temporary);
            throw new ListMmfException(path, $"could not {what} the list into a new file: {exception.Message} The file is unchanged.", exception);
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

    /// <summary>A new temporary name beside <paramref name="path"/>: the path, a random GUID and <see cref="TemporaryExtension"/>.</summary>
    private static string TemporaryFor(string path) => $"{path}.{Guid.NewGuid():N}{TemporaryExtension}";
}
