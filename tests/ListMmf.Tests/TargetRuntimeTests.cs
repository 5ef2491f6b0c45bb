using System;
using System.Reflection;
using System.Runtime.Versioning;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// Each build of the suite runs on the runtime it was built for: the net8.0 pass tests the library's net8.0 assembly
/// on .NET 8 (self-contained, see the project file), not rolled forward to the newest runtime installed.
/// </summary>
public sealed class TargetRuntimeTests
{
    [Fact]
    public void TheSuiteRunsOnTheRuntimeItsBuildTargets()
    {
        string target = typeof(TargetRuntimeTests).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()!.FrameworkName;
        var targeted = new Version(target[(target.IndexOf("Version=v", StringComparison.Ordinal) + "Version=v".Length)..]);

        Assert.Equal(targeted.Major, Environment.Version.Major);
    }
}
