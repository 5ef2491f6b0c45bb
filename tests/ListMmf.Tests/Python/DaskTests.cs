using System;
using System.Text.RegularExpressions;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.Python;

/// <summary>A fact that needs a Python with dask and distributed; without one it reports as skipped.</summary>
public sealed class DaskFactAttribute : FactAttribute
{
    /// <summary>The interpreter that imports dask.dataframe and distributed, or null.</summary>
    public static readonly Lazy<string?> Python = new(() => PythonProcess.FirstThatImports("dask.dataframe", "distributed"));

    public DaskFactAttribute()
    {
        if (Python.Value is null)
        {
            Skip = "needs a python3 that imports dask.dataframe and distributed (Debian: apt-get install python3-dask " +
                "python3-distributed; .ci/run installs them)";
        }
    }
}

/// <summary>A distributed engine reads the tables themselves: Dask, on two worker processes, over a folder of tables.</summary>
public sealed class DaskTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [DaskFact]
    public void DaskOnTwoWorkerProcessesComputesTheDailyVwapsAndCountsThisLibraryDoes()
    {
        Assert.Equal(0, TickDays.Write(_directory.Path));

        (int exitCode, string output) = PythonProcess.Run(DaskFactAttribute.Python.Value!, ["tests/python/dask_vwap.py", _directory.Path]);

        Assert.True(exitCode == 0, output);
        Assert.Contains("24 tables as 24 partitions, on 2 worker processes", output, StringComparison.Ordinal);
        Assert.Matches(new Regex(@"dask, every day: 24 tables, 48 figures compared \(ticks and VWAP\), 0 different"), output);
        Assert.Matches(new Regex(@"dask, \S+ to \S+: 8 tables, 16 figures compared \(ticks and VWAP\), 0 different"), output);
    }
}
