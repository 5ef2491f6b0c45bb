namespace ListMmf.Storage;

/// <summary>The steps of <see cref="FileReplacement.Replace{TNew}"/>, in order, named for fault injection and for messages.</summary>
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
}
