using System;
using System.Collections.Generic;

namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// The generated market of one of issue 67's workloads: each kind's series of each instrument, in time order, with a
/// price and a size a row (the columns every replay reads); W1 wide (minute bars of many instruments over many days),
/// W2 deep (trades and quotes of a few instruments, times to the millisecond), W3 dense ties (every instrument quotes
/// on each minute boundary of one day). Instrument i is the catalog's ordinal i, kind k its rank k.
/// </summary>
internal sealed class WorkloadMarket
{
    public static readonly DateTime FirstDay = new(2024, 1, 2);

    private const int SessionMinutes = 390;
    private const long SessionTicks = SessionMinutes * TimeSpan.TicksPerMinute;

    private WorkloadMarket(string name, string[] kinds, int instruments, int days)
    {
        Name = name;
        Kinds = kinds;
        Days = days;
        Names = new string[instruments];
        for (int i = 0; i < instruments; i++)
        {
            Names[i] = $"S{i:D5}";
        }

        Series = new WorkloadSeries[kinds.Length][];
        for (int k = 0; k < kinds.Length; k++)
        {
            Series[k] = new WorkloadSeries[instruments];
        }
    }

    public string Name { get; }

    public string[] Kinds { get; }

    public string[] Names { get; }

    public int Days { get; }

    /// <summary>Each kind's series of each instrument: <c>Series[kind][instrument]</c>.</summary>
    public WorkloadSeries[][] Series { get; }

    public long Rows
    {
        get
        {
            long rows = 0;
            foreach (WorkloadSeries[] kind in Series)
            {
                foreach (WorkloadSeries series in kind)
                {
                    rows += series.Times.Length;
                }
            }

            return rows;
        }
    }

    /// <summary>The start of the session of <paramref name="day"/>.</summary>
    public static long SessionOpen(int day) => FirstDay.AddDays(day).AddHours(9.5).Ticks;

    /// <summary>W1: a bar every minute of the session for each instrument, each day; bars of all instruments share their times.</summary>
    public static WorkloadMarket Wide(int instruments, int days)
    {
        var market = new WorkloadMarket("W1 wide", ["bars"], instruments, days);
        var random = new Random(1);
        for (int i = 0; i < instruments; i++)
        {
            market.Series[0][i] = WorkloadSeries.Generate(
                random, days, SessionMinutes, (day, minute) => SessionOpen(day) + (minute * TimeSpan.TicksPerMinute));
        }

        return market;
    }

    /// <summary>W2: trades and twice as many quotes for each instrument, at random milliseconds of the session.</summary>
    public static WorkloadMarket Deep(int instruments, int days, int tradesPerDay)
    {
        var market = new WorkloadMarket("W2 deep", ["trades", "quotes"], instruments, days);
        var random = new Random(2);
        for (int k = 0; k < 2; k++)
        {
            int perDay = tradesPerDay * (k + 1);
            for (int i = 0; i < instruments; i++)
            {
                long[] milliseconds = new long[perDay];
                market.Series[k][i] = WorkloadSeries.Generate(random, days, perDay, (day, r) =>
                {
                    if (r == 0)
                    {
                        for (int m = 0; m < perDay; m++)
                        {
                            milliseconds[m] = random.NextInt64(SessionTicks / TimeSpan.TicksPerMillisecond);
                        }

                        Array.Sort(milliseconds);
                    }

                    return SessionOpen(day) + (milliseconds[r] * TimeSpan.TicksPerMillisecond);
                });
            }
        }

        return market;
    }

    /// <summary>W3: every instrument quotes once at each of the first <paramref name="minutes"/> minute boundaries of one session.</summary>
    public static WorkloadMarket DenseTies(int instruments, int minutes)
    {
        var market = new WorkloadMarket("W3 dense ties", ["quotes"], instruments, 1);
        var random = new Random(3);
        for (int i = 0; i < instruments; i++)
        {
            market.Series[0][i] = WorkloadSeries.Generate(random, 1, minutes, (day, minute) => SessionOpen(day) + (minute * TimeSpan.TicksPerMinute));
        }

        return market;
    }

