using System;
using System.IO;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// The one door through which the library reads the small files beside its data (a table's manifest, a version 1
/// file's description, fences): opened as data, never through a symbolic link, never a FIFO or a device
/// (<see cref="StoragePlatform.OpenSideFile"/>), and read only up to a size cap. A name another user of a shared
/// folder planted there can then make a read fail, never wait forever, read without end or read another file.
/// </summary>
internal static class SideFile
{
    /// <summary>The most a manifest or a description may hold: far above any real one (a table of 10,000 columns).</summary>
    public const int MaximumBytes = 1 << 20;

    /// <summary>
    /// Opens the side file at <paramref name="path"/> for reading; null where nothing is at the name.
    /// </summary>
    /// <exception cref="ListMmfException">Something other than a regular file is at the name, or a link another user
    /// owns is in the folders above it (<see cref="LinkRule"/>).</exception>
    public static SafeFileHandle? OpenRead(string path) => StoragePlatform.Current.OpenSideFile(Path.GetFullPath(path));

    /// <summary>
    /// The whole side file at <paramref name="path"/>, at most <see cref="MaximumBytes"/>; null where nothing is at the
    /// name. <paramref name="what"/> names it in a refusal ("the table manifest").
    /// </summary>
    /// <exception cref="ListMmfFormatException">It is larger than <see cref="MaximumBytes"/>.</exception>
    /// <exception cref="ListMmfException">It is not a regular file, or cannot be read.</exception>
    public static byte[]? ReadAll(string path, string what)
    {
        using SafeFileHandle? file = OpenRead(path);
        if (file is null)
        {
            return null;
        }

        long length = RandomAccess.GetLength(file);
        if (length > MaximumBytes)
        {
            throw new ListMmfFormatException(path, $"{what} holds {length:N0} bytes, more than the {MaximumBytes:N0} " +
                $"any real one holds; it is not read.");
        }

        byte[] bytes = new byte[(int)length];
        int read = PositionalRead.Fill(file, bytes, 0);
        return read == bytes.Length ? bytes : bytes[..read];
    }

    /// <summary>
    /// Writes <paramref name="bytes"/> as the side file at <paramref name="path"/>, derived data (fences, a catalog's
    /// checkpoint): under a name of its own, then renamed over whatever is at <paramref name="path"/>, and made durable
    /// with its folder where <paramref name="durable"/>.
    /// </summary>
    public static void Publish(string path, byte[] bytes, bool durable)
    {
        FileStream file = ExclusiveFile.CreateTemporaryFor(path, bufferSize: 0, out string temporary);
        try
        {
            using (file)
            {
                file.Write(bytes);
                if (durable)
                {
                    StoragePlatform.Current.FlushFile(file.SafeFileHandle, path);
                }
            }

            // A plain rename, without DurableFile.Publish's check that the name holds what was written: that check
            // removes what it finds otherwise, which here is the file another process has just renamed over this
            // one. Whatever ends up at the name is checked by every reader that uses it.
            File.Move(temporary, path, overwrite: true);
            if (durable)
            {
                DurableFile.FlushDirectoryOf(path, path);
            }
        }
        finally
        {
            DurableFile.TryDelete(temporary);
        }
    }
}
