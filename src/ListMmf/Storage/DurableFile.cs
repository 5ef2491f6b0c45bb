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
    /// <summary>Creates <paramref name="path"/> with the contents <paramref name="write"/> puts in the temporary file.</summary>
    /// <exception cref="ListMmfException">The file could not be written, made durable or renamed into place (nothing was left at <paramref name="path"/>), or, once it was in place, the directory could not be made durable (the message says so).</exception>
    public static void Create<TState>(string path, TState state, Action<FileStream, TState> write)
    {
        StoragePlatform platform = StoragePlatform.Current;
        string temporary = $"{path}.{Guid.NewGuid():N}.tmp";
        try
        {
            using (var file = new FileStream(temporary, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.None, bufferSize: 0))
            {
                write(file, state);
                platform.FlushFile(file.SafeFileHandle, path);
            }

            File.Move(temporary, path, overwrite: false);
            platform.FlushDirectory(Path.GetDirectoryName(path)!, path);
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
}
