using ListMmf.Tool.Import;

namespace ListMmf.Tool.Csv;

/// <summary>Up to a batch of parsed rows: their times as ticks and each value column's values, ready to publish.</summary>
internal sealed class CsvBatch(CsvLayout layout, int capacity)
{
    public long[] Times { get; } = new long[capacity];

    public ColumnSink[] Sinks { get; } = layout.NewSinks(capacity);

    public int Count { get; set; }

    public bool IsFull => Count == Times.Length;
}
