using System;

namespace ListMmf.Tool.Parquet;

/// <summary>
/// A value in a column chunk that a table column cannot hold, at a row counted from the chunk's first: the import
/// turns it into a <see cref="DataException"/> naming the file, the row in the file and the column.
/// </summary>
internal sealed class ParquetValueException : Exception
{
    public ParquetValueException(int row, string problem)
        : base(problem)
    {
        Row = row;
    }

    /// <summary>The row, counted from the chunk's first.</summary>
    public int Row { get; }
}
