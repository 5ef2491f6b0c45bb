namespace ListMmf.Tool.Import;

/// <summary>A value column an import fills: its name, and the type of its values, or of a text column's codes.</summary>
/// <param name="Name">The column's name.</param>
/// <param name="Type">The values' data type; for a text column, its codes' (Byte, UInt16 or UInt32).</param>
/// <param name="IsText">Whether the column holds text (<see cref="TextColumn"/>).</param>
internal sealed record ImportColumn(string Name, DataType Type, bool IsText = false)
{
    /// <summary>Adds the column to <paramref name="schema"/>, as a text column or a column of numbers.</summary>
    /// <exception cref="System.ArgumentException">The name cannot be a column's, or another column has it.</exception>
    public void AddTo(TimeSeriesTableSchema schema)
    {
        if (IsText)
        {
            schema.AddText(Name, Type);
        }
        else
        {
            schema.Add(Name, Type);
        }
    }

    /// <summary>
    /// Whether <paramref name="column"/>, a table's, is this column: its name, whether it holds text, and the type of
    /// its numbers. A table's text column keeps its own codes, whatever the import would give a new table.
    /// </summary>
    public bool Matches(TableColumnInfo column) =>
        column.Name == Name && column.IsText == IsText && (IsText || column.DataType == Type);

    /// <summary>What the column holds, for messages: "Double", or "Text (UInt16 codes)".</summary>
    public override string ToString() => IsText ? $"Text ({Type} codes)" : Type.ToString();

    /// <summary>What a table's column holds, in the words of <see cref="ToString"/>.</summary>
    public static string Describe(TableColumnInfo column) => new ImportColumn(column.Name, column.DataType, column.IsText).ToString();
}
