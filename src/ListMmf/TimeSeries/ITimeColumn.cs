using System;

namespace ListMmf;

/// <summary>A table's time column in either form: the public time reads, and the end of a bar, which builds bars.</summary>
internal interface ITimeColumn : IReadOnlyTimeSeries
{
    /// <summary>The end of the bar of <paramref name="intervalTicks"/> that holds <paramref name="row"/>, at most <paramref name="last"/>.</summary>
    long EndOfBar(long row, long last, long intervalTicks, out DateTime start);
}
