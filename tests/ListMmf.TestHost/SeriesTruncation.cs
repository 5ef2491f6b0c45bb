using System;
using System.Globalization;
using System.IO;
using System.Threading;

namespace ListMmf.TestHost;

/// <summary>
/// A time series whose writer drops its oldest times over and over (TruncateBeginning), read by other processes:
/// <list type="bullet">
/// <item><c>series-truncate PATH</c>: creates the series, prints "created", waits for a line, then appends one time
/// a second from <see cref="Start"/> and drops the older half, <see cref="Rounds"/> times.</item>
/// <item><c>series-read PATH</c>: opens the series, prints "open", then reads the newest times and searches
/// them through the page index until a line comes on standard input and it has searched at least
/// <see cref="Integers.MinimumReads"/> times; every span must be consecutive seconds, and LowerBound of a time
/// must find it (or, after a truncation between the search and the read, a later time). Prints what it counted.</item>
/// </list>
/// </summary>
public static class SeriesTruncation
{
    public const int Rounds = 40;
    public static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);

    public static int Write(string path)
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending);
        Console.WriteLine("created");
        Console.Out.Flush();
        Console.In.ReadLine();
        long next = 0;
        var batch = new DateTime[5_000];
        for (int round = 0; round < Rounds; round++)
        {
            for (int i = 0; i < batch.Length; i++)
            {
                batch[i] = Start.AddSeconds(next++);
            }

            series.AddRange(batch);
            series.TruncateBeginning(series.Count / 2);
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"truncations={Rounds} count={series.Count} first={series[0]:O}"));
        return 0;
    }

    public static int Read(string path)
    {
        using var series = ListMmfTimeSeriesDateTimeSeconds.OpenRead(path, TimeSeriesOrder.Ascending);
        series.Keys.IndexMinimumPages = 1; // searched through the page index, which a truncation must drop
        Console.WriteLine("open");
        Console.Out.Flush();
        var stop = StopSignal.FromStandardInput();
        long reads = 0, searches = 0, wrong = 0, retries = 0;
        while (!stop.IsSet || searches < Integers.MinimumReads)
        {
            long count = series.Count;
            int length = (int)Math.Min(4096, count);
            ReadOnlySpan<int> seconds;
            try
            {
                seconds = series.Keys.AsSpan(count - length, length);
            }
            catch (ArgumentOutOfRangeException)
            {
                // Truncated at the beginning between Count and the read: the indices moved; read again.
                retries++;
                continue;
            }

            reads++;
            for (int i = 1; i < seconds.Length; i++)
            {
                wrong += seconds[i] == seconds[i - 1] + 1 ? 0 : 1;
            }

            if (seconds.Length > 0)
            {
                // LowerBound of a time read above: the item there is that time, or, when a truncation moved the
                // items between the search and this read, a later one (items only move toward the front). A stale
                // page index would point anywhere, earlier times included.
                DateTime time = ListMmfTimeSeriesDateTimeSeconds.ToDateTime(seconds[seconds.Length / 2]);
                long index = series.LowerBound(time);
                searches++;
                try
                {
                    wrong += series[index] < time ? 1 : 0;
                }
                catch (ArgumentOutOfRangeException)
                {
                    retries++;
                }
            }

            Thread.Yield();
        }

        Console.WriteLine($"reads={reads} searches={searches} retries={retries} wrong={wrong}");
        return wrong == 0 ? 0 : 1;
    }
}
