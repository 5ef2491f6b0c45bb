using System.Runtime.InteropServices;

namespace ListMmf.Benchmarks.Ipc;

/// <summary>One side of the book, as in the seed study's <c>BidAsk</c>: side, exchange, symbol, price, size, timestamp. 96 bytes.</summary>
[StructLayout(LayoutKind.Sequential, Size = 96)]
internal unsafe struct BidAsk
{
    public fixed byte Side[8];
    public fixed byte Exchange[16];
    public fixed byte Symbol[24];
    public double Price;
    public double Size;

    /// <summary><see cref="System.Diagnostics.Stopwatch"/> ticks when the writer appended it: a system-wide monotonic clock, so readers in other processes can compute how long it took to see it.</summary>
    public long TimestampTicks;
}

/// <summary>The seed study's 192-byte <c>BestBidAsk</c>: the best bid and the best offer.</summary>
[StructLayout(LayoutKind.Sequential, Size = 192)]
internal struct BestBidAsk
{
    public BidAsk BestBid;
    public BidAsk BestOffer;
}
