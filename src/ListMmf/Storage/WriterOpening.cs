namespace ListMmf.Storage;

/// <summary>How a writer's open treats the file's writer lock and a missing file.</summary>
internal enum WriterOpening
{
    /// <summary>Takes the file's writer lock, and creates a missing file under a temporary name renamed into place.</summary>
    Locked,

    /// <summary>The caller holds the file's lock: a list that moves to its replacement, or an integer list's store.</summary>
    LockHeld,

    /// <summary>A replacement's new file at the temporary name the caller owns: created there, no lock, nothing to clean up.</summary>
    Copy,
}
