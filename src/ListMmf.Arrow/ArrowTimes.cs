using System;
using System.Collections.Generic;
using Apache.Arrow;
using Apache.Arrow.Types;
using CommunityToolkit.HighPerformance;

namespace ListMmf.Arrow;

/// <summary>Time columns converted to Arrow timestamps.</summary>
internal static class ArrowTimes
{
    private static readonly long EpochTicks = DateTime.UnixEpoch.Ticks;

    /// <summary>The ticks a nanosecond Int64 can hold, either side of 1970.</summary>
    private static readonly long MaxTicksFromEpoch = long.MaxValue / 100;

    /// <summary>
    /// Unix seconds widened to a seconds timestamp, the stored <see cref="int.MinValue"/> as what it stands for,
    /// DateTime.MinValue.
    /// </summary>
    public static TimestampArray FromSeconds(ReadOnlySpan<int> seconds, bool utc)
    {
        long minValue = (DateTime.MinValue.Ticks - EpochTicks) / TimeSpan.TicksPerSecond;
        var values = new long[seconds.Length];
        for (int i = 0; i < seconds.Length; i++)
        {
            values[i] = seconds[i] == int.MinValue ? minValue : seconds[i];
        }

        var buffer = new ArrowBuffer(new ReadOnlyMemory<long>(values).AsBytes());
        return new TimestampArray(ArrowTypes.Timestamp(ticks: false, utc), buffer, ArrowBuffer.Empty, values.Length, 0, 0);
    }

    /// <summary>Ticks as a nanosecond timestamp since 1970.</summary>
    /// <exception cref="ListMmfException">A time is outside 1677-09-21 to 2262-04-11, which nanoseconds since 1970 cannot hold.</exception>
    public static TimestampArray FromTicks(ReadOnlySpan<long> ticks, bool utc, string source, long firstRow)
    {
        var values = new long[ticks.Length];
        for (int i = 0; i < ticks.Length; i++)
        {
            long sinceEpoch = ticks[i] - EpochTicks;
            if (Math.Abs(sinceEpoch) > MaxTicksFromEpoch)
            {
                throw new ListMmfException(source, $"row {firstRow + i:N0}: the time " +
                    $"{TimeText.Ticks(ticks[i])} is outside what an Arrow nanosecond " +
                        $"timestamp holds (1677-09-21 to 2262-04-11); hand the column over as ArrowTimeColumn.Stored.");
            }

            values[i] = sinceEpoch * 100;
        }

        var buffer = new ArrowBuffer(new ReadOnlyMemory<long>(values).AsBytes());
        return new TimestampArray(ArrowTypes.Timestamp(ticks: true, utc), buffer, ArrowBuffer.Empty, values.Length, 0, 0);
    }
}
