using System;

namespace ListMmf.Benchmarks.Data;

/// <summary>
/// Deterministic tick timestamps shaped like CME micro E-mini S&amp;P (MES) futures: Int32 Unix seconds,
/// ascending or equal (many ticks share a second). A trading day's session runs 17:00 to 16:00 Central Time with
/// the daily one-hour break, Monday to Friday sessions (Sunday evening opens Monday's), no weekend ticks.
/// Activity follows the day: quiet overnight, busier from the European open, a peak at the U.S. cash open, a lull
/// at midday, a second rise into the close; on top of it, self-exciting bursts of a few to tens of seconds.
/// Integer arithmetic only, so every machine produces the same bytes. Central Time is taken as UTC-6 all year.
/// </summary>
internal sealed class TickTimestampGenerator
{
    private const int CentralOffsetSeconds = -6 * 3600;
    private const int SessionSeconds = 23 * 3600;
    private const int RateScaleBits = 4;
    private const int UniformBits = 10;

    private SplitMix64 _random;
    private int _burstSecondsLeft;
    private int _burstMultiplier = 1;

    public TickTimestampGenerator(ulong seed) => _random = new SplitMix64(seed);

    /// <summary>Unix seconds (UTC) of the session that trades on <paramref name="tradeDate"/>: 17:00 CT the evening before.</summary>
    public static long SessionStart(DateOnly tradeDate) =>
        new DateTimeOffset(tradeDate.AddDays(-1).ToDateTime(new TimeOnly(17, 0)), TimeSpan.FromSeconds(CentralOffsetSeconds)).ToUnixTimeSeconds();

    public static bool IsTradeDate(DateOnly date) => date.DayOfWeek is not (DayOfWeek.Saturday or DayOfWeek.Sunday);

    /// <summary>
    /// Writes the ticks of one session into <paramref name="sink"/> in order, one call per second with that
    /// second's tick count (0 for most overnight seconds).
    /// </summary>
    public void GenerateSession(DateOnly tradeDate, Action<int, int> sink)
    {
        int start = checked((int)SessionStart(tradeDate));
        for (int second = 0; second < SessionSeconds; second++)
        {
            int ticks = TicksInSecond(second);
            if (ticks > 0)
            {
                sink(start + second, ticks);
            }
        }
    }

    /// <summary>Ticks in one second: the time-of-day rate times a random factor with mean 1, raised during a burst.</summary>
    private int TicksInSecond(int secondOfSession)
    {
        if (_burstSecondsLeft > 0)
        {
            _burstSecondsLeft--;
        }
        else if (_random.Below(1000) < 3)
        {
            _burstSecondsLeft = 1 + (int)_random.Below(30);
            _burstMultiplier = 2 + (int)_random.Below(7);
        }
        else
        {
            _burstMultiplier = 1;
        }

        long rate = RateTimesSixteen(secondOfSession) * _burstMultiplier;
        long uniformSum = _random.Below(1 << UniformBits) + _random.Below(1 << UniformBits);
        return (int)((rate * uniformSum) >> (RateScaleBits + UniformBits));
    }

    /// <summary>Mean ticks per second at this time of the session, times 16. The session starts at 17:00 CT.</summary>
    private static long RateTimesSixteen(int secondOfSession)
    {
        int minuteCt = ((17 * 60) + (secondOfSession / 60)) % (24 * 60);
        return minuteCt switch
        {
            < 2 * 60 => 24,             // 00:00-02:00 Asia
            < 8 * 60 + 30 => 40,        // 02:00-08:30 Europe
            < 9 * 60 + 30 => 320,       // 08:30-09:30 U.S. cash open
            < 14 * 60 => 112,           // 09:30-14:00 midday
            < 15 * 60 => 192,           // 14:00-15:00 into the cash close
            < 16 * 60 => 48,            // 15:00-16:00 after the close
            < 17 * 60 => 0,             // 16:00-17:00 daily break
            _ => 8,                     // 17:00-24:00 evening
        };
    }
}
