using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Sealed;

/// <summary>
/// Decoding Int32 values of the kinds a tick table's integer columns hold: Unix-second times a few to a second
/// (ascending, about 9 bits, frame of reference), trade sizes of 1-200 (8 bits, frame of reference) and bursty sizes
/// of 1-9 lots with one trade in ten of 100-999 (4 bits patched with the outliers apart, 10 bits unpatched).
/// </summary>
[InvocationCount(1)]
public class SealedIntegerBenchmarks : SealedDecodeBenchmarks<int>
{
    /// <summary>Which column.</summary>
    public enum IntegerColumn
    {
        Times,
        Sizes,
        BurstySizes,
    }

    [Params(IntegerColumn.Times, IntegerColumn.Sizes, IntegerColumn.BurstySizes)]
    public IntegerColumn Column { get; set; }

    protected override string ColumnName => $"integers-{Column}";

    protected override int[] Values()
    {
        var random = new SplitMix64(23);
        int[] values = new int[Count];
        int time = 1_704_186_000;
        for (int i = 0; i < values.Length; i++)
        {
            time += random.Below(3) == 0 ? 1 : 0;
            values[i] = Column switch
            {
                IntegerColumn.Times => time,
                IntegerColumn.Sizes => 1 + (int)random.Below(200),
                _ => random.Below(10) == 0 ? 100 + (int)random.Below(900) : 1 + (int)random.Below(9),
            };
        }

        return values;
    }
}
