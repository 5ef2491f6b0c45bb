using System.Diagnostics;

namespace ListMmf.Benchmarks.Ipc;

/// <summary>An item the latency benchmark appends, carrying the moment it was appended so a reader can tell how long it took to see it.</summary>
internal interface IIpcItem<T>
    where T : unmanaged
{
    static abstract string Name { get; }

    static abstract T Stamped(long ticks);

    /// <summary>Stopwatch ticks from the stamp in <paramref name="item"/> to <paramref name="now"/>.</summary>
    static abstract long Age(in T item, long now);
}

/// <summary>The 192-byte quote, stamped with the full 64-bit Stopwatch reading.</summary>
internal readonly struct QuoteItem : IIpcItem<BestBidAsk>
{
    public static string Name => "BestBidAsk (192 B)";

    public static BestBidAsk Stamped(long ticks)
    {
        var quote = default(BestBidAsk);
        quote.BestBid.Price = 4000.25;
        quote.BestBid.Size = 3;
        quote.BestOffer.Price = 4000.50;
        quote.BestOffer.Size = 5;
        quote.BestBid.TimestampTicks = ticks;
        return quote;
    }

    public static long Age(in BestBidAsk item, long now) => now - item.BestBid.TimestampTicks;
}

/// <summary>An Int32 timestamp; it carries the low 32 bits of the Stopwatch reading, enough for ages under a second.</summary>
internal readonly struct TimestampItem : IIpcItem<int>
{
    public static string Name => "Int32 timestamp (4 B)";

    public static int Stamped(long ticks) => unchecked((int)ticks);

    public static long Age(in int item, long now) => unchecked((uint)((int)now - item));
}

/// <summary>The stopwatch the writer and every reader share: monotonic and system-wide on Linux, macOS and Windows.</summary>
internal static class Clock
{
    public static long Now => Stopwatch.GetTimestamp();

    public static long FromSeconds(double seconds) => (long)(seconds * Stopwatch.Frequency);
}
