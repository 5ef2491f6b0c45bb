using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace ListMmf.Benchmarks;

/// <summary>
/// Runs BenchmarkDotNet for the commands that hand it over, and turns what it reports into the exit code: it returns
/// its summaries and prints a table of NA for a benchmark that did not build, threw or crashed, so a job that only
/// ran it exited 0 for zero benchmarks measured.
/// </summary>
internal static class BenchmarkRuns
{
    /// <summary>
    /// How long the build of a benchmark's process may take: BenchmarkDotNet's default of two minutes ran out on a
    /// loaded machine, and the run then measured nothing.
    /// </summary>
    public static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(15);

    /// <summary>Runs the benchmarks <paramref name="args"/> select; 0 when every one of them ran, 1 otherwise.</summary>
    public static int Run(string[] args)
    {
        IConfig config = ManualConfig.Create(DefaultConfig.Instance).WithBuildTimeout(BuildTimeout);
        IEnumerable<Summary> summaries = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args, config);
        return ExitCode(summaries, Console.Error);
    }

    /// <summary>1 when a summary has a critical validation error or a benchmark without a successful report, each named on <paramref name="error"/>.</summary>
    private static int ExitCode(IEnumerable<Summary> summaries, TextWriter error)
    {
        var failures = new List<string>();
        foreach (Summary summary in summaries)
        {
            failures.AddRange(summary.ValidationErrors.Where(problem => problem.IsCritical).Select(problem => problem.Message));
            failures.AddRange(summary.BenchmarksCases
                .Where(benchmark => summary.Reports.FirstOrDefault(report => report.BenchmarkCase == benchmark) is not { Success: true })
                .Select(benchmark => $"{benchmark.DisplayInfo} did not run to the end (see its log above)"));
        }

        foreach (string failure in failures)
        {
            error.WriteLine($"benchmark failed: {failure}");
        }

        return failures.Count == 0 ? 0 : 1;
    }
}
