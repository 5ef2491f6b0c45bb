namespace ListMmf.Arrow;

/// <summary>How a time column (Unix seconds or ticks) is handed to Arrow.</summary>
public enum ArrowTimeColumn
{
    /// <summary>
    /// An Arrow timestamp without a time zone: unit seconds for a Unix-seconds column, nanoseconds for a ticks
    /// column. Arrow timestamps are 64-bit counts since 1970, which the stored Int32 seconds and the 0001-based
    /// ticks are not, so this column is converted into a buffer of its own: one pass over it, and 8 bytes a row.
    /// </summary>
    Timestamp,

    /// <summary>
    /// The stored values, Int32 Unix seconds or Int64 ticks (100 ns since 0001-01-01), over the mapping like every
    /// value column: no copy. The field's metadata <c>listmmf.data_type</c> says which.
    /// </summary>
    Stored,
}
