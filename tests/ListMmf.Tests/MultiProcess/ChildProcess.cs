using System;
using System.Diagnostics;
using System.IO;

namespace ListMmf.Tests.MultiProcess;

/// <summary>A ListMmf.TestHost child process: started with its arguments, waited for with a deadline, killed if still running.</summary>
public sealed class ChildProcess : IDisposable
{
    private readonly Process _process;

    private ChildProcess(Process process) => _process = process;

    public static ChildProcess Start(params string[] args) => StartWith(Launcher, [.. LauncherArguments, .. args]);

    /// <summary>
    /// Starts the child through bash with a file-size limit of <paramref name="kibibytes"/> and SIGXFSZ ignored,
    /// so that growing a file past the limit fails with EFBIG, as a full disk fails with ENOSPC (Linux, macOS).
    /// </summary>
    public static ChildProcess StartWithFileSizeLimit(long kibibytes, params string[] args) =>
        StartWith("bash", ["-c", $"trap '' XFSZ; ulimit -f {kibibytes}; exec dotnet \"$0\" \"$@\"", HostPath, .. args]);

    /// <summary>
    /// Starts the child under strace with <paramref name="straceOptions"/> (e.g. <c>-e inject=fsync:error=EIO</c>),
    /// so that the system calls named fail as a broken device or file system would make them fail (Linux).
    /// </summary>
    public static ChildProcess StartUnderStrace(string[] straceOptions, params string[] args) =>
        StartWith("strace", ["-f", "-qq", "-o", "/dev/null", .. straceOptions, "dotnet", HostPath, .. args]);

    /// <summary>Starts the child as the Unix user <paramref name="user"/> (runuser; the caller is root).</summary>
    public static ChildProcess StartAs(string user, params string[] args) =>
        StartWith("runuser", ["-u", user, "--", "dotnet", HostPath, .. args]);

    /// <summary>Starts the child with <paramref name="variable"/> set to <paramref name="value"/> in its environment.</summary>
    public static ChildProcess StartWithEnvironment(string variable, string value, params string[] args) =>
        StartWith(Launcher, [.. LauncherArguments, .. args], (variable, value));

    private static string HostPath => Path.Combine(AppContext.BaseDirectory, "ListMmf.TestHost.dll");

    /// <summary>The Wine stage's test program, which is also the child host there: Windows has no <c>dotnet</c> to start it with.</summary>
    private static string? WindowsLauncher => Environment.GetEnvironmentVariable("LISTMMF_TESTHOST_LAUNCHER");

    private static string Launcher => WindowsLauncher ?? "dotnet";

    private static string[] LauncherArguments => WindowsLauncher is null ? [HostPath] : ["host"];

    private static ChildProcess StartWith(string program, string[] args, (string Name, string Value)? environment = null)
    {
        var start = new ProcessStartInfo(program)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        foreach (string arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        if (environment is { } variable)
        {
            start.Environment[variable.Name] = variable.Value;
        }

        return new ChildProcess(Process.Start(start) ?? throw new InvalidOperationException($"{program} did not start"));
    }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    /// <summary>Waits for the first line the child prints, e.g. "writing" once it holds the file.</summary>
    public string? ReadLine() => _process.StandardOutput.ReadLine();

    /// <summary>Writes a line to the child's standard input (a "go" to a child that waits for one).</summary>
    public void WriteLine(string line)
    {
        _process.StandardInput.WriteLine(line);
        _process.StandardInput.Flush();
    }

    /// <summary>Closes the child's standard input (a "hold" child then exits).</summary>
    public void CloseInput() => _process.StandardInput.Close();

    /// <summary>Waits for the child to exit; returns its exit code, or fails after <paramref name="timeout"/>.</summary>
    public int WaitForExit(TimeSpan timeout)
    {
        if (!_process.WaitForExit(timeout))
        {
            _process.Kill();
            throw new TimeoutException($"child {_process.Id} did not exit within {timeout}");
        }

        return _process.ExitCode;
    }

    /// <summary>Waits up to <paramref name="timeout"/> for the child to exit; returns whether it did.</summary>
    public bool TryWaitForExit(TimeSpan timeout) => _process.WaitForExit(timeout);

    public string ErrorText() => _process.StandardError.ReadToEnd();

    /// <summary>Kills the child at once (SIGKILL on Unix), as a crash would end it.</summary>
    public void Kill()
    {
        _process.Kill();
        _process.WaitForExit();
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            Kill();
        }

        _process.Dispose();
    }
}
