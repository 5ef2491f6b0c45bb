using System;

namespace ListMmf;

/// <summary>Reports a part of a longer job: a fraction of the part, mapped into <c>[start, start + share]</c> of the whole.</summary>
internal sealed class ScaledProgress(IProgress<double> whole, double start, double share) : IProgress<double>
{
    public void Report(double value) => whole.Report(start + (share * value));
}
