using BenchmarkDotNet.Attributes;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks.Sealed;

/// <summary>
/// Decoding Int32 values of the two kinds a tick table's integer columns hold, both sealed as frame of reference:
/// Unix-second times a few to a second (ascending, about 9 bits) and trade sizes of 1-200 (8 bits).
/// </summary>
public class SealedIntegerBenchmarks : SealedDecodeBenchmarks<int>
{
    /// <summary>Which column.</summary>
    public enum IntegerColumn
    {
        Times,
        Sizes,
    }

    [Params(IntegerColumn.Times, IntegerColumn.Sizes)]
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
            values[i] = Column == IntegerColumn.Times ? time : 1 + (int)random.Below(200);
        }

        return values;
    }
}
