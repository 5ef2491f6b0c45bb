namespace ListMmf.Storage;

/// <summary>
/// What a writer creates a missing file with: the format and, for version 2, the description its header holds (UTF-8
/// JSON, null for none).
/// </summary>
internal readonly record struct NewFileFormat(ListMmfFormatVersion Version, byte[]? Description)
{
    /// <summary>The rules of the new file's format.</summary>
    public HeaderFormat Format => HeaderFormat.Of(Version);

    /// <summary>Where the new file's items start: after the 16-byte header of version 1, or the 4 KiB blocks of version 2's.</summary>
    public int ItemsOffset => Format.HeaderSize(Description);
}
