namespace ListMmf;

/// <summary>
/// The file is not a valid ListMmf file: shorter than the header, an unknown version or data-type code, a negative
/// count, or a count that claims more items than the file holds. The file was not changed.
/// </summary>
public sealed class ListMmfFormatException : ListMmfException
{
    /// <summary>Creates the exception for <paramref name="filePath"/>.</summary>
    public ListMmfFormatException(string filePath, string problem)
        : base(filePath, problem)
    {
    }
}
