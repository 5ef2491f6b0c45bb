using System;
using System.Buffers;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf;

/// <summary>
/// The bars of <see cref="TimeSeriesTable.Bars"/>: each piece of rows (<see cref="RowChunks"/>) cut into bars on its
/// own core by the time column (<see cref="ITimeColumn.EndOfBar"/>) and summarised over spans of the piece, then the
/// bars that a piece boundary split joined again. A sealed column's rows are decoded a bar at a time into a pooled
/// buffer, so that the decoded values are still in the cache when the bar's sums read them, and the sums run over the
/// same spans as an appendable column's.
/// </summary>
/// <remarks>
/// The pieces' bars go into pooled buffers and only the result is allocated: every page of a fresh allocation costs a
/// page fault, and buffers allocated per call (growing lists, a list of cuts) made the faults most of the time of bars
/// over a large table (benchmarks/README.md).
/// </remarks>
internal sealed class BarBuilder(ITimeColumn times, long intervalTicks) : IDataTypeVisitor<OhlcvBar[]>
{
    private TableColumn? _price;
    private TableColumn? _volume;
    private IndexRange _rows;

    /// <summary>The bars of <paramref name="rows"/>, with prices from <paramref name="price"/> and volumes from <paramref name="volume"/>.</summary>
    public OhlcvBar[] Build(TableColumn price, TableColumn volume, IndexRange rows)
    {
        (_price, _volume, _rows) = (price, volume, rows);
        return DataTypeInfo.Of(price.DataType).Accept(this);
    }

    /// <summary>Runs with the price column's type; dispatches on the volume column's.</summary>
    public OhlcvBar[] Visit<TPrice>(DataTypeInfo type)
        where TPrice : unmanaged, INumber<TPrice>, IMinMaxValue<TPrice> =>
        DataTypeInfo.Of(_volume!.DataType).Accept(new WithPrice<TPrice>(this, (TableColumn<TPrice>)_price!));

    private OhlcvBar[] Build<TPrice, TVolume>(TableColumn<TPrice> price, TableColumn<TVolume> volume)
        where TPrice : unmanaged, INumberBase<TPrice>
        where TVolume : unmanaged, INumberBase<TVolume>
    {
        Bars[] pieces = RowChunks.Map(_rows, piece => Piece(price, volume, piece));
        try
        {
            long count = 0;
            for (int i = 0; i < pieces.Length; i++)
            {
                count += pieces[i].Count - (JoinsTheOneBefore(pieces, i) ? 1 : 0);
            }

            var bars = new OhlcvBar[count];
            int next = 0;
            for (int i = 0; i < pieces.Length; i++)
            {
                ReadOnlySpan<OhlcvBar> piece = pieces[i].AsSpan();
                if (JoinsTheOneBefore(pieces, i))
                {
                    bars[next - 1] = bars[next - 1].Then(piece[0]);
                    piece = piece[1..];
                }

                piece.CopyTo(bars.AsSpan(next));
                next += piece.Length;
            }

            return bars;
        }
        finally
        {
            foreach (Bars piece in pieces)
            {
                piece.Return();
            }
        }
    }

    /// <summary>Whether piece <paramref name="i"/>'s first bar is the same bar as the last of the piece before it.</summary>
    private static bool JoinsTheOneBefore(Bars[] pieces, int i) =>
        i > 0 && pieces[i].Buffer[0].Start == pieces[i - 1].Buffer[pieces[i - 1].Count - 1].Start;

    private Bars Piece<TPrice, TVolume>(TableColumn<TPrice> price, TableColumn<TVolume> volume, IndexRange piece)
        where TPrice : unmanaged, INumberBase<TPrice>
        where TVolume : unmanaged, INumberBase<TVolume>
    {
        var bars = new Bars(ArrayPool<OhlcvBar>.Shared.Rent(256), 0);
        TPrice[]? decodedPrices = price.IsSealed ? ArrayPool<TPrice>.Shared.Rent((int)piece.Length) : null;
        TVolume[]? decodedVolumes = volume.IsSealed ? ArrayPool<TVolume>.Shared.Rent((int)piece.Length) : null;
        try
        {
            for (long row = piece.Start; row < piece.End;)
            {
                long end = times.EndOfBar(row, piece.End, intervalTicks, out DateTime start);
                var rows = new IndexRange(row, end);
                bars = bars.With(BarMath.Summarize(start, rows, price.Read(rows, decodedPrices), volume.Read(rows, decodedVolumes)));
                row = end;
            }

            return bars;
        }
        finally
        {
            ReturnIfRented(decodedPrices);
            ReturnIfRented(decodedVolumes);
        }
    }

    private static void ReturnIfRented<T>(T[]? rented)
    {
        if (rented is not null)
        {
            ArrayPool<T>.Shared.Return(rented);
        }
    }

    /// <summary>A piece's bars, in a pooled buffer.</summary>
    private readonly record struct Bars(OhlcvBar[] Buffer, int Count)
    {
        public ReadOnlySpan<OhlcvBar> AsSpan() => Buffer.AsSpan(0, Count);

        /// <summary>These bars and <paramref name="bar"/>, in a buffer twice the size when this one is full.</summary>
        public Bars With(OhlcvBar bar)
        {
            OhlcvBar[] buffer = Buffer;
            if (Count == buffer.Length)
            {
                buffer = ArrayPool<OhlcvBar>.Shared.Rent(Count * 2);
                AsSpan().CopyTo(buffer);
                ArrayPool<OhlcvBar>.Shared.Return(Buffer);
            }

            buffer[Count] = bar;
            return new Bars(buffer, Count + 1);
        }

        public void Return() => ArrayPool<OhlcvBar>.Shared.Return(Buffer);
    }

    private sealed class WithPrice<TPrice>(BarBuilder builder, TableColumn<TPrice> price) : IDataTypeVisitor<OhlcvBar[]>
        where TPrice : unmanaged, INumber<TPrice>, IMinMaxValue<TPrice>
    {
        public OhlcvBar[] Visit<TVolume>(DataTypeInfo type)
            where TVolume : unmanaged, INumber<TVolume>, IMinMaxValue<TVolume> =>
            builder.Build(price, (TableColumn<TVolume>)builder._volume!);
    }
}
