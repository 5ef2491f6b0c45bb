using System;

namespace ListMmf.Tests;

/// <summary>
/// Reports on the calling thread, as the checks do (unlike <see cref="Progress{T}"/>, which posts to a context), so
/// that every fraction, the last included, is seen before the check returns.
/// </summary>
internal sealed class SynchronousProgress(Action<double> report) : IProgress<double>
{
    public void Report(double value) => report(value);
}
