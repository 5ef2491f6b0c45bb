using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Sealed;

/// <summary>
/// Prices of each kind the sealed codecs meet (quarter points as ticks of a power of two, cents and five-place pips as
/// decimals), each a walk of up to 3 units a trade.
/// </summary>
[InvocationCount(1)]
public class SealedPriceBenchmarks : SealedDecodeBenchmarks<double>
{
    /// <summary>How the prices are quoted.</summary>
    public enum PriceUnit
    {
        QuarterPoints,
        Cents,
        Pips,
    }

    [Params(PriceUnit.QuarterPoints, PriceUnit.Cents, PriceUnit.Pips)]
    public PriceUnit Unit { get; set; }

    protected override string ColumnName => $"prices-{Unit}";

    /// <summary>A walk of up to 3 units a trade from a price typical of the unit, each price as a parser makes it.</summary>
    protected override double[] Values()
    {
        (long start, double perUnit) = Unit switch
        {
            PriceUnit.QuarterPoints => (18_000L, 4.0),
            PriceUnit.Cents => (18_734L, 100.0),
            _ => (108_731L, 100_000.0),
        };
        var random = new SplitMix64(17);
        double[] prices = new double[Count];
        long units = start;
        for (int i = 0; i < prices.Length; i++)
        {
            units += (long)random.Below(7) - 3;
            prices[i] = units / perUnit;
        }

        return prices;
    }
}
