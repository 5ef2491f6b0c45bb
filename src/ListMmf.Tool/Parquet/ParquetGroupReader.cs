using System;
using System.Collections.Generic;
using ParquetSharp;

namespace ListMmf.Tool.Parquet;

/// <summary>
/// One row group's column readers, kept open while the group is read a slice at a time: each read of a column goes on
/// where the last one stopped, so that memory is bounded by the slice, never by the rows a footer claims.
/// </summary>
internal sealed class ParquetGroupReader : IDisposable
{
    private readonly RowGroupReader _group;
    private readonly Dictionary<int, ColumnReader> _columns = [];
    private readonly Dictionary<int, LogicalColumnReader> _logical = [];

    public ParquetGroupReader(ParquetFileReader file, int index) => _group = file.RowGroup(index);

    /// <summary>The physical reader of the column at <paramref name="index"/> in the schema.</summary>
    public ColumnReader<TPhysical> Physical<TPhysical>(int index)
        where TPhysical : unmanaged =>
        (ColumnReader<TPhysical>)Column(index);

    /// <summary>
    /// The logical reader of the column at <paramref name="index"/>: it buffers values of its own, so the same one reads
    /// every slice of the group.
    /// </summary>
    public LogicalColumnReader<TElement> Logical<TElement>(int index)
    {
        if (!_logical.TryGetValue(index, out LogicalColumnReader? reader))
        {
            reader = Column(index).LogicalReader<TElement>();
            _logical.Add(index, reader);
        }

        return (LogicalColumnReader<TElement>)reader;
    }

    public void Dispose()
    {
        foreach (LogicalColumnReader reader in _logical.Values)
        {
            reader.Dispose();
        }

        foreach (ColumnReader column in _columns.Values)
        {
            column.Dispose();
        }

        _group.Dispose();
    }

    private ColumnReader Column(int index)
    {
        if (!_columns.TryGetValue(index, out ColumnReader? column))
        {
            column = _group.Column(index);
            _columns.Add(index, column);
        }

        return column;
    }
}
