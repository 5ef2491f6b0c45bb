using System;
using System.Collections.Generic;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Tables;

/// <summary><see cref="TimeSeriesTable.Aggregate"/>: the pieces it hands out and the order it combines them in.</summary>
public sealed class AggregateTests : IDisposable
{
    private const int Piece = 1 << 20;

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void PiecesOfAFixedSizeCoverTheRangeOnceAndAreCombinedInRowOrder()
    {
        using TimeSeriesTable table = Create(rows: (3 * Piece) + 12_345);
        var range = new IndexRange(7, table.RowCount - 3);

        List<IndexRange> pieces = table.Aggregate(range, piece => new List<IndexRange> { piece }, (left, right) => [.. left, .. right]);

        Assert.Equal(range.Start, pieces[0].Start);
        Assert.Equal(range.End, pieces[^1].End);
        Assert.All(pieces.Zip(pieces.Skip(1)), pair => Assert.Equal(pair.First.End, pair.Second.Start));
        Assert.All(pieces.SkipLast(1), piece => Assert.Equal(Piece, piece.Length));
    }

    [Fact]
    public void ASumOverEveryPieceEqualsTheSumOverTheSpan()
    {
        using TimeSeriesTable table = Create(rows: (2 * Piece) + 999);
        TableColumn<long> values = table.Column<long>("value");
        var range = new IndexRange(0, table.RowCount);

        long sum = table.Aggregate(range, piece => Sum(values.AsSpan(piece)), (left, right) => left + right);

        long expected = 0;
        for (long row = 0; row < table.RowCount; row++)
        {
            expected += values[row];
        }

        Assert.Equal(expected, sum);
    }

    [Fact]
    public void AnEmptyRangeIsOneEmptyPiece()
    {
        using TimeSeriesTable table = Create(rows: 10);

        IndexRange[] pieces = table.Aggregate(new IndexRange(4, 4), piece => new[] { piece }, (left, right) => [.. left, .. right]);

        Assert.Equal([new IndexRange(4, 4)], pieces);
    }

    [Fact]
    public void ARangePastThePublishedRowsIsRefused()
    {
        using TimeSeriesTable table = Create(rows: 10);

        Assert.Throws<ArgumentOutOfRangeException>(() => table.Aggregate(new IndexRange(0, 11), piece => piece.Length, (left, right) => left + right));
    }

    private static long Sum(ReadOnlySpan<long> values)
    {
        long sum = 0;
        foreach (long value in values)
        {
            sum += value;
        }

        return sum;
    }

    private TimeSeriesTable Create(int rows)
    {
        TimeSeriesTable table = TimeSeriesTable.Create(_directory.File("values"), new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual).Add<long>("value"));
        table.Column<long>("value").AddRange(Enumerable.Range(0, rows).Select(i => (long)i * 31 % 1_000_003).ToArray());
        table.AddRows(Enumerable.Range(0, rows).Select(i => 1_700_000_000 + (i / 100)).ToArray());
        return table;
    }
}
