namespace ListMmf;

/// <summary>One column of a <see cref="TimeSeriesTable"/>: its name, what it stores, and its file in the table's folder.</summary>
/// <param name="Name">The column's name, unique in the table (case-insensitively).</param>
/// <param name="DataType">The data-type code of the column's file.</param>
/// <param name="FileName">The column's file, a plain file name in the table's folder.</param>
public sealed record TableColumnInfo(string Name, DataType DataType, string FileName);
