using System;
using System.Linq;
using System.Reflection;
using System.Threading;
using Xunit;
using Xunit.Runners;

namespace ListMmfWine;

/// <summary>
/// <c>--list</c> prints the test classes; <c>--class NAME</c> runs one, printing a line as each test starts and one
/// with its result, then a summary line <c>class NAME passed=N failed=N skipped=N</c>; <c>host ARGS</c> is
/// ListMmf.TestHost (the child processes).
/// </summary>
public static class Program
{
    public const string LauncherVariable = "LISTMMF_TESTHOST_LAUNCHER";

    public static int Main(string[] args)
    {
        Environment.SetEnvironmentVariable(LauncherVariable, Environment.ProcessPath);
        return args switch
        {
            ["host", .. string[] rest] => ListMmf.TestHost.Program.Main(rest),
            ["--list"] => List(),
            ["--class", string name] => Run(name),
            _ => Usage(),
        };
    }

    private static Assembly Tests => typeof(ListMmf.Tests.TempDirectory).Assembly;

    private static int List()
    {
        foreach (string name in Tests.GetTypes()
            .Where(type => type.GetMethods().Any(method => method.GetCustomAttributes<FactAttribute>(inherit: true).Any()))
            .Select(type => type.FullName!)
            .Order(StringComparer.Ordinal))
        {
            Console.WriteLine(name);
        }

        return 0;
    }

    private static int Run(string className)
    {
        int passed = 0, failed = 0, skipped = 0;
        using var finished = new ManualResetEventSlim();
        using AssemblyRunner runner = AssemblyRunner.WithoutAppDomain(Tests.Location);
        object gate = new();
        // A process that dies mid-test leaves no summary; this line in its log names the test it died in.
        runner.OnTestStarting = info => { lock (gate) { Console.WriteLine($"START {info.TestDisplayName}"); } };
        runner.OnTestPassed = info => { lock (gate) { passed++; Console.WriteLine($"PASS {info.TestDisplayName}"); } };
        runner.OnTestSkipped = info => { lock (gate) { skipped++; Console.WriteLine($"SKIP {info.TestDisplayName}: {info.SkipReason}"); } };
        runner.OnTestFailed = info =>
        {
            lock (gate)
            {
                failed++;
                Console.WriteLine($"FAIL {info.TestDisplayName}: {info.ExceptionMessage}{Environment.NewLine}{info.ExceptionStackTrace}");
            }
        };
        runner.OnErrorMessage = info => { lock (gate) { failed++; Console.WriteLine($"ERROR {info.ExceptionMessage}"); } };
        runner.OnExecutionComplete = _ => finished.Set();
        runner.Start(typeName: className, parallel: false);
        finished.Wait();
        while (runner.Status != AssemblyRunnerStatus.Idle)
        {
            Thread.Sleep(10);
        }

        Console.WriteLine($"class {className} passed={passed} failed={failed} skipped={skipped}");
        Console.Out.Flush();
        return failed == 0 ? 0 : 1;
    }

    private static int Usage()
    {
        Console.Error.WriteLine("usage: --list | --class NAME | host ARGS...");
        return 3;
    }
}
