namespace ListMmf.Storage;

/// <summary>
/// The steps of <see cref="FileReplacement.Replace{TNew}"/>, in order, named for fault injection and for messages; the
/// steps within the rename where it takes two come last.
/// </summary>
internal enum ReplacementStep
{
    /// <summary>The new file is written under the temporary name and made durable.</summary>
    WriteCopy,

    /// <summary>The old file's header is marked replaced, so that its readers look at the path again.</summary>
    MarkOld,

    /// <summary>The new file is renamed over the old one.</summary>
    Rename,

    /// <summary>The directory is made durable, so that the rename survives a power loss.</summary>
    FlushDirectory,

    /// <summary>The list opens the file now at the path.</summary>
    OpenNew,

    /// <summary>Within <see cref="Rename"/> where it is two renames (Windows without POSIX renames): the old file is
    /// moved aside, its intent recorded first.</summary>
    MoveAside,

    /// <summary>Within <see cref="Rename"/> where it is two renames: the new file is renamed into the freed path.</summary>
    RenameIntoPlace,

    /// <summary>Within <see cref="Rename"/> where it is two renames and the second failed: the old file is moved back.</summary>
    PutBack,
}
