using System;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>A problem with the benchmark dataset that the console reports in one line.</summary>
internal sealed class DatasetException : Exception
{
    public DatasetException(string message)
        : base(message)
    {
    }
}