    /// <summary>
    /// The checksum of every row in the catalog's replay order (time, kind rank, instrument ordinal, row), and for
    /// each row in that order its time, so that any time range's checksum is the one of a run of rows
    /// (<see cref="ChecksumOf"/>).
    /// </summary>
    public ReplayOrder Order()
    {
        var rows = new List<OrderedRow>();
        for (int k = 0; k < Kinds.Length; k++)
        {
            for (int i = 0; i < Names.Length; i++)
            {
                WorkloadSeries series = Series[k][i];
                for (int r = 0; r < series.Times.Length; r++)
                {
                    rows.Add(new OrderedRow(series.Times[r], KeyOf(k, i), r));
                }
            }
        }

        OrderedRow[] ordered = rows.ToArray();
        Array.Sort(ordered);
        return new ReplayOrder(this, ordered);
    }

    /// <summary>What a replay's checksum takes for the instrument of a row: its kind rank and ordinal in one.</summary>
    public static int KeyOf(int kind, int instrument) => (kind << 24) | instrument;

    /// <summary>One row in replay order: its time, kind and instrument (<see cref="KeyOf"/>), and its row in its series.</summary>
    public readonly record struct OrderedRow(long Ticks, int Key, int Row) : IComparable<OrderedRow>
    {
        public int CompareTo(OrderedRow other) =>
            Ticks != other.Ticks ? Ticks.CompareTo(other.Ticks) : Key != other.Key ? Key.CompareTo(other.Key) : Row.CompareTo(other.Row);
    }

    /// <summary>The market's rows in replay order.</summary>
    public sealed class ReplayOrder(WorkloadMarket market, OrderedRow[] rows)
    {
        public ReplayChecksum All => ChecksumOf(0, rows.Length);

        /// <summary>The checksum of the rows with a time in [<paramref name="from"/>, <paramref name="to"/>).</summary>
        public ReplayChecksum Between(long from, long to) => ChecksumOf(FirstAtOrAfter(from), FirstAtOrAfter(to));

        private int FirstAtOrAfter(long ticks)
        {
            int low = 0;
            int high = rows.Length;
            while (low < high)
            {
                int middle = (low + high) >>> 1;
                if (rows[middle].Ticks < ticks)
                {
                    low = middle + 1;
                }
                else
                {
                    high = middle;
                }
            }

            return low;
        }

        private ReplayChecksum ChecksumOf(int start, int end)
        {
            var checksum = new ReplayChecksum();
            for (int at = start; at < end; at++)
            {
                OrderedRow row = rows[at];
                WorkloadSeries series = market.Series[row.Key >> 24][row.Key & 0xFFFFFF];
                checksum.Add(row.Ticks, row.Key, series.Prices[row.Row], series.Sizes[row.Row]);
            }

            return checksum;
        }
    }
}

/// <summary>One instrument's series of one kind: times in order, a random-walk price and a size a row.</summary>
internal sealed class WorkloadSeries(long[] times, double[] prices, int[] sizes)
{
    public long[] Times { get; } = times;

    public double[] Prices { get; } = prices;

    public int[] Sizes { get; } = sizes;

    /// <summary><paramref name="perDay"/> rows a day, the time of each from <paramref name="timeOf"/> (day, row of the day).</summary>
    public static WorkloadSeries Generate(Random random, int days, int perDay, Func<int, int, long> timeOf)
    {
        var times = new long[days * perDay];
        var prices = new double[times.Length];
        var sizes = new int[times.Length];
        double price = 20 + random.Next(200);
        for (int day = 0; day < days; day++)
        {
            for (int r = 0; r < perDay; r++)
            {
                int at = (day * perDay) + r;
                times[at] = timeOf(day, r);
                price = Math.Max(1, price + ((random.Next(21) - 10) * 0.01));
                prices[at] = Math.Round(price, 2);
                sizes[at] = 1 + random.Next(500);
            }
        }

        return new WorkloadSeries(times, prices, sizes);
    }
}
