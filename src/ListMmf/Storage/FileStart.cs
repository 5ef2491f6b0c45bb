using System;
using System.IO;
using System.Runtime.InteropServices;

namespace ListMmf.Storage;

/// <summary>
/// A file's first bytes read once, for code that looks at a file's header before its readers map it (which form a
/// column is in), through the platform's cold reads (<see cref="ColdReader"/>): on Linux
/// what the page cache holds comes from there and the rest from the disk without caching it. A read would leave the
/// file's start in small page-cache folios, which readers that ask for large pages then map in 4 KiB pages; a fault in
/// a mapping that asks for large pages would read a whole 2 MiB folio of a cold file, megabytes for each column of a
/// table opened cold.
/// </summary>
internal static unsafe class FileStart
{
    /// <summary>Up to <paramref name="maximumLength"/> bytes from the start of the file at <paramref name="path"/>, and its length.</summary>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    /// <exception cref="ListMmfException">The path is a directory, or a writer's lock this process holds, or the read failed.</exception>
    public static byte[] Read(string path, int maximumLength, out long fileLength)
    {
        FileStream file = ListMmfStorage.OpenExistingStream(path, FileAccess.Read);
        try
        {
            fileLength = file.Length;
            return Read(file, path, (int)Math.Min(fileLength, maximumLength));
        }
        finally
        {
            StoragePlatform.Current.Close(file);
        }
    }

    /// <summary>The first <paramref name="length"/> bytes of <paramref name="file"/>, read past the page cache where the system can.</summary>
    private static byte[] Read(FileStream file, string path, int length)
    {
        if (length == 0)
        {
            return [];
        }

        int pages = (length + ColdReader.PageBytes - 1) / ColdReader.PageBytes * ColdReader.PageBytes;
        byte* buffer = (byte*)NativeMemory.AlignedAlloc((nuint)pages, ColdReader.PageBytes);
        try
        {
            using ColdReader reader = StoragePlatform.Current.OpenColdReader(file.SafeFileHandle, path);
            int read = reader.Read(0, buffer, pages);
            return new ReadOnlySpan<byte>(buffer, Math.Min(length, read)).ToArray();
        }
        finally
        {
            NativeMemory.AlignedFree(buffer);
        }
    }
}
