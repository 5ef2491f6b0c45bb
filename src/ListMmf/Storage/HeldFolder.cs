using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;

namespace ListMmf.Storage;

/// <summary>
/// A folder held by descriptor, so that removing what this process created in it (a failed import's table) removes
/// those names from that very folder and nothing else. Removing by path in a folder other users can write can be made
/// to follow a folder or a link another member renamed over a name between two steps
/// (<c>renameat2(RENAME_EXCHANGE)</c>), and delete their files elsewhere; a recursive delete walks into whatever it
/// finds. Here only the names given are removed, each from the folder held, a link as a name; the folder itself goes
/// only if it is then empty and still at its path.
/// </summary>
internal sealed class HeldFolder : IDisposable
{
    private readonly SafeHandle? _handle;

    private HeldFolder(string path, SafeHandle? handle, bool created)
    {
        Path = path;
        _handle = handle;
        Created = created;
    }

    /// <summary>The folder's full path, links resolved.</summary>
    public string Path { get; }

    /// <summary>
    /// Holds the folder at <paramref name="path"/>, creating it (and its parents) where it is missing; the folder is
    /// removed by <see cref="RemoveIfCreatedAndEmpty"/> only if this call created it.
    /// </summary>
    /// <exception cref="ListMmfException">The folder could not be created, or a link another user owns is in its path.</exception>
    public static HeldFolder Open(string path)
    {
        string full = System.IO.Path.GetFullPath(path);
        LinkRule.ThrowIfForeign(full);
        bool created = !Directory.Exists(full);
        if (created)
        {
            DurableFile.CreateDirectory(full);
        }

        string real = StoragePlatform.Current.CanonicalPath(full);
        return new HeldFolder(real, StoragePlatform.Current.HoldFolder(real), created);
    }

    /// <summary>
    /// Holds the folder at <paramref name="path"/>, which this process has just created (a private temporary folder,
    /// a table an import created), so that <see cref="RemoveIfCreatedAndEmpty"/> removes it.
    /// </summary>
    public static HeldFolder OfCreated(string path)
    {
        string real = StoragePlatform.Current.CanonicalPath(System.IO.Path.GetFullPath(path));
        return new HeldFolder(real, StoragePlatform.Current.HoldFolder(real), created: true);
    }

    /// <summary>
    /// Removes every name the folder holds now, each from the folder held (a link as a name; a folder in it stays):
    /// for a folder whose whole content this process made.
    /// </summary>
    public void RemoveAllNames() =>
        RemoveNames(Directory.EnumerateFileSystemEntries(Path).Select(entry => System.IO.Path.GetFileName(entry)).ToArray());

    /// <summary>
    /// Removes the files <paramref name="names"/> (plain names in the folder) and each one's temporary name, from the
    /// folder held. Writer locks' sidecars go when their holders let go.
    /// </summary>
    public void RemoveNames(IEnumerable<string> names)
    {
        StoragePlatform platform = StoragePlatform.Current;
        foreach (string name in names)
        {
            platform.RemoveName(_handle, Path, name);
            platform.RemoveName(_handle, Path, System.IO.Path.GetFileName(DurableFile.TemporaryFor(name)));
        }
    }

    /// <summary>Removes the folder where <see cref="Open"/> created it, it is empty and it is still at its path.</summary>
    public void RemoveIfCreatedAndEmpty()
    {
        if (Created)
        {
            StoragePlatform.Current.RemoveFolderIfEmpty(_handle, Path);
        }
    }

    /// <summary>Whether <see cref="Open"/> created the folder.</summary>
    public bool Created { get; }

    public void Dispose() => _handle?.Dispose();
}
