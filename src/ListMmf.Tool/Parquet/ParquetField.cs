using ParquetSharp;

namespace ListMmf.Tool.Parquet;

/// <summary>One column of a Parquet file, as an import sees it.</summary>
/// <param name="Index">The column's index among the file's leaf columns.</param>
/// <param name="Name">Its name (for a nested column, the top-level field's).</param>
/// <param name="Kind">How it stores its values.</param>
/// <param name="Unit">A timestamp's unit; <see cref="TimeUnit.Unknown"/> for other kinds.</param>
/// <param name="TableType">The table column type it becomes; null when a table cannot hold it.</param>
/// <param name="MaxDefinitionLevel">0 for a required column; above 0 when its values may be null.</param>
/// <param name="Refusal">Why a table cannot hold it, after its name in a message; empty when it can.</param>
/// <param name="Utc">For a timestamp: whether it is an instant (adjusted to UTC, a TIMESTAMPTZ) or a time without a
/// zone; null for INT96, which says neither, and for other kinds.</param>
internal sealed record ParquetField(
    int Index,
    string Name,
    ParquetValueKind Kind,
    TimeUnit Unit,
    DataType? TableType,
    short MaxDefinitionLevel,
    string Refusal,
    bool? Utc = null)
{
    /// <summary>Whether it holds times: a timestamp of any unit, or INT96.</summary>
    public bool IsTime => Kind is ParquetValueKind.Timestamp or ParquetValueKind.Int96Timestamp;
}
