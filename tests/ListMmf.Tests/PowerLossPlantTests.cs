using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// The power-loss harness's planted bugs (tests/PowerLoss/plants, run by .ci/power-loss-plants) are patches of the
/// library's source: a change that moves the code they patch must plant them again, which this finds in the test
/// stage rather than at the end of CI.
/// </summary>
public sealed class PowerLossPlantTests
{
    [GitCheckoutFact]
    public void EveryPlantedBugStillAppliesToTheSource()
    {
        string[] plants = Directory.GetFiles(RepositoryFiles.Path("tests", "PowerLoss", "plants"), "*.patch")
            .Order(StringComparer.Ordinal).ToArray();

        Assert.NotEmpty(plants);
        Assert.All(plants, plant =>
        {
            (int exit, string error) = Git("apply", "--check", plant);
            Assert.True(exit == 0, $"{Path.GetFileName(plant)} no longer applies; plant the same bug in the code as it is now: {error}");
        });
    }

    private static (int Exit, string Error) Git(params string[] args)
    {
        var start = new ProcessStartInfo("git")
        {
            WorkingDirectory = RepositoryFiles.Root,
            RedirectStandardError = true,
            RedirectStandardOutput = true,
        };
        foreach (string arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using Process git = Process.Start(start)!;
        string error = git.StandardError.ReadToEnd();
        git.StandardOutput.ReadToEnd();
        git.WaitForExit();
        return (git.ExitCode, error);
    }
}

/// <summary>A fact about the repository's files that needs its git checkout and git (not a copy of the tests, nor Windows under Wine).</summary>
public sealed class GitCheckoutFactAttribute : FactAttribute
{
    public GitCheckoutFactAttribute()
    {
        if (OperatingSystem.IsWindows())
        {
            Skip = "reads the git checkout with git, which the Windows stage does not run";
        }
        else if (!Directory.Exists(Path.Combine(RepositoryFiles.Root, ".git")))
        {
            Skip = $"needs the git checkout; {RepositoryFiles.Root} has no .git";
        }
    }
}
