namespace ListMmf;

/// <summary>
/// The file is a valid ListMmf file, but its data-type code says it holds items of another type than the one it
/// was opened as. The file was not changed.
/// </summary>
public sealed class ListMmfDataTypeException : ListMmfException
{
    /// <summary>Creates the exception for <paramref name="filePath"/>.</summary>
    public ListMmfDataTypeException(string filePath, string problem)
        : base(filePath, problem)
    {
    }
}
