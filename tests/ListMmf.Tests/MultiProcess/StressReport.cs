using System;
using System.Globalization;
using System.IO;
using System.Text.RegularExpressions;
using Xunit;
using Xunit.Abstractions;

namespace ListMmf.Tests.MultiProcess;

/// <summary>
/// The figures of the stress tests: read from the children's "name=value" lines, written to the test output and,
/// when LISTMMF_STRESS_REPORT names a file, appended to it (CI prints it).
/// </summary>
public static class StressReport
{
    public static void Publish(ITestOutputHelper output, string report)
    {
        output.WriteLine(report);
        string? file = Environment.GetEnvironmentVariable("LISTMMF_STRESS_REPORT");
        if (!string.IsNullOrEmpty(file))
        {
            File.AppendAllText(file, report + Environment.NewLine);
        }
    }

    /// <summary>The value of <c>name=value</c> in a child's line; fails the test if it is missing.</summary>
    public static long Figure(string line, string name)
    {
        Match match = Regex.Match(line, $@"\b{name}=(\d+)");
        Assert.True(match.Success, $"no {name} in '{line}'");
        return long.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
    }
}
