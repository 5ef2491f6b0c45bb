using System;
using System.Diagnostics.CodeAnalysis;

namespace ListMmf;

/// <summary>
/// The time searches and reads of a time column in either form, whatever key it stores: an appendable series
/// (<see cref="ListMmfTimeSeriesDateTimeSeconds"/>, <see cref="ListMmfTimeSeriesDateTime"/>), a sealed time file
/// (<see cref="TimeSeriesFile.OpenRead"/>, in either form) or a <see cref="TimeSeriesTable"/>'s rows. Each answers in DateTimes through
/// the same key conversions and time-zone rules, so code written once searches all of them with the same answers.
/// </summary>
/// <remarks>
/// Each of these owns its files: disposing it closes them (a table, all its columns). The times must be in order,
/// which the searches trust and <see cref="Verify"/> checks.
/// </remarks>
public interface IReadOnlyTimeSeries : IDisposable
{
    /// <summary>The full path of the file, or of a table's folder.</summary>
    string Path { get; }

    /// <summary>The stored times' data-type code: <see cref="DataType.UnixSeconds"/> or <see cref="DataType.DateTime"/> ticks.</summary>
    DataType DataType { get; }

    /// <summary>How many times there are: the published items, or a table's published rows.</summary>
    long Count { get; }

    /// <summary>
    /// Whether the times are UTC: returned as <see cref="DateTimeKind.Utc"/>, and taken as DateTimeOffsets; see
    /// <see cref="ListMmfOptions.TimesAreUtc"/>.
    /// </summary>
    bool TimesAreUtc { get; }

    /// <summary>The time at <paramref name="index"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative or not below <see cref="Count"/>.</exception>
    DateTime this[long index] { get; }

    /// <summary>The first index whose time is at or after <paramref name="time"/>, or <see cref="Count"/>.</summary>
    /// <remarks>
    /// Every DateTime argument follows the times' zone rule: where they are UTC, a Local time is converted and an
    /// Unspecified one refused; where they are not, a Local time is refused (<see cref="ListMmfOptions.TimesAreUtc"/>).
    /// </remarks>
    /// <exception cref="ArgumentException"><paramref name="time"/>'s Kind is one the zone rule refuses.</exception>
    long LowerBound(DateTime time);

    /// <summary>The first index whose time is after <paramref name="time"/>, or <see cref="Count"/>.</summary>
    long UpperBound(DateTime time);

    /// <summary>The <see cref="LowerBound(DateTime)"/> of every time in <paramref name="times"/>, into <paramref name="results"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    void LowerBound(ReadOnlySpan<DateTime> times, Span<long> results);

    /// <summary>The <see cref="UpperBound(DateTime)"/> of every time in <paramref name="times"/>, into <paramref name="results"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    void UpperBound(ReadOnlySpan<DateTime> times, Span<long> results);

    /// <summary>The first index whose time is at or after <paramref name="time"/>; the times must be UTC.</summary>
    /// <exception cref="InvalidOperationException">The times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    long LowerBound(DateTimeOffset time);

    /// <summary>The first index whose time is after <paramref name="time"/>; the times must be UTC.</summary>
    /// <exception cref="InvalidOperationException">The times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    long UpperBound(DateTimeOffset time);

    /// <summary>The indices of the times in <c>[from, to)</c>; empty if <paramref name="to"/> is not after <paramref name="from"/>.</summary>
    [SuppressMessage("Naming", "CA1716", Justification = "from and to, as every FindRange of the library names them.")]
    IndexRange FindRange(DateTime from, DateTime to);

    /// <summary>The indices of the times in <c>[from, to)</c>; the times must be UTC.</summary>
    /// <exception cref="InvalidOperationException">The times are not UTC (<see cref="TimesAreUtc"/>).</exception>
    [SuppressMessage("Naming", "CA1716", Justification = "from and to, as every FindRange of the library names them.")]
    IndexRange FindRange(DateTimeOffset from, DateTimeOffset to);

    /// <summary>
    /// The index of the last time at or before <paramref name="time"/>, or -1 where every time is after it: the row an
    /// ASOF join gives <paramref name="time"/>.
    /// </summary>
    long LastAtOrBefore(DateTime time);

    /// <summary>
    /// The ASOF join: the <see cref="LastAtOrBefore(DateTime)"/> of every time in <paramref name="times"/>, into
    /// <paramref name="results"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="times"/>.</exception>
    void LastAtOrBefore(ReadOnlySpan<DateTime> times, Span<long> results);

    /// <summary>The times of <paramref name="range"/>, into <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the times.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the range.</exception>
    void CopyTo(IndexRange range, Span<DateTime> destination);

    /// <summary>Checks the files as they are on disk, and the order of the times (a table: every column, and that each holds every row).</summary>
    /// <param name="progress">Told the fraction checked so far, from 0 to 1, as the check goes (on this thread).</param>
    /// <exception cref="ListMmfOrderException">The first time out of order.</exception>
    /// <exception cref="ListMmfFormatException">A file is damaged.</exception>
    void Verify(IProgress<double>? progress = null);
}
