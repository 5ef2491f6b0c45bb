namespace ListMmf;

/// <summary>One column of a <see cref="TimeSeriesTable"/>: its name, what it stores, and its file in the table's folder.</summary>
/// <param name="Name">The column's name, unique in the table (case-insensitively).</param>
/// <param name="DataType">The data-type code of the column's file: for a text column, that of its codes.</param>
/// <param name="FileName">The column's file, a plain file name in the table's folder: for a text column, its codes.</param>
public sealed record TableColumnInfo(string Name, DataType DataType, string FileName)
{
    /// <summary>
    /// A text column's file of distinct values (see <see cref="TextColumn"/>), a plain file name in the table's folder;
    /// null for a column of numbers.
    /// </summary>
    public string? EntriesFileName { get; init; }

    /// <summary>Whether the column holds text (<see cref="TextColumn"/>): codes into a file of distinct values.</summary>
    public bool IsText => EntriesFileName is not null;
}
