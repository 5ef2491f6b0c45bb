namespace ListMmf.Storage;

/// <summary>
/// What <see cref="FileReplacement.Replace{TNew}"/> needs of the file it replaces: a list's storage (truncating,
/// widening, upgrading, sealing) or a sealed file (unsealing).
/// </summary>
internal interface IReplaceableStorage
{
    /// <summary>Where the file was when it was opened, links resolved: the new file is renamed over this name.</summary>
    string RealPath { get; }

    /// <summary>The identity (device and file number) of the file this holds open; null where the system does not say.</summary>
    (ulong Device, ulong File)? Identity { get; }

    /// <summary>Whether the file at <see cref="RealPath"/> is still this one; true where the system cannot tell.</summary>
    bool IsStillAtRealPath();

    /// <summary>Marks the file replaced for its readers, just before the new file is renamed over it.</summary>
    void MarkReplaced();

    /// <summary>Takes the mark back: the rename failed, so this is still the file at the path.</summary>
    void ClearReplacedMark();
}
