using System;
using System.Runtime.InteropServices;

namespace ListMmf.Tests;

/// <summary>A 192-byte best-bid/ask record, the shape of the live quote structs the engine stores.</summary>
public unsafe struct Quote192 : IEquatable<Quote192>
{
    public long Sequence;
    public double BidPrice;
    public double BidSize;
    public double AskPrice;
    public double AskSize;
    public long TimestampTicks;
    public fixed long Reserved[18];

    public static Quote192 For(long i)
    {
        var quote = new Quote192
        {
            Sequence = i,
            BidPrice = 4000 + (i * 0.25),
            BidSize = i % 97,
            AskPrice = 4000.25 + (i * 0.25),
            AskSize = i % 89,
            TimestampTicks = 638_000_000_000_000_000 + i,
        };
        quote.Reserved[0] = ~i;
        quote.Reserved[17] = i * 3;
        return quote;
    }

    /// <summary>Bitwise equality: a round trip must give back exactly the bytes that were stored.</summary>
    public readonly bool Equals(Quote192 other) =>
        MemoryMarshal.AsBytes(new ReadOnlySpan<Quote192>(in this)).SequenceEqual(MemoryMarshal.AsBytes(new ReadOnlySpan<Quote192>(in other)));

    public override readonly bool Equals(object? obj) => obj is Quote192 other && Equals(other);

    public override readonly int GetHashCode() => Sequence.GetHashCode();

    public static bool operator ==(Quote192 left, Quote192 right) => left.Equals(right);

    public static bool operator !=(Quote192 left, Quote192 right) => !left.Equals(right);
}
