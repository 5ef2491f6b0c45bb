using System;

namespace ListMmf;

/// <summary>
/// A replay of a catalog's rows in runs (<see cref="TimeSeriesCatalog.Runs"/>, <see cref="TimeSeriesCatalog.FollowRuns"/>):
/// each <see cref="MoveNext"/> gives the next rows of many instruments at once, in the order of
/// <see cref="TimeSeriesCatalog.Replay"/>: time, then <see cref="CatalogPartition.KindRank"/>, then
/// <see cref="CatalogPartition.InstrumentOrdinal"/>, then row. The rows' times, partitions, row numbers and the
/// asked columns' values are copied into the run, as flat spans valid until the next <see cref="MoveNext"/>.
/// </summary>
/// <remarks>
/// What a strategy over many instruments reads fastest: a replay in batches of one partition each hands over a
/// batch a row where instruments' times interleave, while a run merges thousands of rows at once. Every row of one
/// time is in one run. A run holds about the rows it was asked for (more when one time has more rows), and the
/// replay under it a buffer of times for each instrument and kind, as <see cref="CatalogReplay"/> does. Not
/// thread-safe, and it reads its catalog's index as it goes: use neither on another thread meanwhile.
/// </remarks>
public sealed class CatalogRuns : IDisposable
{
    /// <summary>The rows a run is cut at, about, unless the runs are asked for another size.</summary>
    public const int DefaultRunRows = 16384;

    private readonly CatalogReplay _replay;
    private readonly CatalogRun _run;
    private readonly int _runRows;

    internal CatalogRuns(CatalogReplay replay, CatalogRun run, int runRows)
    {
        _replay = replay;
        _run = run;
        _runRows = runRows;
    }

    /// <summary>How many rows the run holds: at least one after <see cref="MoveNext"/> returned true.</summary>
    public int Count => _run.Count;

    /// <summary>Each row's time, as its table returns it, in ascending order.</summary>
    public ReadOnlySpan<DateTime> Times => _run.Times;

    /// <summary>Each row's partition: its <see cref="CatalogPartition.Kind"/> and <see cref="CatalogPartition.Instrument"/>.</summary>
    public ReadOnlySpan<CatalogPartition> Partitions => _run.Partitions;

    /// <summary>Each row's position in its partition's table.</summary>
    public ReadOnlySpan<long> Rows => _run.RowNumbers;

    /// <summary>
    /// The run's values of the <paramref name="column"/>th of the columns asked for, one for each row, copied into
    /// the run: valid until the next <see cref="MoveNext"/>.
    /// </summary>
    /// <typeparam name="T">The type the column stores (<see cref="long"/> ticks for a DateTime column).</typeparam>
    /// <exception cref="ArgumentOutOfRangeException">The runs were asked for fewer columns.</exception>
    /// <exception cref="ListMmfDataTypeException">The column stores another type.</exception>
    public ReadOnlySpan<T> Values<T>(int column)
        where T : unmanaged => _run.Values<T>(column);

    /// <summary>
    /// Moves to the next run, closing the partitions the replay moved past. A following replay returns false once
    /// every row before the writer's watermark was given, and goes on after its next flush.
    /// </summary>
    /// <returns>False when every row was given (before the watermark, when following).</returns>
    /// <exception cref="InvalidOperationException">An earlier call threw: the replay cannot know where it was; start a new one.</exception>
    public bool MoveNext() => _replay.MoveNextRun(_run, _runRows);

    /// <summary>Closes the partitions the replay holds open.</summary>
    public void Dispose() => _replay.Dispose();
}
