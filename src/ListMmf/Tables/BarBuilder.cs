using System;
using System.Collections.Generic;
using System.Numerics;

namespace ListMmf;

/// <summary>
/// The bars of <see cref="TimeSeriesTable.Bars"/>: each piece of rows (<see cref="RowChunks"/>) cut into bars on its
/// own core, each next bar's first row found by galloping from the bar before (a bar is usually far smaller than the
/// table, so a search from the start of the range would cost more than the bar), then the bars that a piece boundary
/// split joined again.
/// </summary>
internal sealed class BarBuilder(ITimeSeries times, long intervalTicks) : IDataTypeVisitor<OhlcvBar[]>
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
        var bars = new List<OhlcvBar>();
        foreach (OhlcvBar[] piece in RowChunks.Map(_rows, piece => Piece(price, volume, piece)))
        {
            foreach (OhlcvBar bar in piece)
            {
                if (bars.Count > 0 && bars[^1].Start == bar.Start)
                {
                    bars[^1] = bars[^1].Then(bar);
                }
                else
                {
                    bars.Add(bar);
                }
            }
        }

        return bars.ToArray();
    }

    private OhlcvBar[] Piece<TPrice, TVolume>(TableColumn<TPrice> price, TableColumn<TVolume> volume, IndexRange piece)
        where TPrice : unmanaged, INumberBase<TPrice>
        where TVolume : unmanaged, INumberBase<TVolume>
    {
        var bars = new List<OhlcvBar>();
        for (long row = piece.Start; row < piece.End;)
        {
            DateTime time = times[row];
            long start = time.Ticks - (time.Ticks % intervalTicks);
            long next = start > DateTime.MaxValue.Ticks - intervalTicks
                ? piece.End
                : FirstAtOrAfter(new DateTime(start + intervalTicks, time.Kind), row, piece.End);
            var rows = new IndexRange(row, next);
            bars.Add(BarMath.Summarize(new DateTime(start, time.Kind), rows, price.AsSpan(rows), volume.AsSpan(rows)));
            row = next;
        }

        return bars.ToArray();
    }

    /// <summary>The first row in <c>(row, last)</c> at or after <paramref name="end"/>, or <paramref name="last"/>; <paramref name="row"/>'s time is before it.</summary>
    private long FirstAtOrAfter(DateTime end, long row, long last)
    {
        long low = row + 1;
        for (long step = 1; ; step <<= 1)
        {
            long probe = row + step;
            if (probe >= last)
            {
                return times.LowerBound(end, low, last);
            }

            if (times[probe] >= end)
            {
                return times.LowerBound(end, low, probe);
            }

            low = probe + 1;
        }
    }

    private sealed class WithPrice<TPrice>(BarBuilder builder, TableColumn<TPrice> price) : IDataTypeVisitor<OhlcvBar[]>
        where TPrice : unmanaged, INumber<TPrice>, IMinMaxValue<TPrice>
    {
        public OhlcvBar[] Visit<TVolume>(DataTypeInfo type)
            where TVolume : unmanaged, INumber<TVolume>, IMinMaxValue<TVolume> =>
            builder.Build(price, (TableColumn<TVolume>)builder._volume!);
    }
}
