using System.Collections.Generic;
using System.Linq;

namespace ListMmf.Benchmarks.Core;

/// <summary>The median the interleaved commands report: of an odd count the middle value, of an even count the mean of the two middle ones; NaN of none.</summary>
internal static class Medians
{
    public static double Of(IEnumerable<double> values)
    {
        double[] sorted = values.Order().ToArray();
        return sorted.Length == 0 ? double.NaN
            : sorted.Length % 2 == 1 ? sorted[sorted.Length / 2]
            : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }
}
