using System;

namespace ListMmf.Benchmarks.Tables;

/// <summary>
/// The rows of the table benchmarks, one array per column: Unix-second times (three ticks a second from
/// 2024-01-02), prices, sizes and sequence numbers. 24 bytes a row.
/// </summary>
internal sealed class TickRows
{
    public static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);

    public TickRows(int count)
    {
        Seconds = new int[count];
        Times = new DateTime[count];
        Prices = new double[count];
        Sizes = new int[count];
        Sequences = new long[count];
        int startSeconds = (int)((Start - DateTime.UnixEpoch).Ticks / TimeSpan.TicksPerSecond);
        for (int i = 0; i < count; i++)
        {
            Seconds[i] = startSeconds + (i / 3);
            Times[i] = Start.AddSeconds(i / 3);
            Prices[i] = 4500 + ((i % 1000) * 0.25);
            Sizes[i] = (i % 97) + 1;
            Sequences[i] = i;
        }
    }

    public const int BytesPerRow = sizeof(int) + sizeof(double) + sizeof(int) + sizeof(long);

    public int[] Seconds { get; }

    public DateTime[] Times { get; }

    public double[] Prices { get; }

    public int[] Sizes { get; }

    public long[] Sequences { get; }

    public static TimeSeriesTableSchema Schema() =>
        new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual)
            .Add<double>("price")
            .Add<int>("size")
            .Add<long>("sequence");
}
