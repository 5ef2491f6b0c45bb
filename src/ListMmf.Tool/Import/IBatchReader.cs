using System;
using System.Numerics;

namespace ListMmf.Tool.Import;

/// <summary>
/// Fills a <see cref="ColumnSink"/>'s batch from a source that reads a whole column at a time (a Parquet column
/// chunk), at the batch's own value type.
/// </summary>
internal interface IBatchReader
{
    /// <summary>Reads <paramref name="batch"/>'s length of values into it; returns the first row whose value is null, or -1.</summary>
    int Read<T>(Span<T> batch)
        where T : unmanaged, INumberBase<T>;

    /// <summary>Reads <paramref name="batch"/>'s length of text values into it; returns the first row whose value is null, or -1.</summary>
    int ReadText(Span<string> batch);
}
