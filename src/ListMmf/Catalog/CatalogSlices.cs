using System;

namespace ListMmf;

/// <summary>
/// A catalog's rows a time at a time (<see cref="TimeSeriesCatalog.Slices"/>): each <see cref="MoveNext"/> gives a
/// slice, every recorded row of one <see cref="Time"/> across the instruments and kinds replayed, in the replay's
/// order (kind rank, instrument ordinal, row), as QuantConnect Lean hands a strategy its slices. A slice's rows come
/// from many partitions, so their values are copied: <see cref="Partitions"/>, <see cref="Rows"/> and
/// <see cref="Values{T}"/> stay valid until the next <see cref="MoveNext"/>.
/// </summary>
/// <remarks>
/// A slice is a cut of <see cref="CatalogRuns"/>, which hold every row of one time in one run; it reads what those
/// runs read, and is not thread-safe either.
/// </remarks>
public sealed class CatalogSlices : IDisposable
{
    private readonly CatalogRuns _runs;
    private int _start;
    private int _count;

    internal CatalogSlices(CatalogRuns runs) => _runs = runs;

    /// <summary>The slice's time, as its tables return it; <see cref="DateTime.MinValue"/> before the first slice and after the last.</summary>
    public DateTime Time => _count > 0 ? _runs.Times[_start] : DateTime.MinValue;

    /// <summary>How many rows the slice holds: at least one after <see cref="MoveNext"/> returned true.</summary>
    public int Count => _count;

    /// <summary>Each row's partition: its <see cref="CatalogPartition.Kind"/> and <see cref="CatalogPartition.Instrument"/>.</summary>
    public ReadOnlySpan<CatalogPartition> Partitions => _runs.Partitions.Slice(_start, _count);

    /// <summary>Each row's position in its partition's table.</summary>
    public ReadOnlySpan<long> Rows => _runs.Rows.Slice(_start, _count);

    /// <summary>
    /// The slice's values of the <paramref name="column"/>th of the columns asked for, one for each row, copied out
    /// of the tables: valid until the next <see cref="MoveNext"/>.
    /// </summary>
    /// <typeparam name="T">The type the column stores (<see cref="long"/> ticks for a DateTime column).</typeparam>
    /// <exception cref="ArgumentOutOfRangeException">The slices were asked for fewer columns.</exception>
    /// <exception cref="ListMmfDataTypeException">The column stores another type.</exception>
    public ReadOnlySpan<T> Values<T>(int column)
        where T : unmanaged => _runs.Values<T>(column).Slice(_start, _count);

    /// <summary>Moves to the next time that has rows, gathering all of them.</summary>
    /// <returns>False when every row was given.</returns>
    public bool MoveNext()
    {
        _start += _count;
        if (_start >= _runs.Count)
        {
            (_start, _count) = (0, 0);
            if (!_runs.MoveNext())
            {
                return false;
            }
        }

        ReadOnlySpan<DateTime> times = _runs.Times;
        long time = times[_start].Ticks;
        int end = _start + 1;
        while (end < times.Length && times[end].Ticks == time)
        {
            end++;
        }

        _count = end - _start;
        return true;
    }

    /// <summary>Closes the replay under the slices and the partitions it holds.</summary>
    public void Dispose() => _runs.Dispose();
}
