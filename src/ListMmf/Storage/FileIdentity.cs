using System;
using System.IO;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// Whether two paths name one file, by what the file system says rather than by their text: a symbolic link, a
/// hard link, a relative part or a second mount of one folder all name the file they lead to.
/// </summary>
internal static class FileIdentity
{
    /// <summary>
    /// Whether <paramref name="first"/> and <paramref name="second"/> are one file or folder. Where the system gives
    /// no identity without opening the file, or one that is safe to open (folders outside Linux; macOS, where the
    /// close would drop this process's locks on the file), the paths are compared with their final links resolved.
    /// </summary>
    public static bool Same(string first, string second)
    {
        if (Of(first) is { } one && Of(second) is { } other)
        {
            return one == other;
        }

        return string.Equals(Resolved(first), Resolved(second), StoragePlatform.Current.PathComparison);
    }

    /// <summary>
    /// Whether the file at <paramref name="realPath"/> is still the one <paramref name="file"/> holds open (checked by
    /// device and inode, without opening it); true where the system cannot tell.
    /// </summary>
    public static bool IsStillAt(SafeFileHandle file, string realPath)
    {
        (ulong, ulong)? mine = StoragePlatform.Current.IdentityOf(file);
        if (mine is null)
        {
            return true;
        }

        if (!File.Exists(realPath))
        {
            return false;
        }

        // Null where the system finds no identity by path (Windows, macOS): it cannot tell, so it keeps what it has.
        (ulong, ulong)? there = StoragePlatform.Current.IdentityOf(realPath);
        return there is null || there == mine;
    }

    private static (ulong, ulong)? Of(string path) =>
        StoragePlatform.Current.IdentityOf(path) ?? StoragePlatform.Current.IdentityByOpening(path);

    private static string Resolved(string path)
    {
        string full = Path.GetFullPath(path);
        try
        {
            FileSystemInfo? target = File.Exists(full) ? new FileInfo(full).ResolveLinkTarget(returnFinalTarget: true)
                : Directory.Exists(full) ? new DirectoryInfo(full).ResolveLinkTarget(returnFinalTarget: true)
                : null;
            return Path.TrimEndingDirectorySeparator(target?.FullName ?? full);
        }
        catch (IOException)
        {
            return Path.TrimEndingDirectorySeparator(full);
        }
    }
}
