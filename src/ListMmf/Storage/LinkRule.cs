using System;
using System.Collections.Generic;
using System.IO;

namespace ListMmf.Storage;

/// <summary>
/// The one rule for symbolic links in the paths the library opens, creates or removes, in folders other users can
/// write: a link is followed only where its owner is this user, root, or the owner of the folder that holds it (the
/// kernel's own rule for sticky world-writable folders, <c>fs.protected_symlinks</c>, which does not act in a team
/// folder that only a group can write). A link planted by another member of the team is refused with its name and
/// owner, whatever it points at. Where the system does not say who owns a name (Windows, macOS), nothing is refused.
/// </summary>
internal static class LinkRule
{
    /// <summary>As the kernel's ELOOP: a chain of links longer than this is refused rather than walked.</summary>
    private const int MaximumLinks = 40;

    private const uint Root = 0;

    /// <summary>
    /// Walks every name of <paramref name="path"/> (a full path), following each link the rule allows; throws at the
    /// first link it does not. A name that does not exist ends the walk (what an open or create then does there is
    /// its own business: an exclusive create never follows anything).
    /// </summary>
    /// <exception cref="ListMmfException">A link in the path belongs to a user who is neither this user, root nor the
    /// owner of the folder it is in.</exception>
    public static void ThrowIfForeign(string path)
    {
        StoragePlatform platform = StoragePlatform.Current;
        if (platform.CurrentUser is not { } me)
        {
            return;
        }

        string full = Path.GetFullPath(path);
        string root = Path.GetPathRoot(full) ?? "/";
        var pending = new Stack<string>(Names(full[root.Length..]));
        string resolved = root;
        int links = 0;
        while (pending.TryPop(out string? name))
        {
            if (name == "..")
            {
                resolved = Path.GetDirectoryName(resolved) ?? root;
                continue;
            }

            string candidate = Path.Combine(resolved, name);
            if (platform.NameOwner(candidate) is not { } status)
            {
                return;
            }

            if (!status.IsLink)
            {
                resolved = candidate;
                continue;
            }

            uint? folderOwner = platform.FolderOwner(resolved);
            if (status.Owner != me && status.Owner != Root && status.Owner != folderOwner)
            {
                throw new ListMmfException(path, $"the symbolic link '{candidate}' belongs to user {platform.DescribeUser(status.Owner)}, " +
                    $"who is neither you, root nor the owner of the folder it is in ({platform.DescribeUser(folderOwner)}); the library " +
                        $"follows only links made by one of them, so that no other member of a shared folder can point " +
                            $"your reads and writes at another file. Nothing was read or written through it. Replace it " +
                                $"with a link of your own, or have the folder's owner make it.");
            }

            if (++links > MaximumLinks || new FileInfo(candidate).LinkTarget is not { } target)
            {
                // A loop, or a link removed since: the open that follows reports it as the system does.
                return;
            }

            if (Path.IsPathRooted(target))
            {
                resolved = Path.GetPathRoot(target) ?? root;
                target = target[resolved.Length..];
            }

            foreach (string part in Names(target))
            {
                pending.Push(part);
            }
        }
    }

    /// <summary>The names of a relative path, in reverse order (for a stack), without empty names and ".".</summary>
    private static IEnumerable<string> Names(string relative)
    {
        string[] parts = relative.Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries);
        for (int i = parts.Length - 1; i >= 0; i--)
        {
            if (parts[i] != ".")
            {
                yield return parts[i];
            }
        }
    }
}
