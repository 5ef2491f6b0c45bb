namespace ListMmf;

/// <summary>
/// Items are out of their declared <see cref="TimeSeriesOrder"/>: either an append that would break the order
/// (nothing was written), or stored items that break it (the file is corrupt; found by <c>Verify</c>).
/// </summary>
public sealed class ListMmfOrderException : ListMmfException
{
    /// <summary>Creates the exception for <paramref name="filePath"/>.</summary>
    public ListMmfOrderException(string filePath, string problem, long index)
        : base(filePath, problem)
    {
        Index = index;
    }

    /// <summary>The index of the first item out of order.</summary>
    public long Index { get; }
}
