namespace ListMmf;

/// <summary>Options for opening a <see cref="ListMmf{T}"/>.</summary>
public sealed class ListMmfOptions
{
    /// <summary>The options used when none are given.</summary>
    public static ListMmfOptions Default { get; } = new();

    /// <summary>How the file is mapped. <see cref="MappingBackend.Default"/> picks the best one for the system.</summary>
    public MappingBackend Backend { get; init; }

    /// <summary>
    /// The capacity, in items, that a new file is created with. Ignored when the file exists. 0 (the default)
    /// creates a small file that grows as items are added.
    /// </summary>
    public long InitialCapacity { get; init; }

    /// <summary>
    /// For a live writer that needs steady append latency: fault in the file's spare capacity when the writer opens
    /// it and each time it grows, so that appends never take a page fault (Linux 5.14 and later; ignored
    /// elsewhere and by readers). It costs the page-cache memory of the spare capacity up front, and the kernel may
    /// write those still-empty pages back once before they are filled. Off by default.
    /// </summary>
    public bool PrefaultCapacity { get; init; }
}
