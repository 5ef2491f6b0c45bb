using System.Collections.Generic;

namespace ListMmf.Benchmarks.Peers;

/// <summary>The list of wrong answers a peers run collects: the command fails when it is not empty.</summary>
internal static class Failures
{
    /// <summary>Adds <paramref name="failure"/> unless <paramref name="condition"/> holds.</summary>
    public static void Check(this List<string> failures, bool condition, string failure)
    {
        if (!condition)
        {
            failures.Add(failure);
        }
    }
}
